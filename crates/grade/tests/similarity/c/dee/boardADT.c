// boardADT.c  (D. Dee)
// The board as a growing list of numbers, read a character at a time.
#include <stdio.h>
#include <stdlib.h>
#include "boardADT.h"

#define BLANK (-1)

struct board {
    int *t;
    int used;
    int room;
    int width;
};

enum state { BETWEEN, NUMBER, LETTER, BROKEN };

static Board make(void) {
    Board x = malloc(sizeof(struct board));
    if (x == NULL) {
        fprintf(stderr, "no memory\n");
        exit(EXIT_FAILURE);
    }
    x->room = 16;
    x->used = 0;
    x->width = 0;
    x->t = malloc(sizeof(int) * x->room);
    if (x->t == NULL) {
        fprintf(stderr, "no memory\n");
        exit(EXIT_FAILURE);
    }
    return x;
}

static void append(Board x, int v) {
    if (x->used == x->room) {
        x->room += x->room;
        int *more = realloc(x->t, sizeof(int) * x->room);
        if (more == NULL) {
            fprintf(stderr, "no memory\n");
            exit(EXIT_FAILURE);
        }
        x->t = more;
    }
    *(x->t + x->used) = v;
    x->used += 1;
}

Board nextBoard(int *status) {
    Board x = make();
    enum state st = BETWEEN;
    int value = 0;
    int c = getchar();
    if (c == EOF) {
        *status = 1;
        return x;
    }
    *status = 0;
    while (c != EOF && c != '\n') {
        switch (st) {
        case BETWEEN:
            if (c >= '1' && c <= '9') {
                value = c - '0';
                st = NUMBER;
            } else if (c == 'b') {
                st = LETTER;
            } else if (c != ' ' && c != '\t') {
                st = BROKEN;
            }
            break;
        case NUMBER:
            if (c >= '0' && c <= '9' && value < 10000000) {
                value = value * 10 + c - '0';
            } else if (c == ' ' || c == '\t') {
                append(x, value);
                st = BETWEEN;
            } else {
                st = BROKEN;
            }
            break;
        case LETTER:
            if (c == ' ' || c == '\t') {
                append(x, BLANK);
                st = BETWEEN;
            } else {
                st = BROKEN;
            }
            break;
        case BROKEN:
            break;
        }
        c = getchar();
    }
    if (st == NUMBER) {
        append(x, value);
    } else if (st == LETTER) {
        append(x, BLANK);
    } else if (st == BROKEN) {
        *status = 2;
    }
    return x;
}

Board readBoard(char *line) {
    (void)line;
    int status;
    Board x = nextBoard(&status);
    if (status != 0) {
        freeBoard(x);
        return NULL;
    }
    return x;
}

/* Checks the size and the tiles; sets the width. */
static int wellFormed(Board x) {
    int w = 1;
    while (w * w < x->used) {
        w++;
    }
    if (w * w != x->used || w < 2) {
        return 0;
    }
    int blanks = 0;
    int *count = calloc(x->used + 1, sizeof(int));
    for (int k = 0; k < x->used; k++) {
        int v = *(x->t + k);
        if (v == BLANK) {
            blanks++;
        } else if (v >= x->used || count[v]++ > 0) {
            free(count);
            return 0;
        }
    }
    free(count);
    x->width = w;
    return blanks == 1;
}

int sameSize(Board a, Board b) {
    return wellFormed(a) && wellFormed(b) && a->width == b->width;
}

/* The parity of the tiles' permutation, from its cycles: a cycle of
   length L is L - 1 swaps. */
static int permutationParity(Board x) {
    int n = 0;
    int *p = malloc(sizeof(int) * x->used);
    for (int k = 0; k < x->used; k++) {
        if (*(x->t + k) != BLANK) {
            p[n] = *(x->t + k) - 1;
            n++;
        }
    }
    int swaps = 0;
    for (int k = 0; k < n; k++) {
        while (p[k] != k) {
            int j = p[k];
            p[k] = p[j];
            p[j] = j;
            swaps++;
        }
    }
    free(p);
    return swaps % 2;
}

int parity(Board x) {
    int par = permutationParity(x);
    if (x->width % 2 == 0) {
        int k = 0;
        while (*(x->t + k) != BLANK) {
            k++;
        }
        par = (par + k / x->width + 1) % 2;
    }
    return par;
}

void showBoard(Board x) {
    for (int k = 0; k < x->used; k++) {
        int v = *(x->t + k);
        if (v == BLANK) {
            printf(k == 0 ? "b" : " b");
        } else {
            printf(k == 0 ? "%d" : " %d", v);
        }
    }
    printf("\n");
}

void freeBoard(Board x) {
    free(x->t);
    free(x);
}
