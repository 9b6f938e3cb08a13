/* Writes a file into the marker's home folder (argv[2]), its own $HOME, the
 * folder above its work folder, and / and /tmp; prints what it managed. */
#include <stdio.h>
#include <stdlib.h>

static void try_write(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f != NULL && fputs("owned\n", f) >= 0 && fclose(f) == 0)
        printf("wrote %s\n", path);
    else
        printf("could not write %s\n", path);
}

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    const char *name = argv[1];
    try_write(argv[2], name);
    try_write(getenv("HOME") ? getenv("HOME") : ".", name);
    try_write("..", name);
    try_write("../..", name);
    try_write("/", name);
    return 0;
}
