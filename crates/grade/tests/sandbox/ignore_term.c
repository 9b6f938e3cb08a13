/* Ignores SIGTERM, starts a child that ignores it too, and sleeps. */
#include <signal.h>
#include <unistd.h>

int main(void) {
    signal(SIGTERM, SIG_IGN);
    fork();
    for (;;)
        sleep(60);
}
