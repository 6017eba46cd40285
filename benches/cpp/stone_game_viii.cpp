// Yardstick: the classic O(n) Stone Game VIII (LeetCode 1872) as most solutions write it,
// reading the stones with scanf from argv[1] (or stdin), whitespace-separated:
// prefix sums, then f = max(f, prefix[i] - f) from the right. Prints Alice's score minus Bob's.
// Build: g++ -O2 -o stone_game_viii stone_game_viii.cpp
#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
    FILE *in = argc > 1 ? std::fopen(argv[1], "rb") : stdin;
    if (!in) { std::perror(argv[1]); return 1; }
    std::vector<long long> prefix;
    long long stone, sum = 0;
    while (std::fscanf(in, "%lld", &stone) == 1) {
        sum += stone;
        prefix.push_back(sum);
    }
    const int n = (int)prefix.size();
    long long f = prefix[n - 1];
    for (int i = n - 2; i >= 1; --i) f = std::max(f, prefix[i] - f);
    std::printf("%lld\n", f);
    return 0;
}
