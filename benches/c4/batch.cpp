// Batch driver for the c4 yardstick, compiled against a checkout of c4 outside this repository
// by benches/c4/build.sh: reads positions, one per line, as column digits from 1 (Pons' notation;
// with --zero, c4's 0-based columns), solves each strongly on one Solver (its table kept across
// positions, as gamesolver's --batch keeps its own), and prints "POSITION SCORE". STATS=1 prints
// c4's search statistics at the end.
#include <iostream>
#include <string>
#include <cstring>
#include <cstdlib>
#include "solver/position.h"
#include "solver/solver.h"

int main(int argc, char **argv) {
    bool zero = argc > 1 && std::strcmp(argv[1], "--zero") == 0;
    Solver solver{};
    std::string line;
    while (std::getline(std::cin, line)) {
        std::string moves = line.substr(0, line.find(' '));
        Position pos{};
        for (char c : moves) {
            int col = zero ? c - '0' : c - '1';
            pos.move(col);
        }
        int score = solver.solve_strong(pos);
        std::cout << moves << " " << score << "\n";
    }
    if (std::getenv("STATS")) std::cerr << solver.get_merged_stats().display_all_stats() << std::endl;
    return 0;
}
