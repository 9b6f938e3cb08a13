/* Sends SIGKILL to every process it may signal (kill(-1)), as a program
 * that means to stop its own children might, then to the process group
 * argv[1] (a negative pid); prints what each did. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    int r = kill(-1, SIGKILL);
    printf("kill(-1): %s\n", r == 0 ? "returned 0" : strerror(errno));
    r = kill(-atoi(argv[1]), SIGKILL);
    printf("kill(-group): %s\n", r == 0 ? "returned 0" : strerror(errno));
    return 0;
}
