/*
 * Board ADT for the NxN sliding tile puzzle.
 * Ben Bitdiddle z5000002
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"

struct board {
    int *slot;
    int size;
    int capacity;
    int order;
};

static int compare(const void *l, const void *r) {
    int a = *(const int *)l;
    int b = *(const int *)r;
    return (a > b) - (a < b);
}

static Board makeBoard(void) {
    Board B = malloc(sizeof *B);
    if (!B) {
        perror("malloc");
        exit(1);
    }
    B->capacity = 8;
    B->size = 0;
    B->order = 0;
    B->slot = malloc(B->capacity * sizeof *B->slot);
    if (!B->slot) {
        perror("malloc");
        exit(1);
    }
    return B;
}

static void addTile(Board B, int tile) {
    if (B->size == B->capacity) {
        B->capacity = B->capacity * 2;
        B->slot = realloc(B->slot, B->capacity * sizeof *B->slot);
        if (!B->slot) {
            perror("realloc");
            exit(1);
        }
    }
    B->slot[B->size] = tile;
    B->size = B->size + 1;
}

/* Is the text a tile number (digits only, no leading zero)? */
static int numeric(const char *word) {
    if (word[0] == '0' || word[0] == '\0')
        return 0;
    for (int idx = 0; word[idx]; idx++)
        if (word[idx] < '0' || word[idx] > '9')
            return 0;
    return strlen(word) < 9;
}

/* Tiles 0..len-1 each exactly once? Sorting a copy tells. */
static int permutationOk(Board B) {
    int *sorted = malloc(B->size * sizeof *sorted);
    memcpy(sorted, B->slot, B->size * sizeof *sorted);
    qsort(sorted, B->size, sizeof *sorted, compare);
    int good = 1;
    for (int idx = 0; idx < B->size && good; idx++)
        if (sorted[idx] != idx)
            good = 0;
    free(sorted);
    return good;
}

Board readBoard(char *text) {
    Board B = makeBoard();
    char *word = strtok(text, " \t\r\n");
    while (word != NULL) {
        if (strcmp(word, "b") == 0) {
            addTile(B, 0);
        } else if (numeric(word)) {
            addTile(B, atoi(word));
        } else {
            freeBoard(B);
            return NULL;
        }
        word = strtok(NULL, " \t\r\n");
    }
    int side = 0;
    while (side * side < B->size)
        side++;
    if (side * side != B->size || side < 2 || !permutationOk(B)) {
        freeBoard(B);
        return NULL;
    }
    B->order = side;
    return B;
}

int sameSize(Board a, Board b) {
    return a->order == b->order;
}

/* Pairs of tiles out of order, the blank left aside. */
static long countInv(Board B) {
    long total = 0;
    int idx = 0;
    while (idx < B->size) {
        int other = idx + 1;
        while (other < B->size) {
            if (B->slot[idx] && B->slot[other] && B->slot[idx] > B->slot[other])
                total++;
            other++;
        }
        idx++;
    }
    return total;
}

/* The blank's row, counted from 1. */
static int rowOfBlank(Board B) {
    int idx;
    for (idx = 0; idx < B->size; idx++)
        if (B->slot[idx] == 0)
            break;
    return idx / B->order + 1;
}

int parity(Board B) {
    long sum = countInv(B);
    if (B->order % 2 == 0)
        sum += rowOfBlank(B);
    return (int)(sum % 2);
}

void showBoard(Board B) {
    for (int idx = 0; idx < B->size; idx++) {
        if (B->slot[idx] == 0)
            fputs("b", stdout);
        else
            printf("%d", B->slot[idx]);
        putchar(idx + 1 < B->size ? ' ' : '\n');
    }
}

void freeBoard(Board B) {
    if (B) {
        free(B->slot);
        free(B);
    }
}
