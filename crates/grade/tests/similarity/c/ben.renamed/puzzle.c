/*
 * Solvability of the NxN sliding tile puzzle.
 * Ben Bitdiddle z5000002
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"

#define BUF 100000

static char buf1[BUF];
static char buf2[BUF];

int main(int argc, char *argv[]) {
    if (fgets(buf1, BUF, stdin) == NULL) {
        printf("error: no start board\n");
        return EXIT_FAILURE;
    }
    if (fgets(buf2, BUF, stdin) == NULL) {
        printf("error: no goal board\n");
        return EXIT_FAILURE;
    }
    Board from = readBoard(buf1);
    if (from == NULL) {
        printf("error: bad start board\n");
        return EXIT_FAILURE;
    }
    Board to = readBoard(buf2);
    if (to == NULL) {
        printf("error: bad goal board\n");
        freeBoard(from);
        return EXIT_FAILURE;
    }
    if (!sameSize(from, to)) {
        printf("error: boards of different sizes\n");
        freeBoard(from);
        freeBoard(to);
        return EXIT_FAILURE;
    }
    fputs("start: ", stdout);
    showBoard(from);
    fputs("goal: ", stdout);
    showBoard(to);
    puts(parity(from) == parity(to) ? "solvable" : "unsolvable");
    freeBoard(from);
    freeBoard(to);
    return EXIT_SUCCESS;
}
