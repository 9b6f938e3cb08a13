// puzzle.c: is the goal board reachable from the start board?
// Ada Lovelace, assignment 1.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"

#define LINE 65536

// Reads one line of stdin into a buffer of its own; NULL at the end.

static char *readLine(void);
static void refuse(const char *which, const char *what);

int main(void) {
    char *first = readLine();
    char *second = readLine();
    if (first == NULL || second == NULL) {
        printf("Invalid input: two boards are needed\n");
        return EXIT_FAILURE;
    }
    Board start = readBoard(first);
    if (start == NULL) {
        refuse("start", lastError());
    }
    Board goal = readBoard(second);
    if (goal == NULL) {
        refuse("goal", lastError());
    }
    if (!sameSize(start, goal)) {
        printf("Invalid input: the boards differ in size\n");
        return EXIT_FAILURE;
    }
    printf("start: ");
    showBoard(start);
    printf("goal: ");
    showBoard(goal);
    if (parity(start) == parity(goal)) {
        printf("solvable\n");
    } else {
        printf("unsolvable\n");
    }
    freeBoard(start);
    freeBoard(goal);
    free(first);
    free(second);
    return EXIT_SUCCESS;
}

static void refuse(const char *which, const char *what) {
    printf("Invalid input: %s board: %s\n", which, what);
    exit(EXIT_FAILURE);
}

static char *readLine(void) {
    char *line = malloc(LINE);
    if (line == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    int n = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n < LINE - 1) {
            line[n++] = (char)c;
        }
    }
    if (c == EOF && n == 0) {
        free(line);
        return NULL;
    }
    line[n] = '\0';
    return line;
}
