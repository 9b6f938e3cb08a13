/* Keeps two threads busy for a second of wall-clock time, then prints the
 * CPU time it got, in milliseconds: about 2000 on two free cores, at most
 * about 1000 on one. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static double now(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *spin(void *arg) {
    double start = now(CLOCK_MONOTONIC);
    volatile unsigned long x = 0;
    while (now(CLOCK_MONOTONIC) - start < 1.0)
        for (int i = 0; i < 100000; i++)
            x++;
    return arg;
}

int main(void) {
    pthread_t t[2];
    double start = now(CLOCK_MONOTONIC);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, spin, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%.0f %.0f\n", now(CLOCK_PROCESS_CPUTIME_ID) * 1000,
           (now(CLOCK_MONOTONIC) - start) * 1000);
    return 0;
}
