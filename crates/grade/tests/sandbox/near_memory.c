/* Touches the MiB its name says after its last '-' (it is graded with no
 * arguments: `near-61`), then sleeps: at the time limit, its memory is
 * near the memory limit. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where the buffer goes, so that the compiler keeps what it takes. */
char *volatile kept;

int main(int argc, char **argv) {
    const char *dash = strrchr(argv[0], '-');
    size_t mib = dash ? (size_t)atoi(dash + 1) : 1;
    kept = malloc(mib << 20);
    if (kept)
        memset(kept, 1, mib << 20);
    for (;;)
        pause();
}
