/* boardADT.c -- Cai Wen, COMP assignment 1
 * A board is kept as a flat array of tile numbers, the blank as zero.
 * Solvability by parity; inversions counted with a merge sort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"

struct board {
    size_t n_cells;
    size_t side;
    unsigned *values;
};

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "puzzle: out of memory\n");
        exit(EXIT_FAILURE);
    }
    return p;
}

static int is_blank_char(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* Splits the line into tokens; returns how many, or -1 for a bad one. */
static long parse_line(const char *line, unsigned **out)
{
    size_t len = strlen(line);
    unsigned *vals = xmalloc((len / 2 + 1) * sizeof *vals);
    long count = 0;
    size_t i = 0;
    while (i < len) {
        if (is_blank_char(line[i]) || line[i] == '\n' || line[i] == '\r') {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && !is_blank_char(line[j]) && line[j] != '\n' && line[j] != '\r')
            j++;
        if (j - i == 1 && line[i] == 'b') {
            vals[count++] = 0;
        } else {
            unsigned long v = 0;
            for (size_t k = i; k < j; k++) {
                if (line[k] < '0' || line[k] > '9' || v > 100000000UL) {
                    free(vals);
                    return -1;
                }
                v = v * 10 + (unsigned long)(line[k] - '0');
            }
            if (v == 0 || line[i] == '0') {
                free(vals);
                return -1;
            }
            vals[count++] = (unsigned)v;
        }
        i = j;
    }
    *out = vals;
    return count;
}

static int validate(const unsigned *vals, size_t n)
{
    unsigned char *have = calloc(n, 1);
    if (have == NULL)
        return 0;
    int good = 1;
    for (size_t i = 0; i < n && good; i++) {
        if (vals[i] >= n || have[vals[i]])
            good = 0;
        else
            have[vals[i]] = 1;
    }
    free(have);
    return good;
}

Board readBoard(char *line)
{
    unsigned *vals = NULL;
    long count = parse_line(line, &vals);
    if (count < 4)
        goto bad;
    size_t side = 2;
    while (side * side < (size_t)count)
        side++;
    if (side * side != (size_t)count || !validate(vals, (size_t)count))
        goto bad;
    Board board = xmalloc(sizeof *board);
    board->n_cells = (size_t)count;
    board->side = side;
    board->values = vals;
    return board;
bad:
    free(vals);
    return NULL;
}

int sameSize(Board a, Board b)
{
    return a->n_cells == b->n_cells;
}

/* Sorts v[lo..hi) with tmp, returning the inversions it undid. */
static unsigned long merge_count(unsigned *v, unsigned *tmp, size_t lo, size_t hi)
{
    if (hi - lo < 2)
        return 0;
    size_t mid = lo + (hi - lo) / 2;
    unsigned long inv = merge_count(v, tmp, lo, mid) + merge_count(v, tmp, mid, hi);
    size_t a = lo, b = mid, out = lo;
    while (a < mid && b < hi) {
        if (v[a] <= v[b]) {
            tmp[out++] = v[a++];
        } else {
            inv += mid - a;
            tmp[out++] = v[b++];
        }
    }
    while (a < mid)
        tmp[out++] = v[a++];
    while (b < hi)
        tmp[out++] = v[b++];
    memcpy(v + lo, tmp + lo, (hi - lo) * sizeof *v);
    return inv;
}

int parity(Board board)
{
    size_t n = board->n_cells;
    unsigned *tiles = xmalloc(n * sizeof *tiles);
    unsigned *tmp = xmalloc(n * sizeof *tmp);
    size_t m = 0, blank_at = 0;
    for (size_t i = 0; i < n; i++) {
        if (board->values[i] == 0)
            blank_at = i;
        else
            tiles[m++] = board->values[i];
    }
    unsigned long disorder = merge_count(tiles, tmp, 0, m);
    free(tiles);
    free(tmp);
    if (board->side % 2 == 0)
        disorder += blank_at / board->side + 1;
    return (int)(disorder & 1UL);
}

void showBoard(Board board)
{
    for (size_t i = 0; i < board->n_cells; i++) {
        const char *sep = i + 1 == board->n_cells ? "\n" : " ";
        if (board->values[i])
            printf("%u%s", board->values[i], sep);
        else
            printf("b%s", sep);
    }
}

void freeBoard(Board board)
{
    if (board != NULL) {
        free(board->values);
        free(board);
    }
}
