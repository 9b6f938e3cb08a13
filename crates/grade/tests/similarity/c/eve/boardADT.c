// Board ADT -- Eve Moneypenny, student 5003141
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"

typedef struct board {
    int n;          // side length
    int cells;      // n * n
    int *grid;      // the tiles, 0 is b
} board;

// Reads every token of the line with sscanf; the tiles go in out[],
// at most max of them. Returns the count, or -1 on a bad token.
static int tokenize(char *line, int *out, int max) {
    int count = 0;
    int used = 0;
    char word[32];
    while (sscanf(line + used, "%31s%n", word, &(int){0}) == 1) {
        int skip = 0;
        sscanf(line + used, " %*s%n", &skip);
        used += skip;
        if (count == max) {
            return -1;
        }
        if (strcmp(word, "b") == 0) {
            out[count] = 0;
        } else {
            char *end;
            long v = strtol(word, &end, 10);
            if (*end != '\0' || v <= 0 || word[0] == '+' || word[0] == '0' || v > 1000000) {
                return -1;
            }
            out[count] = (int)v;
        }
        count = count + 1;
    }
    return count;
}

// Every number from 1 to cells-1 once, and one blank.
static int complete(board *bd) {
    for (int want = 0; want < bd->cells; want = want + 1) {
        int found = 0;
        for (int i = 0; i < bd->cells; i = i + 1) {
            if (bd->grid[i] == want) {
                found = found + 1;
            }
        }
        if (found != 1) {
            return 0;
        }
    }
    return 1;
}

Board readBoard(char *line) {
    int max = (int)strlen(line) / 2 + 2;
    int *tiles = malloc(sizeof(int) * max);
    if (tiles == NULL) {
        return NULL;
    }
    int count = tokenize(line, tiles, max);
    int n = 0;
    while (n * n < count) {
        n = n + 1;
    }
    if (count < 4 || n * n != count) {
        free(tiles);
        return NULL;
    }
    board *bd = malloc(sizeof(board));
    bd->n = n;
    bd->cells = count;
    bd->grid = tiles;
    if (!complete(bd)) {
        freeBoard(bd);
        return NULL;
    }
    return bd;
}

int sameSize(Board a, Board b) {
    return a->n == b->n;
}

int parity(Board bd) {
    int inv = 0;
    int row = 0;
    for (int i = 0; i < bd->cells; i = i + 1) {
        if (bd->grid[i] == 0) {
            row = i / bd->n + 1;
        } else {
            for (int j = i + 1; j < bd->cells; j = j + 1) {
                if (bd->grid[j] > 0 && bd->grid[j] < bd->grid[i]) {
                    inv = inv + 1;
                }
            }
        }
    }
    if (bd->n % 2 == 1) {
        return inv % 2;
    }
    return (inv + row) % 2;
}

void showBoard(Board bd) {
    for (int i = 0; i < bd->cells; i = i + 1) {
        if (i != 0) {
            putchar(' ');
        }
        if (bd->grid[i] != 0) {
            printf("%d", bd->grid[i]);
        } else {
            putchar('b');
        }
    }
    putchar('\n');
}

void freeBoard(Board bd) {
    free(bd->grid);
    free(bd);
}
