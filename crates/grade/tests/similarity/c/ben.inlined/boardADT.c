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
    char *tok = strtok(line, " \t\r\n");
    while (tok != NULL) {
        int number = tok[0] != '0' && tok[0] != '\0' && strlen(tok) < 9;
        for (int k = 0; tok[k] && number; k++)
            if (tok[k] < '0' || tok[k] > '9')
                number = 0;
        if (strcmp(tok, "b") == 0) {
            push(brd, 0);
        } else if (number) {
            push(brd, atoi(tok));
        } else {
            freeBoard(brd);
            return NULL;
        }
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

int parity(Board brd) {
    long disorder = 0;
    int k = 0;
    while (k < brd->len) {
        int m = k + 1;
        while (m < brd->len) {
            if (brd->cell[k] && brd->cell[m] && brd->cell[k] > brd->cell[m])
                disorder++;
            m++;
        }
        k++;
    }
    if (brd->dim % 2 == 0) {
        for (k = 0; k < brd->len; k++)
            if (brd->cell[k] == 0)
                break;
        disorder += k / brd->dim + 1;
    }
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
