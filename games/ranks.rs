//! Ranking sets of bits: the combinatorial number system in colex order, shared by the games
//! that implement [`Tiered`](crate::Tiered).

/// `BINOMIAL[n][k]` = C(n, k) for n, k ≤ 64 (every value fits: C(64, 32) < 2⁶⁴).
pub(crate) static BINOMIAL: [[u64; 66]; 65] = binomials();

const fn binomials() -> [[u64; 66]; 65] {
    let mut table = [[0u64; 66]; 65];
    let mut n = 0;
    while n <= 64 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1].wrapping_add(table[n - 1][k]);
            k += 1;
        }
        n += 1;
    }
    table
}

/// The rank of a set of bits among the sets with as many bits, in colex order (which is the
/// numeric order of the masks): the set bits `c₀ < c₁ < …` have rank `Σ C(cᵢ, i + 1)`.
pub(crate) fn colex_rank(bits: u64) -> u64 {
    let (mut rank, mut bits, mut below) = (0, bits, 0);
    while bits != 0 {
        below += 1;
        rank += BINOMIAL[bits.trailing_zeros() as usize][below];
        bits &= bits - 1;
    }
    rank
}

/// The set of `count` bits among the lowest `width` whose colex rank is `rank`, or `None` if
/// `rank ≥ C(width, count)`.
pub(crate) fn colex_unrank(count: usize, rank: u64, width: usize) -> Option<u64> {
    if count > width || width > 64 || rank >= BINOMIAL[width][count] {
        return None;
    }
    let (mut bits, mut rank, mut bit) = (0u64, rank, width);
    for held in (1..=count).rev() {
        bit -= 1;
        while BINOMIAL[bit][held] > rank {
            bit -= 1;
        }
        bits |= 1 << bit;
        rank -= BINOMIAL[bit][held];
    }
    Some(bits)
}

/// The bits of `bits` at the places `keep` has set, packed down to the lowest bits.
#[inline]
pub(crate) fn pack(bits: u32, mut keep: u32) -> u32 {
    let (mut packed, mut at) = (0, 0);
    while keep != 0 {
        let low = keep.trailing_zeros();
        packed |= (bits >> low & 1) << at;
        at += 1;
        keep &= keep - 1;
    }
    packed
}

/// The inverse of [`pack`]: the low bits of `packed` spread onto the places `keep` has set.
#[inline]
pub(crate) fn spread(mut packed: u32, mut keep: u32) -> u32 {
    let mut bits = 0;
    while keep != 0 && packed != 0 {
        let low = keep & keep.wrapping_neg();
        if packed & 1 == 1 {
            bits |= low;
        }
        packed >>= 1;
        keep &= keep - 1;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_up_in_numeric_order() {
        for width in [0usize, 1, 5, 9] {
            for (count, &sets_of_count) in BINOMIAL[width].iter().enumerate().take(width + 1) {
                let sets: Vec<u64> = (0..1u64 << width)
                    .filter(|bits| bits.count_ones() as usize == count)
                    .collect();
                assert_eq!(sets.len() as u64, sets_of_count);
                for (rank, &bits) in sets.iter().enumerate() {
                    assert_eq!(colex_rank(bits), rank as u64);
                    assert_eq!(colex_unrank(count, rank as u64, width), Some(bits));
                }
                assert_eq!(colex_unrank(count, sets.len() as u64, width), None);
            }
        }
    }
}
