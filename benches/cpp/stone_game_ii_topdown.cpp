// Yardstick: the classic top-down memoized DP for Stone Game II (LeetCode 1140), as most
// write-ups give it: an n x (n+1) memo array and `if (2m >= n-i) return suffix[i]`.
// Reads integers separated by commas/whitespace (or a JSON array) from the file named by
// argv[1], or from stdin; prints the most stones Alice can get.
// Build: g++ -O2 -o stone_game_ii_topdown stone_game_ii_topdown.cpp
#include <cstdio>
#include <cstdlib>
#include <vector>

static int n;
static std::vector<long long> suffix_sum;
static std::vector<std::vector<long long>> memo;

static long long dfs(int i, int m) {
    if (2 * m >= n - i) return suffix_sum[i];
    long long &slot = memo[i][m];
    if (slot != -1) return slot;
    long long worst = suffix_sum[i];
    for (int x = 1; x <= 2 * m; ++x) {
        long long next = dfs(i + x, m > x ? m : x);
        if (next < worst) worst = next;
    }
    return slot = suffix_sum[i] - worst;
}

int main(int argc, char **argv) {
    FILE *in = argc > 1 ? std::fopen(argv[1], "rb") : stdin;
    if (!in) { std::perror(argv[1]); return 1; }
    std::vector<long long> piles;
    long long value;
    for (;;) {
        int c = std::fgetc(in);
        if (c == EOF) break;
        if (c == '-' || (c >= '0' && c <= '9')) {
            std::ungetc(c, in);
            if (std::fscanf(in, "%lld", &value) != 1) break;
            piles.push_back(value);
        }
    }
    n = (int)piles.size();
    suffix_sum.assign(n + 1, 0);
    for (int i = n - 1; i >= 0; --i) suffix_sum[i] = suffix_sum[i + 1] + piles[i];
    memo.assign(n, std::vector<long long>(n + 1, -1));
    std::printf("%lld\n", dfs(0, 1));
    return 0;
}
