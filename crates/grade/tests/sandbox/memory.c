/* Touches 6 GB, 64 MiB at a time, without checking malloc (as careless
 * programs do). */
#include <stdlib.h>
#include <string.h>

int main(void) {
    size_t chunk = (size_t)64 << 20;
    for (size_t total = 0; total < (size_t)6 << 30; total += chunk) {
        char *p = malloc(chunk);
        memset(p, 1, chunk);
    }
    return 0;
}
