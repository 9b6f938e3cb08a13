// puzzle.c: is the goal board reachable from the start board?
// Ada Lovelace, assignment 1.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"

#define MAXLEN 65536

// Reads one line of stdin into a buffer of its own; NULL at the end.
static char *fetchLine(void) {
    char *txt = malloc(MAXLEN);
    if (txt == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    int total = 0;
    int ch;
    while ((ch = getchar()) != EOF && ch != '\n') {
        if (total < MAXLEN - 1) {
            txt[total++] = (char)ch;
        }
    }
    if (ch == EOF && total == 0) {
        free(txt);
        return NULL;
    }
    txt[total] = '\0';
    return txt;
}

static void fail(const char *who, const char *msg) {
    printf("Invalid input: %s board: %s\n", who, msg);
    exit(EXIT_FAILURE);
}

int main(void) {
    char *lineA = fetchLine();
    char *lineB = fetchLine();
    if (lineA == NULL || lineB == NULL) {
        printf("Invalid input: two boards are needed\n");
        return EXIT_FAILURE;
    }
    Board src = readBoard(lineA);
    if (src == NULL) {
        fail("start", errorText());
    }
    Board dst = readBoard(lineB);
    if (dst == NULL) {
        fail("goal", errorText());
    }
    if (!sameSize(src, dst)) {
        printf("Invalid input: the boards differ in size\n");
        return EXIT_FAILURE;
    }
    printf("start: ");
    showBoard(src);
    printf("goal: ");
    showBoard(dst);
    if (parity(src) == parity(dst)) {
        printf("solvable\n");
    } else {
        printf("unsolvable\n");
    }
    freeBoard(src);
    freeBoard(dst);
    free(lineA);
    free(lineB);
    return EXIT_SUCCESS;
}
