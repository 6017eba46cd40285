/* Dots and Boxes on ROWS x COLUMNS boxes, solved by a straightforward sweep over every set of
 * drawn edges (a yardstick for the tier solver: benches/dots_and_boxes.sh).
 *
 *   dots_and_boxes ROWS COLUMNS
 *
 * Prints the first player's boxes minus the second's with both playing optimally. Edges are
 * numbered as in gamesolver: the horizontal ones row by row, then the vertical ones. value[m]
 * is the best (mover's boxes - opponent's) from the board whose drawn edges are the bits of m;
 * a move to m | bit is numerically larger, so one pass from the full board down to the empty
 * one values every board after all the boards it leads to. One byte per board: 2^edges bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ROWS COLUMNS\n", argv[0]);
        return 2;
    }
    int rows = atoi(argv[1]), columns = atoi(argv[2]);
    int horizontal = (rows + 1) * columns;
    int edges = horizontal + rows * (columns + 1);
    if (rows < 1 || columns < 1 || edges > 32) {
        fprintf(stderr, "boards of 1 to 32 edges\n");
        return 2;
    }
    /* For each edge, the (one or two) boxes it borders, as masks of their four edges. */
    uint64_t boxes[64][2];
    int count[64] = {0};
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < columns; c++) {
            int top = r * columns + c, bottom = (r + 1) * columns + c;
            int left = horizontal + r * (columns + 1) + c, right = left + 1;
            uint64_t mask = (1ull << top) | (1ull << bottom) | (1ull << left) | (1ull << right);
            int sides[4] = {top, bottom, left, right};
            for (int s = 0; s < 4; s++) {
                boxes[sides[s]][count[sides[s]]++] = mask;
            }
        }
    }
    uint64_t boards = 1ull << edges;
    int8_t *value = malloc(boards);
    if (!value) {
        fprintf(stderr, "cannot allocate %llu bytes\n", (unsigned long long)boards);
        return 1;
    }
    for (uint64_t m = boards; m-- > 0;) {
        int best = -128;
        for (int e = 0; e < edges; e++) {
            if (m >> e & 1) {
                continue;
            }
            uint64_t next = m | (1ull << e);
            int completed = 0;
            for (int b = 0; b < count[e]; b++) {
                completed += (next & boxes[e][b]) == boxes[e][b];
            }
            int v = completed ? completed + value[next] : -value[next];
            if (v > best) {
                best = v;
            }
        }
        value[m] = best == -128 ? 0 : (int8_t)best;
    }
    printf("%d\n", value[0]);
    free(value);
    return 0;
}
