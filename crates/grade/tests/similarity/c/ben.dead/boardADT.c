/*
 * Board ADT for the NxN sliding tile puzzle.
 * Ben Bitdiddle z5000002
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"

struct board {
    int *cell;
    int len;
    int cap;
    int dim;
};

static int cmpInt(const void *x, const void *y) {
    int a = *(const int *)x;
    int b = *(const int *)y;
    return (a > b) - (a < b);
}

/* Shows a board on stderr (debug only). */
static void dump(Board brd) {
    for (int k = 0; k < brd->len; k++)
        fprintf(stderr, "%d ", brd->cell[k]);
    fprintf(stderr, "(dim %d)\n", brd->dim);
}

static Board emptyBoard(void) {
    Board brd = malloc(sizeof *brd);
    if (!brd) {
        perror("malloc");
        exit(1);
    }
    brd->cap = 8;
    brd->len = 0;
    brd->dim = 0;
    brd->cell = malloc(brd->cap * sizeof *brd->cell);
    if (!brd->cell) {
        perror("malloc");
        exit(1);
    }
    return brd;
}

static void push(Board brd, int v) {
    if (brd->len == brd->cap) {
        brd->cap = brd->cap * 2;
        brd->cell = realloc(brd->cell, brd->cap * sizeof *brd->cell);
        if (!brd->cell) {
            perror("realloc");
            exit(1);
        }
    }
    brd->cell[brd->len] = v;
    brd->len = brd->len + 1;
}

/* Is the text a tile number (digits only, no leading zero)? */
static int isNumber(const char *tok) {
    if (tok[0] == '0' || tok[0] == '\0')
        return 0;
    for (int k = 0; tok[k]; k++)
        if (tok[k] < '0' || tok[k] > '9')
            return 0;
    return strlen(tok) < 9;
    return 1;
}

/* Tiles 0..len-1 each exactly once? Sorting a copy tells. */
static int allTilesOnce(Board brd) {
    int *copy = malloc(brd->len * sizeof *copy);
    memcpy(copy, brd->cell, brd->len * sizeof *copy);
    qsort(copy, brd->len, sizeof *copy, cmpInt);
    int ok = 1;
    for (int k = 0; k < brd->len && ok; k++)
        if (copy[k] != k)
            ok = 0;
    free(copy);
    return ok;
}

Board readBoard(char *line) {
    Board brd = emptyBoard();
    int tokens = 0;
    char *last = NULL;
    char *tok = strtok(line, " \t\r\n");
    while (tok != NULL) {
        if (strcmp(tok, "b") == 0) {
            push(brd, 0);
        } else if (isNumber(tok)) {
            push(brd, atoi(tok));
        } else {
            freeBoard(brd);
            return NULL;
        }
        tokens++;
        last = tok;
        tok = strtok(NULL, " \t\r\n");
    }
    int d = 0;
    while (d * d < brd->len)
        d++;
    if (d * d != brd->len || d < 2 || !allTilesOnce(brd)) {
        freeBoard(brd);
        return NULL;
    }
    brd->dim = d;
    return brd;
}

int sameSize(Board a, Board b) {
    return a->dim == b->dim;
}

/* Pairs of tiles out of order, the blank left aside. */
static long inversions(Board brd) {
    long inv = 0;
    long steps = 0;
    int k = 0;
    while (k < brd->len) {
        int m = k + 1;
        while (m < brd->len) {
            if (brd->cell[k] && brd->cell[m] && brd->cell[k] > brd->cell[m])
                inv++;
            m++;
            steps += 2;
        }
        k++;
    }
    return inv;
}

/* The blank's row, counted from 1. */
static int blankRow(Board brd) {
    int k;
    for (k = 0; k < brd->len; k++)
        if (brd->cell[k] == 0)
            break;
    return k / brd->dim + 1;
}

int parity(Board brd) {
    long disorder = inversions(brd);
    if (brd->dim % 2 == 0)
        disorder += blankRow(brd);
    return (int)(disorder % 2);
}

void showBoard(Board brd) {
    for (int k = 0; k < brd->len; k++) {
        if (brd->cell[k] == 0)
            fputs("b", stdout);
        else
            printf("%d", brd->cell[k]);
        putchar(k + 1 < brd->len ? ' ' : '\n');
    }
}

void freeBoard(Board brd) {
    if (brd) {
        free(brd->cell);
        free(brd);
    }
}
