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

const char *lastError(void) {
    return why;
}

Board readBoard(char *line) {
    int n = 0;
    int inToken = 0;
    for (char *q = line; *q != '\0'; q++) {
        if (*q == ' ' || *q == '\t' || *q == '\n') {
            inToken = 0;
        } else if (!inToken) {
            inToken = 1;
            n++;
        }
    }
    int side = 1;
    while (side * side < n) {
        side++;
    }
    if (side * side != n) {
        side = 0;
    }
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
        int v = 0;
        int bad = 0;
        if (*p == 'b') {
            p++;
        } else if (!isdigit((unsigned char)*p)) {
            bad = 1;
        } else {
            while (isdigit((unsigned char)*p)) {
                v = v * 10 + (*p - '0');
                if (v > 1000000) {
                    bad = 1;
                    break;
                }
                p++;
            }
        }
        if (!bad && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\0') {
            bad = 1;
        }
        if (bad) {
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

void freeBoard(Board b) {
    free(b->tiles);
    free(b);
}
