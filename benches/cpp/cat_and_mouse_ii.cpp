// LeetCode 1728 (Cat and Mouse II), the straightforward retrograde solution, as a yardstick
// for gamesolver's retrograde solver (benches/cat_and_mouse.sh): arrays over every (mouse,
// cat, turn), undecided-move counts, a queue from the final states, predecessors found on the
// fly (a jump can be made backwards). Endless play is the cat's, as in LeetCode.
//
// Input (stdin): rows, columns, catJump, mouseJump, then the rows. Output: 1 if the mouse wins
// (within 1000 moves), else 0, and the start's remoteness (-1 for a draw).
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

int R, C;
std::vector<std::string> grid;

// The cells one jump of at most `reach` from `cell` (and the cell itself).
static void jumps(int cell, int reach, std::vector<int> &out) {
    out.clear();
    out.push_back(cell);
    int r = cell / C, c = cell % C;
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; d++)
        for (int k = 1; k <= reach; k++) {
            int nr = r + dr[d] * k, nc = c + dc[d] * k;
            if (nr < 0 || nc < 0 || nr >= R || nc >= C || grid[nr][nc] == '#') break;
            out.push_back(nr * C + nc);
        }
}

int main() {
    int cat_jump, mouse_jump;
    if (scanf("%d %d %d %d", &R, &C, &cat_jump, &mouse_jump) != 4) return 1;
    grid.resize(R);
    char buffer[4096];
    int mouse = 0, cat = 0, food = 0;
    for (int r = 0; r < R; r++) {
        if (scanf("%4095s", buffer) != 1) return 1;
        grid[r] = buffer;
        for (int c = 0; c < C; c++) {
            if (grid[r][c] == 'M') mouse = r * C + c;
            if (grid[r][c] == 'C') cat = r * C + c;
            if (grid[r][c] == 'F') food = r * C + c;
        }
    }
    const int cells = R * C;
    const size_t states = (size_t)cells * cells * 2;
    auto id = [cells](int m, int c, int t) { return ((size_t)m * cells + c) * 2 + t; };
    std::vector<std::vector<int>> reach_mouse(cells), reach_cat(cells);
    for (int cell = 0; cell < cells; cell++) {
        if (grid[cell / C][cell % C] == '#') continue;
        jumps(cell, mouse_jump, reach_mouse[cell]);
        jumps(cell, cat_jump, reach_cat[cell]);
    }
    // result: 0 undecided, 1 mouse wins, 2 cat wins; t: 0 mouse to move, 1 cat to move.
    std::vector<uint8_t> result(states, 0);
    std::vector<uint32_t> degree(states, 0), remote(states, 0);
    std::vector<uint32_t> queue;
    for (int m = 0; m < cells; m++) {
        if (grid[m / C][m % C] == '#') continue;
        for (int c = 0; c < cells; c++) {
            if (grid[c / C][c % C] == '#') continue;
            degree[id(m, c, 0)] = reach_mouse[m].size();
            degree[id(m, c, 1)] = reach_cat[c].size();
            for (int t = 0; t < 2; t++) {
                uint8_t r = m == c || c == food ? 2 : m == food ? 1 : 0;
                if (r) { result[id(m, c, t)] = r; queue.push_back(id(m, c, t)); }
            }
        }
    }
    for (size_t head = 0; head < queue.size(); head++) {
        size_t s = queue[head];
        int t = s % 2, c = (s / 2) % cells, m = (s / 2) / cells;
        uint8_t r = result[s];
        if (t == 1) {  // the mouse moved here, from a cell that reaches m
            for (int pm : reach_mouse[m]) {
                size_t p = id(pm, c, 0);
                if (result[p]) continue;
                if (r == 1) { result[p] = 1; remote[p] = remote[s] + 1; queue.push_back(p); }
                else if (--degree[p] == 0) { result[p] = 2; remote[p] = remote[s] + 1; queue.push_back(p); }
            }
        } else {  // the cat moved here
            for (int pc : reach_cat[c]) {
                size_t p = id(m, pc, 1);
                if (result[p]) continue;
                if (r == 2) { result[p] = 2; remote[p] = remote[s] + 1; queue.push_back(p); }
                else if (--degree[p] == 0) { result[p] = 1; remote[p] = remote[s] + 1; queue.push_back(p); }
            }
        }
    }
    size_t start = id(mouse, cat, 0);
    bool wins = result[start] == 1 && remote[start] <= 1000;
    printf("%d %d\n", wins ? 1 : 0, result[start] ? (int)remote[start] : -1);
    return 0;
}
