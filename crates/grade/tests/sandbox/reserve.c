/* Reserves 1 GiB and touches 1 MB of it, as a real submission did (a line
 * buffer of 1 GiB): fine where the memory limit counts what a program uses,
 * refused where it counts what it reserves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *p = malloc((size_t)1 << 30);
    if (p == NULL) {
        puts("Memory not allocated.");
        return 1;
    }
    memset(p, 1, 1 << 20);
    puts("reserved 1024 MiB, used 1 MiB");
    return 0;
}
