/* Dots and Boxes on ROWS x COLUMNS boxes, solved by a tight sweep over every set of drawn
 * edges: the yardstick for the tier solver's kernel (benches/dots_and_boxes.sh, issue 25).
 *
 *   dots_and_boxes_tight ROWS COLUMNS
 *
 * The same sweep as dots_and_boxes.c (one signed byte per edge set, 2^edges bytes, from the
 * full board down to the empty one; value[m] is the best mover's boxes minus the opponent's
 * from the board whose drawn edges are the bits of m), written as tight as plain C allows:
 * only the free edges are visited (lowest set bit of the complement, cleared as it goes), and
 * each edge's boxes are precomputed masks (at most two), so a move is a few instructions and
 * one byte load. Prints the first player's boxes minus the second's.
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
    /* For each edge, the masks of the (one or two) boxes it borders; a missing second box is
     * the mask of all 64 bits, which no board of at most 32 edges completes. */
    uint64_t first[64], second[64];
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
                if (first[sides[s]] == ~0ull) {
                    first[sides[s]] = mask;
                } else {
                    second[sides[s]] = mask;
                }
            }
        }
    }
    uint64_t boards = 1ull << edges, all = boards - 1;
    int8_t *value = malloc(boards);
    if (!value) {
        fprintf(stderr, "cannot allocate %llu bytes\n", (unsigned long long)boards);
        return 1;
    }
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
    printf("%d\n", value[0]);
    free(value);
    return 0;
}
