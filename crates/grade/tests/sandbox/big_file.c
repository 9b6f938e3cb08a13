/* Writes a 4 GB file in its work folder. */
#include <stdio.h>
#include <string.h>

int main(void) {
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    FILE *f = fopen("big", "w");
    if (f == NULL)
        return 1;
    for (int i = 0; i < 4096; i++)
        if (fwrite(block, 1, sizeof block, f) != sizeof block)
            return 1;
    return fclose(f) == 0 ? 0 : 1;
}
