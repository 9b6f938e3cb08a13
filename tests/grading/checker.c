/*
 * A checker written the way a student of the assignment writes one, for
 * tests/grade.rs: `sh Testrun grade` must judge it by the assignment's rules.
 *
 * Built as it is, it follows the assignment text and nothing more: two lines,
 * tokens of digits or 'b' separated by blanks and tabs, a message of its own
 * wording on stdout and EXIT_FAILURE for bad input, and it takes every choice
 * the assignment leaves open the strict way (a CR, a byte-order mark, a
 * leading zero, a sign, a blank line or any byte after the goal line is bad
 * input). Macros change it, each the way real submissions differ:
 *
 *   LENIENT            takes the open choices the other way: drops a CR at
 *                      the end of a line and a byte-order mark at the start,
 *                      reads '+3' and '007', skips blank lines before a
 *                      board and ignores what follows the goal line
 *   MESSAGE="..."      the words before each error (default "Invalid input")
 *   ERROR_STATUS=N     the exit status after an error (default EXIT_FAILURE)
 *   ERRORS_TO_STDERR   writes error messages on stderr
 *   NO_ROW_TERM        forgets the blank's row on even boards (wrong parity)
 *   INT32_COUNTER      counts the inversions in a signed int and takes a
 *                      board for odd when the count % 2 == 1: past 2^31 - 1
 *                      inversions the count wraps (build with -fwrapv, as
 *                      an unoptimised build behaves) and the verdict flips
 *   SPACED             ends each board line with a blank
 *   ECHO_FIRST         prints start: and goal: before it checks the boards
 *   HANG               never answers
 *   FIXED_BUFFER       reads each line as fgets into a buffer of 1,024
 *                      bytes does: a line of 1,023 bytes or more is cut
 *                      there, and its rest is read as the next line
 *   ACCEPT_DUPLICATE   does not check that each tile appears once
 *   REJECT_TABS        takes only spaces for blanks: a tab is a bad token
 *   BLANK_LAST         reads a 'b' only when a blank follows it: a board
 *                      whose line ends with the blank is a bad token
 *   ISSPACE_BLANKS     takes what C's isspace takes for a blank: a vertical
 *                      tab, a form feed or a lone CR between tokens too
 *   WRAP32             reads each number into 32 bits: 2^32 + 1 wraps to 1
 *   COINCIDENCE        flips its verdict on inputs whose bytes add up to a
 *                      multiple of 7: a fault that follows no feature
 *   BROKEN             does not compile
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef BROKEN
#error "this submission does not compile"
#endif
#ifndef MESSAGE
#define MESSAGE "Invalid input"
#endif
#ifndef ERROR_STATUS
#define ERROR_STATUS EXIT_FAILURE
#endif

/* One board as read: its tokens, the value of each (0 for the blank). */
struct board {
    size_t count;
    unsigned long long *value;
    size_t blank;
};

static void fail(const char *board, const char *what) {
#ifdef ERRORS_TO_STDERR
    FILE *to = stderr;
#else
    FILE *to = stdout;
#endif
    fprintf(to, "%s: %s board: %s\n", MESSAGE, board, what);
    exit(ERROR_STATUS);
}

static int blank_char(char c) {
#ifdef REJECT_TABS
    return c == ' ';
#elif defined(ISSPACE_BLANKS)
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
#else
    return c == ' ' || c == '\t';
#endif
}

/* Reads the tokens of one line, [line, end), into a board. */
static void tokens(const char *name, const char *line, const char *end, struct board *b) {
    size_t room = 16;
    b->count = 0;
    b->value = malloc(room * sizeof *b->value);
    b->blank = (size_t)-1;
    const char *p = line;
    while (p < end) {
        while (p < end && blank_char(*p))
            p++;
        if (p == end)
            break;
        const char *t = p;
        while (p < end && !blank_char(*p))
            p++;
        unsigned long long v = 0;
#ifdef BLANK_LAST
        if (p - t == 1 && *t == 'b' && p < end) {
#else
        if (p - t == 1 && *t == 'b') {
#endif
            if (b->blank != (size_t)-1)
                fail(name, "two blanks");
            b->blank = b->count;
        } else {
#ifdef LENIENT
            if (*t == '+' && p - t > 1)
                t++;
#else
            if (*t == '0')
                fail(name, "a number starts with 0");
#endif
            for (const char *d = t; d < p; d++) {
                if (*d < '0' || *d > '9')
                    fail(name, "a token is neither a number nor b");
#ifdef WRAP32
                v = (unsigned)(v * 10 + (unsigned long long)(*d - '0'));
#else
                if (v < 100000000000ULL)
                    v = v * 10 + (unsigned long long)(*d - '0');
#endif
            }
            if (v == 0)
                fail(name, "tile 0");
        }
        if (b->count == room) {
            room *= 2;
            b->value = realloc(b->value, room * sizeof *b->value);
        }
        b->value[b->count++] = v;
    }
    if (b->count == 0)
        fail(name, "no tiles");
}

/* Checks a board of n*n tokens and returns its parity (the assignment's
 * disorder, mod 2). */
static int parity(const char *name, const struct board *b, size_t n) {
    size_t cells = b->count;
    if (b->blank == (size_t)-1)
        fail(name, "no blank");
    char *seen = calloc(cells, 1);
    size_t *tile = malloc(cells * sizeof *tile);
    size_t k = 0;
    for (size_t i = 0; i < cells; i++) {
        if (i == b->blank)
            continue;
        if (b->value[i] >= cells)
            fail(name, "a tile is out of range");
#ifndef ACCEPT_DUPLICATE
        if (seen[b->value[i]])
            fail(name, "a tile appears twice");
#endif
        seen[b->value[i]] = 1;
        tile[k++] = (size_t)b->value[i] - 1;
    }
#ifdef INT32_COUNTER
    /* The inversions, counted with a Fenwick tree of the tiles seen so far,
     * in the classic int. */
    int inversions = 0;
    size_t *tree = calloc(cells + 1, sizeof *tree);
    for (size_t i = 0; i < k; i++) {
        size_t below = 0;
        for (size_t j = tile[i] + 1; j > 0; j -= j & -j)
            below += tree[j];
        inversions += (int)(i - below);
        for (size_t j = tile[i] + 1; j <= cells; j += j & -j)
            tree[j]++;
    }
    int odd = inversions % 2 == 1;
    free(tree);
#else
    /* The parity of the inversions is the parity of the permutation:
     * the tiles less the cycles. */
    char *visited = calloc(cells, 1);
    size_t cycles = 0;
    for (size_t i = 0; i < k; i++) {
        if (visited[i])
            continue;
        cycles++;
        for (size_t j = i; !visited[j]; j = tile[j])
            visited[j] = 1;
    }
    int odd = (int)((k - cycles) % 2);
    free(visited);
#endif
#ifndef NO_ROW_TERM
    if (n % 2 == 0)
        odd ^= (int)((b->blank / n + 1) % 2);
#endif
    free(seen);
    free(tile);
    return odd;
}

static void echo(const char *word, const struct board *b) {
    printf("%s", word);
    for (size_t i = 0; i < b->count; i++) {
        if (i == b->blank)
            printf(" b");
        else
            printf(" %llu", b->value[i]);
    }
#ifdef SPACED
    printf(" ");
#endif
    printf("\n");
}

/* The next line of [*p, end): its end (a CR before it dropped when LENIENT),
 * and *p moved past its newline. Returns 0 at the end of the input. */
static int next_line(const char **p, const char *end, const char **line, const char **line_end) {
    if (*p == end)
        return 0;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    *line = *p;
    *line_end = nl ? nl : end;
    *p = nl ? nl + 1 : end;
#ifdef FIXED_BUFFER
    if (*line_end - *line >= 1023) {
        *line_end = *line + 1023;
        *p = *line_end;
    }
#endif
#ifdef LENIENT
    if (*line_end > *line && (*line_end)[-1] == '\r')
        (*line_end)--;
#endif
    return 1;
}

static int blank_line(const char *line, const char *end) {
    for (; line < end; line++)
        if (!blank_char(*line))
            return 0;
    return 1;
}

int main(void) {
#ifdef HANG
    for (;;)
        sleep(1);
#endif
    size_t size = 0, room = 1 << 16;
    char *input = malloc(room);
    size_t got;
    while ((got = fread(input + size, 1, room - size, stdin)) > 0) {
        size += got;
        if (size == room)
            input = realloc(input, room *= 2);
    }
    if (ferror(stdin)) {
        perror("puzzle: stdin");
        return EXIT_FAILURE;
    }
    const char *p = input, *end = input + size;
#ifdef LENIENT
    if (size >= 3 && memcmp(input, "\xef\xbb\xbf", 3) == 0)
        p += 3;
#endif
    const char *line[2], *line_end[2];
    const char *names[2] = {"start", "goal"};
    for (int i = 0; i < 2; i++) {
        if (!next_line(&p, end, &line[i], &line_end[i]))
            fail(names[i], "missing");
#ifdef LENIENT
        while (blank_line(line[i], line_end[i]))
            if (!next_line(&p, end, &line[i], &line_end[i]))
                fail(names[i], "missing");
#else
        if (blank_line(line[i], line_end[i]))
            fail(names[i], "empty line");
#endif
    }
#ifndef LENIENT
    if (p != end)
        fail("goal", "something follows it");
#endif
    struct board b[2];
#ifdef ECHO_FIRST
    tokens("start", line[0], line_end[0], &b[0]);
    tokens("goal", line[1], line_end[1], &b[1]);
    echo("start:", &b[0]);
    echo("goal:", &b[1]);
#else
    for (int i = 0; i < 2; i++)
        tokens(names[i], line[i], line_end[i], &b[i]);
#endif
    size_t n = 0;
    while ((n + 1) * (n + 1) <= b[0].count)
        n++;
    if (n * n != b[0].count || n < 2)
        fail("start", "not a square board of 2x2 or more");
    if (b[1].count != b[0].count)
        fail("goal", "not the size of the start board");
    int start = parity("start", &b[0], n);
    int goal = parity("goal", &b[1], n);
#ifndef ECHO_FIRST
    echo("start:", &b[0]);
    echo("goal:", &b[1]);
#endif
#ifdef COINCIDENCE
    unsigned long sum = 0;
    for (size_t i = 0; i < size; i++)
        sum += (unsigned char)input[i];
    if (sum % 7 == 0)
        start = !start;
#endif
    printf("%s\n", start == goal ? "solvable" : "unsolvable");
    return EXIT_SUCCESS;
}
