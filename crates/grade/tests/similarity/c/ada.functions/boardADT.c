// boardADT.c: a board of the sliding tile puzzle.
// Ada Lovelace, assignment 1.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "boardADT.h"

struct board {
    int size;      // tiles per side
    int count;     // tiles including the blank
    int *tiles;    // row by row, 0 for the blank
};

static const char *why = "";

static int countTokens(char *line);
static int sideOf(int n);
static char *readToken(char *p, int *value);

void freeBoard(Board b) {
    free(b->tiles);
    free(b);
}

void showBoard(Board b) {
    for (int i = 0; i < b->count; i++) {
        if (i > 0) {
            printf(" ");
        }
        if (b->tiles[i] == 0) {
            printf("b");
        } else {
            printf("%d", b->tiles[i]);
        }
    }
    printf("\n");
}

int parity(Board b) {
    int disorder = 0;
    for (int i = 0; i < b->count; i++) {
        if (b->tiles[i] == 0) {
            continue;
        }
        for (int j = i + 1; j < b->count; j++) {
            if (b->tiles[j] != 0 && b->tiles[j] < b->tiles[i]) {
                disorder++;
            }
        }
    }
    if (b->size % 2 == 0) {
        for (int i = 0; i < b->count; i++) {
            if (b->tiles[i] == 0) {
                disorder += i / b->size + 1;
            }
        }
    }
    return disorder % 2;
}

Board readBoard(char *line) {
    int n = countTokens(line);
    int side = sideOf(n);
    if (n < 4 || side == 0) {
        why = "the number of tiles is not a square";
        return NULL;
    }
    Board b = malloc(sizeof(struct board));
    if (b == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    b->size = side;
    b->count = n;
    b->tiles = malloc(n * sizeof(int));
    int *seen = calloc(n, sizeof(int));
    if (b->tiles == NULL || seen == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    char *p = line;
    for (int i = 0; i < n; i++) {
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        int v;
        p = readToken(p, &v);
        if (p == NULL) {
            why = "a token is neither a number nor b";
            free(seen);
            freeBoard(b);
            return NULL;
        }
        if (v >= n) {
            why = "a tile is out of range";
            free(seen);
            freeBoard(b);
            return NULL;
        }
        if (seen[v]) {
            why = v == 0 ? "two blanks" : "a tile appears twice";
            free(seen);
            freeBoard(b);
            return NULL;
        }
        seen[v] = 1;
        b->tiles[i] = v;
    }
    free(seen);
    return b;
}

int sameSize(Board a, Board b) {
    return a->count == b->count;
}

// Reads one token at p into *value (0 for b); the position after it, or
// NULL when the token is neither a number nor b.
static char *readToken(char *p, int *value) {
    if (*p == 'b') {
        p++;
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\0') {
            return NULL;
        }
        *value = 0;
        return p;
    }
    if (!isdigit((unsigned char)*p)) {
        return NULL;
    }
    int v = 0;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (*p - '0');
        if (v > 1000000) {
            return NULL;
        }
        p++;
    }
    if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\0') {
        return NULL;
    }
    *value = v;
    return p;
}

// The side of a square with n cells, or 0 when n is not a square.
static int sideOf(int n) {
    int s = 1;
    while (s * s < n) {
        s++;
    }
    if (s * s == n) {
        return s;
    }
    return 0;
}

// Counts the whitespace-separated tokens of a line.
static int countTokens(char *line) {
    int n = 0;
    int inToken = 0;
    for (char *p = line; *p != '\0'; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n') {
            inToken = 0;
        } else if (!inToken) {
            inToken = 1;
            n++;
        }
    }
    return n;
}

const char *lastError(void) {
    return why;
}
