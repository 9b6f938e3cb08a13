/* Fails once its memory is exhausted, as careless programs do; the mode is
 * the first argument, or else the name it is run by (for puzzle-grade
 * grade, which passes none):
 *
 *   grow-crash   takes and touches 1 MiB at a time without bound; when
 *                malloc returns NULL, writes through it
 *   grow-exit    the same, but prints "out of memory" on stderr and exits 1
 *                when malloc fails
 *   fill-crash   takes a buffer of 64 MiB (the tests' limit), touches all
 *                of it, then writes through a null pointer: a real program
 *                filled its 1 GiB line buffer on a line without its newline,
 *                then wrote past its end (MEMORY LIMIT under a memory
 *                cgroup, a crash where the memory was sampled and the crash
 *                came between two samples)
 *   fill-exit    the same buffer, touched, then exit status 1
 *   null-crash   writes through a null pointer at once, with little memory
 *                in use: its own fault at every level */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where each buffer goes, so that the compiler keeps what it takes; and a
 * null pointer it cannot see through. */
char *volatile kept;
char *volatile nowhere;

static void crash(void) {
    *(volatile char *)nowhere = 1;
}

static int grow(int crashes) {
    for (;;) {
        char *p = malloc(1 << 20);
        if (p == NULL) {
            if (crashes) {
                p[0] = 1;
            }
            fputs("out of memory\n", stderr);
            return 1;
        }
        memset(p, 1, 1 << 20);
        kept = p;
    }
}

static int fill(int crashes) {
    size_t size = (size_t)64 << 20;
    char *p = malloc(size);
    if (p == NULL) {
        fputs("out of memory\n", stderr);
        return 2;
    }
    memset(p, 1, size);
    kept = p;
    if (crashes) {
        crash();
    }
    return 1;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : argv[0];
    const char *slash = strrchr(mode, '/');
    if (slash != NULL) {
        mode = slash + 1;
    }
    if (strcmp(mode, "grow-crash") == 0) {
        return grow(1);
    }
    if (strcmp(mode, "grow-exit") == 0) {
        return grow(0);
    }
    if (strcmp(mode, "fill-crash") == 0) {
        return fill(1);
    }
    if (strcmp(mode, "fill-exit") == 0) {
        return fill(0);
    }
    if (strcmp(mode, "null-crash") == 0) {
        crash();
    }
    fprintf(stderr, "exhaust: no mode %s\n", mode);
    return 64;
}
