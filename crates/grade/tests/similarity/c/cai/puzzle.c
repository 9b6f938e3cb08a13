/* puzzle.c -- Cai Wen
 * Reads a start and a goal board and says whether the goal is reachable. */
#include <stdio.h>
#include <stdlib.h>
#include "boardADT.h"

/* Reads a whole line, however long, into a buffer that grows. */
static char *get_line(FILE *in)
{
    size_t cap = 128, len = 0;
    char *buf = malloc(cap);
    int ch;
    if (buf == NULL)
        return NULL;
    while ((ch = fgetc(in)) != EOF) {
        if (len + 1 >= cap) {
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
        buf[len++] = (char)ch;
        if (ch == '\n')
            break;
    }
    if (len == 0) {
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

int main(void)
{
    char *text[2];
    Board boards[2];
    const char *names[2] = {"start", "goal"};
    for (int i = 0; i < 2; i++) {
        text[i] = get_line(stdin);
        if (text[i] == NULL) {
            printf("Error: the %s board is missing\n", names[i]);
            return EXIT_FAILURE;
        }
        boards[i] = readBoard(text[i]);
        if (boards[i] == NULL) {
            printf("Error: the %s board is not valid\n", names[i]);
            return EXIT_FAILURE;
        }
    }
    if (!sameSize(boards[0], boards[1])) {
        printf("Error: the boards are not the same size\n");
        return EXIT_FAILURE;
    }
    for (int i = 0; i < 2; i++) {
        printf("%s: ", names[i]);
        showBoard(boards[i]);
    }
    if (parity(boards[0]) != parity(boards[1]))
        printf("unsolvable\n");
    else
        printf("solvable\n");
    for (int i = 0; i < 2; i++) {
        freeBoard(boards[i]);
        free(text[i]);
    }
    return EXIT_SUCCESS;
}
