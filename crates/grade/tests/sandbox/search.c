/* Looks for a file named argv[1] everywhere it can read, from / down (but
 * the system's /usr, /proc and /sys), and
 * tries to open the path argv[2]; prints what it found. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int found;

static void walk(const char *dir, const char *name, int depth) {
    if (depth > 40)
        return;
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, e->d_name);
        if (strcmp(e->d_name, name) == 0) {
            printf("found %s\n", path);
            found++;
        }
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && strcmp(path, "/proc") != 0 &&
            strcmp(path, "/sys") != 0 && strcmp(path, "/usr") != 0)
            walk(path, name, depth + 1);
    }
    closedir(d);
}

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    walk("/", argv[1], 0);
    FILE *f = fopen(argv[2], "r");
    if (f != NULL) {
        printf("opened %s\n", argv[2]);
        found++;
    }
    printf("%d found\n", found);
    return 0;
}
