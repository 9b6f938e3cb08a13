/* Leaves a daemon behind: fork, setsid, fork again; the grandchild ignores
 * SIGTERM and SIGHUP and sleeps; the program itself exits 0 at once.
 * argv[1] is a marker that stays in every process's command line. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    (void)argc; (void)argv;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        setsid();
        if (fork() != 0)
            _exit(0);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        for (;;)
            sleep(60);
    }
    return 0;
}
