// LeetCode 913 (Cat and Mouse), the straightforward retrograde solution, as a yardstick for
// gamesolver's retrograde solver (benches/cat_and_mouse.sh): arrays over every (mouse, cat,
// turn), a count of undecided moves per state, a queue from the final states, predecessors
// found on the fly (the graph is undirected). Outcome and remoteness of every state.
//
// Input (stdin): n, then for each node its degree and neighbours. Output: the answer (1 mouse,
// 2 cat, 0 draw) and the start's remoteness (-1 for a draw).
#include <cstdio>
#include <cstdint>
#include <vector>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    std::vector<std::vector<int>> adj(n);
    for (int v = 0; v < n; v++) {
        int d;
        if (scanf("%d", &d) != 1) return 1;
        adj[v].resize(d);
        for (int &w : adj[v]) if (scanf("%d", &w) != 1) return 1;
    }
    const size_t states = (size_t)n * n * 2;
    auto id = [n](int m, int c, int t) { return ((size_t)m * n + c) * 2 + t; };
    // result: 0 undecided, 1 mouse wins, 2 cat wins; t: 0 mouse to move, 1 cat to move.
    std::vector<uint8_t> result(states, 0);
    std::vector<uint32_t> degree(states, 0), remote(states, 0);
    std::vector<uint32_t> queue;
    queue.reserve(states);
    for (int m = 0; m < n; m++)
        for (int c = 1; c < n; c++) {
            int cat_moves = 0;
            for (int w : adj[c]) cat_moves += w != 0;
            degree[id(m, c, 0)] = adj[m].size();
            degree[id(m, c, 1)] = cat_moves;
        }
    for (int c = 1; c < n; c++)
        for (int t = 0; t < 2; t++) {
            result[id(0, c, t)] = 1; queue.push_back(id(0, c, t));
            result[id(c, c, t)] = 2; queue.push_back(id(c, c, t));
        }
    for (size_t head = 0; head < queue.size(); head++) {
        size_t s = queue[head];
        int t = s % 2, c = (s / 2) % n, m = (s / 2) / n;
        uint8_t r = result[s];
        // The previous mover is the other side: it moved into (m, c).
        int pt = 1 - t;
        if (pt == 0) {  // the mouse moved from a neighbour of m
            for (int pm : adj[m]) {
                size_t p = id(pm, c, 0);
                if (result[p] || pm == 0 || pm == c) continue;
                if (r == 1) { result[p] = 1; remote[p] = remote[s] + 1; queue.push_back(p); }
                else if (--degree[p] == 0) { result[p] = 2; remote[p] = remote[s] + 1; queue.push_back(p); }
            }
        } else {  // the cat moved from a neighbour of c (never the hole)
            for (int pc : adj[c]) {
                if (pc == 0) continue;
                size_t p = id(m, pc, 1);
                if (result[p] || m == 0 || m == pc) continue;
                if (r == 2) { result[p] = 2; remote[p] = remote[s] + 1; queue.push_back(p); }
                else if (--degree[p] == 0) { result[p] = 1; remote[p] = remote[s] + 1; queue.push_back(p); }
            }
        }
    }
    size_t start = id(1, 2, 0);
    printf("%d %d\n", result[start], result[start] ? (int)remote[start] : -1);
    return 0;
}
