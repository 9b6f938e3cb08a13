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
 *   FGETS=N            reads the two lines as two calls of
 *                      fgets(line, N, stdin) do, as most students' programs
 *                      do: a line of N - 1 bytes or more is cut there, its
 *                      rest is read as the goal line, and nothing after the
 *                      goal line is read
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
 *
 * And one fault each, as the causes the grader tries have them:
 *
 *   ROW_FROM_ONE       computes the blank's row from its 1-based position,
 *                      pos / N + 1: one too many in the last column
 *   ROW_ON_ODD         counts the blank's row on boards of an odd side too
 *   GOAL_IGNORED       takes the goal to be 1 2 ... b: checks it, then
 *                      gives the verdict of the start alone
 *   REJECT_2X2         takes N to start at 3: a 2x2 board is bad input
 *   REJECT_ODD         takes only boards of an even side
 *   REJECT_OTHER_GOAL  takes only the goal 1 2 ... b
 *   CRASH_2X2          aborts on a 2x2 board
 *   REJECT_BLANK_RUNS  takes a second blank in a row for an empty token
 *   REJECT_LEADING     takes a blank at the start of a line for an empty
 *                      token (as strtok would not)
 *   REJECT_TRAILING    takes a blank at the end of a line for an empty token
 *   NEED_NEWLINE       takes a goal line without its newline for no line
 *   BLANK_NEVER        never knows the blank (it compares a copy of one byte
 *                      without its terminating NUL with "b"): every valid
 *                      board is rejected
 *   NO_CHECKS          gives every input a verdict: where it would reject
 *                      one, it says solvable
 *   ATOI               reads each number as atoi does, into an int (2^32 + 1
 *                      is 1; a number past 2^63 is -1), and checks only that
 *                      a tile is not 0 and below N*N: -1 passes
 *   NUL_BLANK          takes a NUL byte for a blank
 *   DIGITS_FIRST       reads a number's digits and ignores what follows
 *                      them in its token (3a is 3, 1.5 is 1)
 *   ABS_SIGN           skips a '-' before a number (-3 is 3)
 *   ACCEPT_ZERO        takes 0 for a tile
 *   NO_RANGE_CHECK     takes a tile of N*N or more
 *   ACCEPT_TWO_BLANKS  takes a second 'b' for a tile of its own
 *   NO_SIZE_CHECK      gives each board its own side
 *   EMPTY_ACCEPTED     takes an empty or blank line for a board with
 *                      nothing to check, of even parity
 *   GOAL_DEFAULT       takes a missing goal line for the goal 1 2 ... b
 *   TILE_BYTE          keeps each tile in a byte: from 17x17 on, tile 256
 *                      is 0 (a fault of large boards, not of long lines)
 *   NON_NUMBER         counts a token that is not all digits (nor b) but
 *                      never reads it, as an unchecked sscanf leaves it:
 *                      it is left out of the checks and the parity (x, #,
 *                      3a, -3 and 1.5 alike)
 *   BLANK_AS_NN        stores the blank as N*N, as the goal 1 2 ... N*N
 *                      has it, and so takes the number N*N for the blank:
 *                      a board with N*N and no b is given a verdict
 *   MISSING            takes a board's side as the square root of its
 *                      count of tokens rounded up and compares the sides,
 *                      not the counts: a board a token short is given a
 *                      verdict, its missing tile never looked for
 *   BLANK_CODE         stores the blank as 'b', the letter's code 98, among
 *                      its tiles, and so takes tile 98 for a second blank
 *   THREE_DIGITS       reads a number's digits after the first as tenths,
 *                      summed, then scales the sum: right up to two digits,
 *                      wrong from three (123 is 150)
 *   THIRD_LINE_CRASH   aborts when a line after the goal holds a letter or
 *                      a digit, as a program that keeps its lines in an
 *                      array of two writes a third past its end
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
#ifdef FGETS
#define LINE_BUFFER FGETS
#elif defined(FIXED_BUFFER)
#define LINE_BUFFER 1024
#endif
/* The faults that make a board's values other than a permutation of its
 * tiles: its checks and its parity then take any values. */
#if defined(ATOI) || defined(ACCEPT_ZERO) || defined(NO_RANGE_CHECK) || defined(ACCEPT_TWO_BLANKS) || \
    defined(NON_NUMBER) || defined(MISSING)
#define ANY_VALUES 1
#endif
/* A token NON_NUMBER counts but never reads. */
#ifdef NON_NUMBER
#define UNREAD (~0ULL)
#endif

/* One board as read: its tokens, the value of each (0 for the blank). */
struct board {
    size_t count;
    unsigned long long *value;
    size_t blank;
};

static void fail(const char *board, const char *what) {
#ifdef NO_CHECKS
    (void)board;
    (void)what;
    printf("solvable\n");
    exit(EXIT_SUCCESS);
#endif
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
#elif defined(NUL_BLANK)
    return c == ' ' || c == '\t' || c == '\0';
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
#ifdef REJECT_LEADING
    if (p < end && blank_char(*p))
        fail(name, "a token is neither a number nor b");
#endif
#ifdef REJECT_TRAILING
    if (p < end && blank_char(end[-1]))
        fail(name, "a token is neither a number nor b");
#endif
    while (p < end) {
#ifdef REJECT_BLANK_RUNS
        if (p + 1 < end && p > line && blank_char(*p) && blank_char(p[1]))
            fail(name, "a token is neither a number nor b");
#endif
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
#elif defined(BLANK_NEVER)
        if (p - t == 1 && *t == 'b' && t[1] == '\0') {
#else
        if (p - t == 1 && *t == 'b') {
#endif
#ifdef ACCEPT_TWO_BLANKS
            if (b->blank != (size_t)-1) {
                /* The second 'b' a tile of its own, of value 0. */
                v = 0;
                goto store;
            }
#else
            if (b->blank != (size_t)-1)
                fail(name, "two blanks");
#endif
            b->blank = b->count;
        } else {
#ifdef NON_NUMBER
            {
                int digits = 1;
                for (const char *d = t; d < p; d++)
                    digits &= *d >= '0' && *d <= '9';
                if (!digits) {
                    v = UNREAD;
                    goto store;
                }
            }
#endif
#ifdef LENIENT
            if (*t == '+' && p - t > 1)
                t++;
#endif
#ifdef ABS_SIGN
            if (*t == '-' && p - t > 1)
                t++;
#endif
#ifndef LENIENT
            if (*t == '0' && p - t > 1)
                fail(name, "a number starts with 0");
#endif
            for (const char *d = t; d < p; d++) {
                if (*d < '0' || *d > '9') {
#ifdef DIGITS_FIRST
                    if (d > t)
                        break;
#endif
                    fail(name, "a token is neither a number nor b");
                }
#ifdef WRAP32
                v = (unsigned)(v * 10 + (unsigned long long)(*d - '0'));
#else
                if (v < 100000000000ULL)
                    v = v * 10 + (unsigned long long)(*d - '0');
#endif
            }
#ifdef ATOI
            {
                char digits[64];
                size_t len = (size_t)(p - t) < sizeof digits - 1 ? (size_t)(p - t) : sizeof digits - 1;
                memcpy(digits, t, len);
                digits[len] = '\0';
                /* atoi is strtol cast to int: past LONG_MAX it saturates,
                 * and LONG_MAX as an int is -1. */
                v = (unsigned long long)(long long)(int)strtol(digits, NULL, 10);
                if (p - t >= (long)sizeof digits - 1)
                    v = (unsigned long long)(long long)-1;
            }
#endif
#ifdef THREE_DIGITS
            if (p - t >= 3) {
                unsigned long long rest = 0, scale = 1;
                for (const char *d = t + 1; d < p; d++)
                    rest += (unsigned long long)(*d - '0');
                for (const char *d = t + 2; d < p; d++)
                    scale *= 10;
                v = (unsigned long long)(*t - '0') * scale * 10 + rest * scale;
            }
#endif
#ifdef BLANK_CODE
            if (v == 'b')
                fail(name, "two blanks");
#endif
#ifdef TILE_BYTE
            v = (unsigned char)v;
#endif
#ifndef ACCEPT_ZERO
            if (v == 0)
                fail(name, "tile 0");
#endif
        }
#if defined(ACCEPT_TWO_BLANKS) || defined(NON_NUMBER)
    store:
#endif
        if (b->count == room) {
            room *= 2;
            b->value = realloc(b->value, room * sizeof *b->value);
        }
        b->value[b->count++] = v;
    }
#ifndef EMPTY_ACCEPTED
    if (b->count == 0)
        fail(name, "no tiles");
#endif
}

#ifdef ANY_VALUES
static int by_value(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The inversions of v[0..k), counted by merge sort, as a parity. */
static int inversions_odd(long long *v, long long *spare, size_t k) {
    if (k < 2)
        return 0;
    size_t h = k / 2;
    int odd = inversions_odd(v, spare, h) ^ inversions_odd(v + h, spare, k - h);
    size_t i = 0, j = h, o = 0;
    while (i < h || j < k) {
        if (j == k || (i < h && v[i] <= v[j])) {
            spare[o++] = v[i++];
        } else {
            odd ^= (int)((h - i) % 2);
            spare[o++] = v[j++];
        }
    }
    memcpy(v, spare, k * sizeof *v);
    return odd;
}
#endif

/* Checks a board of n*n tokens and returns its parity (the assignment's
 * disorder, mod 2). */
static int parity(const char *name, struct board *b, size_t n) {
    size_t cells = b->count;
#ifdef EMPTY_ACCEPTED
    if (cells == 0)
        return 0;
#endif
#ifdef MISSING
    cells = n * n;
#endif
#ifdef BLANK_AS_NN
    /* No b: the number N*N is the blank as stored. */
    for (size_t i = 0; b->blank == (size_t)-1 && i < b->count; i++)
        if (b->value[i] == cells)
            b->blank = i;
#endif
    if (b->blank == (size_t)-1)
        fail(name, "no blank");
#ifdef ANY_VALUES
    {
        /* Any values: the checks the fault leaves, on signed values; the
         * parity of their inversions, counted. */
        long long *v = malloc(cells * sizeof *v), *spare = malloc(cells * sizeof *v);
        size_t k = 0;
        for (size_t i = 0; i < b->count; i++) {
            if (i == b->blank)
                continue;
#ifdef NON_NUMBER
            /* Only under it: ATOI reads some numbers as -1, ~0 as well. */
            if (b->value[i] == UNREAD)
                continue;
#endif
            long long x = (long long)b->value[i];
#ifndef NO_RANGE_CHECK
            if (x >= (long long)cells)
                fail(name, "a tile is out of range");
#endif
            v[k++] = x;
        }
        memcpy(spare, v, k * sizeof *v);
        qsort(spare, k, sizeof *spare, by_value);
        for (size_t i = 1; i < k; i++)
            if (spare[i] == spare[i - 1])
                fail(name, "a tile appears twice");
        int odd = inversions_odd(v, spare, k);
        free(v);
        free(spare);
        if (n % 2 == 0)
            odd ^= (int)((b->blank / n + 1) % 2);
        return odd;
    }
#endif
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
#if defined(ROW_FROM_ONE)
    if (n % 2 == 0)
        odd ^= (int)(((b->blank + 1) / n + 1) % 2);
#elif defined(ROW_ON_ODD)
    odd ^= (int)((b->blank / n + 1) % 2);
#elif !defined(NO_ROW_TERM)
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
#ifdef LINE_BUFFER
    if (*line_end - *line >= LINE_BUFFER - 1) {
        *line_end = *line + LINE_BUFFER - 1;
        *p = *line_end;
    }
#endif
#ifdef LENIENT
    if (*line_end > *line && (*line_end)[-1] == '\r')
        (*line_end)--;
#endif
    return 1;
}

#if defined(LENIENT) || !defined(EMPTY_ACCEPTED)
static int blank_line(const char *line, const char *end) {
    for (; line < end; line++)
        if (!blank_char(*line))
            return 0;
    return 1;
}
#endif

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
#ifdef NEED_NEWLINE
        if (i == 1 && p < end && !memchr(p, '\n', (size_t)(end - p)))
            fail(names[i], "missing");
#endif
#ifdef GOAL_DEFAULT
        if (i == 1 && p == end) {
            /* No goal line: the goal 1 2 ... b, of the start's size. */
            static char standard[1 << 20];
            size_t count = 1, at = 0;
            for (const char *c = line[0]; c < line_end[0]; c++)
                count += blank_char(*c) && c + 1 < line_end[0] && !blank_char(c[1]);
            for (size_t t = 1; t < count && at + 24 < sizeof standard; t++)
                at += (size_t)sprintf(standard + at, "%zu ", t);
            standard[at++] = 'b';
            line[1] = standard;
            line_end[1] = standard + at;
            continue;
        }
#endif
        if (!next_line(&p, end, &line[i], &line_end[i]))
            fail(names[i], "missing");
#ifdef LENIENT
        while (blank_line(line[i], line_end[i]))
            if (!next_line(&p, end, &line[i], &line_end[i]))
                fail(names[i], "missing");
#elif !defined(EMPTY_ACCEPTED)
        if (blank_line(line[i], line_end[i]))
            fail(names[i], "empty line");
#endif
    }
#ifdef THIRD_LINE_CRASH
    {
        const char *q = p, *l, *l_end;
        while (next_line(&q, end, &l, &l_end))
            for (; l < l_end; l++)
                if ((*l >= '0' && *l <= '9') || (*l >= 'a' && *l <= 'z') || (*l >= 'A' && *l <= 'Z'))
                    abort();
    }
#endif
#if !defined(LENIENT) && !defined(FGETS)
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
#ifdef MISSING
    /* The side rounded up: a board a token short is of the side it
     * seems. */
    while (n * n < b[0].count)
        n++;
#else
    while ((n + 1) * (n + 1) <= b[0].count)
        n++;
#endif
#ifdef EMPTY_ACCEPTED
    if (b[0].count == 0 || b[1].count == 0) {
        /* An empty board: nothing to check, even; the other as it is. */
        size_t m = 0;
        while ((m + 1) * (m + 1) <= b[1].count)
            m++;
        int start = parity("start", &b[0], n), goal = parity("goal", &b[1], m);
        printf("%s\n", start == goal ? "solvable" : "unsolvable");
        return EXIT_SUCCESS;
    }
#endif
#ifdef MISSING
    if (n < 2)
        fail("start", "not a board of 2x2 or more");
#else
    if (n * n != b[0].count || n < 2)
        fail("start", "not a square board of 2x2 or more");
#endif
#ifdef REJECT_2X2
    if (n < 3)
        fail("start", "N starts at 3");
#endif
#ifdef REJECT_ODD
    if (n % 2 == 1)
        fail("start", "not a board of an even side");
#endif
#ifdef CRASH_2X2
    if (n == 2)
        abort();
#endif
#ifdef NO_SIZE_CHECK
    size_t n_goal = 0;
    while ((n_goal + 1) * (n_goal + 1) <= b[1].count)
        n_goal++;
    if (n_goal * n_goal != b[1].count || n_goal < 2)
        fail("goal", "not a square board of 2x2 or more");
#elif defined(MISSING)
    size_t n_goal = 0;
    while (n_goal * n_goal < b[1].count)
        n_goal++;
    if (n_goal != n)
        fail("goal", "not the side of the start board");
#else
    size_t n_goal = n;
    if (b[1].count != b[0].count)
        fail("goal", "not the size of the start board");
#endif
#ifdef REJECT_OTHER_GOAL
    for (size_t i = 0; i + 1 < b[1].count; i++)
        if (b[1].value[i] != i + 1 || b[1].blank != b[1].count - 1)
            fail("goal", "not 1 2 ... b");
#endif
    int start = parity("start", &b[0], n);
    int goal = parity("goal", &b[1], n_goal);
#ifdef GOAL_IGNORED
    /* The goal checked, then taken to be 1 2 ... b: no inversions, its
     * blank in the last row, which even sides count (and N's parity is
     * even there). */
    goal = 0;
#endif
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
