// puzzle.c  (D. Dee)
#include <stdio.h>
#include <stdlib.h>
#include "boardADT.h"

int main(void) {
    Board first = readBoard(NULL);
    if (first == NULL) {
        printf("bad input: the first board has a bad token\n");
        exit(EXIT_FAILURE);
    }
    Board second = readBoard(NULL);
    if (second == NULL) {
        printf("bad input: the second board has a bad token\n");
        exit(EXIT_FAILURE);
    }
    if (!sameSize(first, second)) {
        printf("bad input: the boards are not two NxN boards of the same tiles\n");
        exit(EXIT_FAILURE);
    }
    printf("start: ");
    showBoard(first);
    printf("goal: ");
    showBoard(second);
    int same = parity(first) == parity(second);
    printf("%s\n", same ? "solvable" : "unsolvable");
    freeBoard(first);
    freeBoard(second);
    return 0;
}
