/* Pig to GOAL with a six-sided die, by plain Gauss-Seidel value iteration (Neller & Presser's
 * equations): p[i][j][k] is the chance that the player to move, with i points banked against
 * j and a turn total of k, wins. Rolling: a 1 loses the turn total and passes the turn, a face
 * f adds f; holding banks the turn total and passes. Sweeps every state until no value moves
 * by 1e-13, then prints the first player's chance. The yardstick of docs/performance.md's Pig
 * row: cc -O2 -march=native -o pig benches/cpp/pig.c; ./pig 100 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(int argc, char **argv) {
    int goal = argc > 1 ? atoi(argv[1]) : 100;
    if (goal < 1 || goal > 400) {
        fprintf(stderr, "goal: 1 to 400\n");
        return 2;
    }
    size_t n = (size_t)goal;
    double *p = calloc(n * n * n, sizeof(double));
    if (!p) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
#define P(i, j, k) p[((size_t)(i) * n + (size_t)(j)) * n + (size_t)(k)]
    double change;
    int sweeps = 0;
    do {
        change = 0.0;
        for (int i = goal - 1; i >= 0; i--)
            for (int j = goal - 1; j >= 0; j--)
                for (int k = goal - 1 - i; k >= 0; k--) {
                    double roll = 1.0 - P(j, i, 0);
                    for (int face = 2; face <= 6; face++)
                        roll += i + k + face >= goal ? 1.0 : P(i, j, k + face);
                    roll /= 6.0;
                    double hold = 1.0 - P(j, i + k, 0);
                    double value = roll > hold ? roll : hold;
                    double moved = fabs(value - P(i, j, k));
                    if (moved > change)
                        change = moved;
                    P(i, j, k) = value;
                }
        sweeps++;
    } while (change >= 1e-13);
    printf("%.15f after %d sweeps\n", P(0, 0, 0), sweeps);
    free(p);
    return 0;
}
