// puzzle -- Eve Moneypenny
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include "boardADT.h"

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    Board boards[2] = {NULL, NULL};
    for (int k = 0; k < 2; k = k + 1) {
        if (getline(&line, &cap, stdin) < 0) {
            printf("Invalid input: expected two lines\n");
            return EXIT_FAILURE;
        }
        boards[k] = readBoard(line);
        if (boards[k] == NULL) {
            printf("Invalid input: line %d is not a board\n", k + 1);
            return EXIT_FAILURE;
        }
    }
    free(line);
    if (sameSize(boards[0], boards[1]) == 0) {
        printf("Invalid input: different board sizes\n");
        return EXIT_FAILURE;
    }
    printf("start: ");
    showBoard(boards[0]);
    printf("goal: ");
    showBoard(boards[1]);
    if (parity(boards[0]) == parity(boards[1])) {
        printf("solvable\n");
    } else {
        printf("unsolvable\n");
    }
    freeBoard(boards[0]);
    freeBoard(boards[1]);
    return EXIT_SUCCESS;
}
