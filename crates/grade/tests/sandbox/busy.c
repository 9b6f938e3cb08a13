/* Uses the milliseconds of CPU time its argument says (a program that
 * computes), then prints its CPU time and its time on the clock, in
 * milliseconds, and exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    double want = argc > 1 ? atof(argv[1]) : 1000;
    double start = now(CLOCK_MONOTONIC);
    volatile unsigned long x = 0;
    while (now(CLOCK_PROCESS_CPUTIME_ID) < want)
        for (int i = 0; i < 100000; i++)
            x++;
    printf("%.0f %.0f\n", now(CLOCK_PROCESS_CPUTIME_ID), now(CLOCK_MONOTONIC) - start);
    return 0;
}
