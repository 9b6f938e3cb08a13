/* Prints a line, closes its standard output, and goes on (writing to the
 * closed stream, sleeping a little) before exiting 0. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    fputs("solvable\n", stdout);
    fflush(stdout);
    close(1);
    write(1, "lost\n", 5);
    usleep(100000);
    fputs("still here\n", stderr);
    return 0;
}
