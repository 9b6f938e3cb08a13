// boardADT.c: a board of the sliding tile puzzle.
// Ada Lovelace, assignment 1.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "boardADT.h"

struct board {
    int width;      // tiles per side
    int ntiles;     // tiles including the blank
    int *vals;    // row by row, 0 for the blank
};

static const char *errText = "";

const char *errorText(void) {
    return errText;
}

// Counts the whitespace-separated tokens of a line.
static int wordCount(char *txt) {
    int total = 0;
    int inside = 0;
    for (char *q = txt; *q != '\0'; q++) {
        if (*q == ' ' || *q == '\t' || *q == '\n') {
            inside = 0;
        } else if (!inside) {
            inside = 1;
            total++;
        }
    }
    return total;
}

// The side of a square with n cells, or 0 when n is not a square.
static int squareSide(int total) {
    int root = 1;
    while (root * root < total) {
        root++;
    }
    if (root * root == total) {
        return root;
    }
    return 0;
}

// Reads one token at p into *value (0 for b); the position after it, or
// NULL when the token is neither a number nor b.
static char *takeTok(char *q, int *out) {
    if (*q == 'b') {
        q++;
        if (*q != ' ' && *q != '\t' && *q != '\n' && *q != '\0') {
            return NULL;
        }
        *out = 0;
        return q;
    }
    if (!isdigit((unsigned char)*q)) {
        return NULL;
    }
    int num = 0;
    while (isdigit((unsigned char)*q)) {
        num = num * 10 + (*q - '0');
        if (num > 1000000) {
            return NULL;
        }
        q++;
    }
    if (*q != ' ' && *q != '\t' && *q != '\n' && *q != '\0') {
        return NULL;
    }
    *out = num;
    return q;
}

Board readBoard(char *txt) {
    int total = wordCount(txt);
    int w = squareSide(total);
    if (total < 4 || w == 0) {
        errText = "the number of tiles is not a square";
        return NULL;
    }
    Board bd = malloc(sizeof(struct board));
    if (bd == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    bd->width = w;
    bd->ntiles = total;
    bd->vals = malloc(total * sizeof(int));
    int *used = calloc(total, sizeof(int));
    if (bd->vals == NULL || used == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    char *q = txt;
    for (int x = 0; x < total; x++) {
        while (*q == ' ' || *q == '\t') {
            q++;
        }
        int num;
        q = takeTok(q, &num);
        if (q == NULL) {
            errText = "a token is neither a number nor b";
            free(used);
            freeBoard(bd);
            return NULL;
        }
        if (num >= total) {
            errText = "a tile is out of range";
            free(used);
            freeBoard(bd);
            return NULL;
        }
        if (used[num]) {
            errText = num == 0 ? "two blanks" : "a tile appears twice";
            free(used);
            freeBoard(bd);
            return NULL;
        }
        used[num] = 1;
        bd->vals[x] = num;
    }
    free(used);
    return bd;
}

int sameSize(Board other, Board bd) {
    return other->ntiles == bd->ntiles;
}

int parity(Board bd) {
    int inversions = 0;
    for (int x = 0; x < bd->ntiles; x++) {
        if (bd->vals[x] == 0) {
            continue;
        }
        for (int y = x + 1; y < bd->ntiles; y++) {
            if (bd->vals[y] != 0 && bd->vals[y] < bd->vals[x]) {
                inversions++;
            }
        }
    }
    if (bd->width % 2 == 0) {
        for (int x = 0; x < bd->ntiles; x++) {
            if (bd->vals[x] == 0) {
                inversions += x / bd->width + 1;
            }
        }
    }
    return inversions % 2;
}

void showBoard(Board bd) {
    for (int x = 0; x < bd->ntiles; x++) {
        if (x > 0) {
            printf(" ");
        }
        if (bd->vals[x] == 0) {
            printf("b");
        } else {
            printf("%d", bd->vals[x]);
        }
    }
    printf("\n");
}

void freeBoard(Board bd) {
    free(bd->vals);
    free(bd);
}
