/* Dots and Boxes on ROWS x COLUMNS boxes, solved by a sweep over every set of drawn edges:
 * the yardsticks for the tier solver (benches/dots_and_boxes.sh).
 *
 *   dots_and_boxes [--tight] ROWS COLUMNS
 *
 * Prints the first player's boxes minus the second's with both playing optimally. Edges are
 * numbered as in gamesolver: the horizontal ones row by row, then the vertical ones. value[m]
 * is the best (mover's boxes - opponent's) from the board whose drawn edges are the bits of m;
 * a move to m | bit is numerically larger, so one pass from the full board down to the empty
 * one values every board after all the boards it leads to. One byte per board: 2^edges bytes.
 *
 * Two sweeps, the same values:
 * - straightforward (the default): every edge of every board is tested, and a move's completed
 *   boxes are counted from the list of the boxes its edge borders;
 * - --tight (issue 25's yardstick for the tier solver's kernel): only the free edges are
 *   visited (the lowest set bit of the complement, cleared as it goes), and each edge's boxes
 *   are two precomputed masks, so a move is a few instructions and one byte load.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* For each edge, the masks of the (one or two) boxes it borders; a missing second box is the
 * mask of all 64 bits, which no board of at most 32 edges completes. */
static uint64_t first[64], second[64];

static void straightforward(int8_t *value, int edges) {
    for (uint64_t m = 1ull << edges; m-- > 0;) {
        int best = -128;
        for (int e = 0; e < edges; e++) {
            if (m >> e & 1) {
                continue;
            }
            uint64_t next = m | (1ull << e);
            int completed = 0;
            uint64_t boxes[2] = {first[e], second[e]};
            for (int b = 0; b < 2; b++) {
                completed += boxes[b] != ~0ull && (next & boxes[b]) == boxes[b];
            }
            int v = completed ? completed + value[next] : -value[next];
            if (v > best) {
                best = v;
            }
        }
        value[m] = best == -128 ? 0 : (int8_t)best;
    }
}

static void tight(int8_t *value, int edges) {
    uint64_t all = (1ull << edges) - 1;
    value[all] = 0;
    for (uint64_t m = all; m-- > 0;) {
        int best = -128;
        for (uint64_t free = ~m & all; free; free &= free - 1) {
            int e = __builtin_ctzll(free);
            uint64_t next = m | (1ull << e);
            int completed = ((next & first[e]) == first[e]) + ((next & second[e]) == second[e]);
            int child = value[next];
            int v = completed ? completed + child : -child;
            best = v > best ? v : best;
        }
        value[m] = (int8_t)best;
    }
}

int main(int argc, char **argv) {
    int is_tight = argc == 4 && strcmp(argv[1], "--tight") == 0;
    if (argc != 3 + is_tight) {
        fprintf(stderr, "usage: %s [--tight] ROWS COLUMNS\n", argv[0]);
        return 2;
    }
    int rows = atoi(argv[1 + is_tight]), columns = atoi(argv[2 + is_tight]);
    int horizontal = (rows + 1) * columns;
    int edges = horizontal + rows * (columns + 1);
    if (rows < 1 || columns < 1 || edges > 32) {
        fprintf(stderr, "boards of 1 to 32 edges\n");
        return 2;
    }
    for (int e = 0; e < 64; e++) {
        first[e] = second[e] = ~0ull;
    }
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < columns; c++) {
            int top = r * columns + c, bottom = (r + 1) * columns + c;
            int left = horizontal + r * (columns + 1) + c, right = left + 1;
            uint64_t mask = (1ull << top) | (1ull << bottom) | (1ull << left) | (1ull << right);
            int sides[4] = {top, bottom, left, right};
            for (int s = 0; s < 4; s++) {
                *(first[sides[s]] == ~0ull ? &first[sides[s]] : &second[sides[s]]) = mask;
            }
        }
    }
    int8_t *value = malloc(1ull << edges);
    if (!value) {
        fprintf(stderr, "cannot allocate %llu bytes\n", 1ull << edges);
        return 1;
    }
    (is_tight ? tight : straightforward)(value, edges);
    printf("%d\n", value[0]);
    free(value);
    return 0;
}
