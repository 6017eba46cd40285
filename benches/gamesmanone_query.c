/* GamesmanOne's `query`, once per line of standard input (benches/quixo.sh uses it: the stock
 * `gamesman query` spends a quarter of a second setting up for each position).
 *
 * Built inside GamesmanOne's CMake build directory (build/src), outside this repository,
 * linked with every object of its `gamesman` target but main.c's and hquery.c's (this file
 * includes hquery.c, for its static QueryTier):
 *
 *   cc $(C_FLAGS of build/src/CMakeFiles/gamesman.dir/flags.make) -I<GamesmanOne>/src \
 *      -isystem <GamesmanOne>/res/include -isystem <GamesmanOne>/res/include/json-c \
 *      -c gamesmanone_query.c -o gamesmanone_query.o
 *   then the link line of CMakeFiles/gamesman.dir/link.txt with main.c.o replaced by
 *   gamesmanone_query.o, hquery.c.o left out, and -o gamesmanone-query.
 *
 * Usage: gamesmanone-query VARIANT < positions (run where `gamesman solve` wrote ./data).
 */
#include "core/headless/hquery.c"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    bool is_tier;
    if (InitAndCheckGame("quixo", atoi(argv[1]), "data", &is_tier) != 0) return 1;
    const Game *game = GameManagerGetCurrentGame();
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        fflush(stdout);
        pid_t child = fork();
        if (child == 0) {
            if (QueryTier(game, line) != 0) printf("{\"error\": \"%s\"}", line);
            printf("\n");
            fflush(stdout);
            _exit(0);
        }
        int status;
        waitpid(child, &status, 0);
    }
    return 0;
}
