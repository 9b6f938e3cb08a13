/*
 * Solvability of the NxN sliding tile puzzle.
 * Ben Bitdiddle z5000002
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"

#define MAXLINE 100000

static char startLine[MAXLINE];
static char goalLine[MAXLINE];

int main(int argc, char *argv[]) {
    if (fgets(startLine, MAXLINE, stdin) == NULL) {
        printf("error: no start board\n");
        return EXIT_FAILURE;
    }
    if (fgets(goalLine, MAXLINE, stdin) == NULL) {
        printf("error: no goal board\n");
        return EXIT_FAILURE;
    }
    Board s = readBoard(startLine);
    if (s == NULL) {
        printf("error: bad start board\n");
        return EXIT_FAILURE;
    }
    Board g = readBoard(goalLine);
    if (g == NULL) {
        printf("error: bad goal board\n");
        freeBoard(s);
        return EXIT_FAILURE;
    }
    if (sameSize(g, s) == 0) {
        printf("error: boards of different sizes\n");
        freeBoard(s);
        freeBoard(g);
        return EXIT_FAILURE;
    }
    fputs("start: ", stdout);
    showBoard(s);
    fputs("goal: ", stdout);
    showBoard(g);
    if (parity(s) != parity(g))
        puts("unsolvable");
    else
        puts("solvable");
    freeBoard(s);
    freeBoard(g);
    return EXIT_SUCCESS;
}
