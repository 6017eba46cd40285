// Yardstick: a straightforward O(n^2) Stone Game II (LeetCode 1140), the same recurrence as
// gamesolver's specialised solver, written the obvious way in C++:
//   f(i, m) = suffix[i]                                              if 2m >= n - i
//   f(i, m) = suffix[i] - min( min_{1<=x<=m} f(i+x, m), min_{m<x<=2m} f(i+x, x) )
// The first minimum slides down column m (a std::deque per column), the second is a window
// over g(x) = f(i+x, x) whose ends both move forward as m grows (a std::deque per row). The
// table is one std::vector per row i, holding m = 1 .. (n-i-1)/2.
// Reads integers separated by commas/whitespace from argv[1] (or stdin); prints Alice's stones.
// Build: g++ -O2 -o stone_game_ii_on2 stone_game_ii_on2.cpp
#include <algorithm>
#include <cstdio>
#include <deque>
#include <utility>
#include <vector>

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
    const int n = (int)piles.size();
    std::vector<long long> suffix(n + 1, 0);
    for (int i = n - 1; i >= 0; --i) suffix[i] = suffix[i + 1] + piles[i];

    // f[i][m] for 2m < n - i; known states are read from suffix.
    std::vector<std::vector<long long>> f(n + 1);
    auto get = [&](int i, int m) -> long long {
        return 2 * m >= n - i ? suffix[i] : f[i][m];
    };
    std::vector<std::deque<std::pair<int, long long>>> column(n / 2 + 2);
    for (int i = n - 1; i >= 0; --i) {
        const int left = n - i;
        const int top = (left - 1) / 2;
        f[i].assign(top + 1, 0);
        std::deque<std::pair<int, long long>> row;  // (x, f(i+x, x)), values increasing
        int added = 1;
        for (int m = 1; m <= top; ++m) {
            // Column m's window: rows i+1 .. i+m.
            std::deque<std::pair<int, long long>> &col = column[m];
            while (!col.empty() && col.front().first > i + m) col.pop_front();
            long long worst = col.empty() ? suffix[i] : col.front().second;
            // Rows of the window below the last unknown one are known: suffix sums.
            if (i + m >= n - 2 * m) worst = std::min(worst, suffix[i + m]);
            // Row i's window: x in (m, 2m].
            while (added < 2 * m) {
                ++added;
                long long g = get(i + added, added);
                while (!row.empty() && row.back().second >= g) row.pop_back();
                row.emplace_back(added, g);
            }
            while (!row.empty() && row.front().first <= m) row.pop_front();
            if (!row.empty()) worst = std::min(worst, row.front().second);
            const long long result = suffix[i] - worst;
            f[i][m] = result;
            while (!col.empty() && col.back().second >= result) col.pop_back();
            col.emplace_back(i, result);
        }
    }
    std::printf("%lld\n", get(0, 1));
    return 0;
}
