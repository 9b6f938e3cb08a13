/* Starts 300 children that sleep, as a careless program would; stops with
 * status 1 when a fork is refused. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    for (int i = 0; i < 300; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            sleep(60);
            _exit(0);
        }
    }
    while (wait(NULL) > 0)
        ;
    return 0;
}
