/* POSIX shared memory across runs: "leave NAME" makes /dev/shm/NAME and
 * writes into it; "read NAME" opens it and prints what it holds. Prints
 * what it managed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    char name[256];
    snprintf(name, sizeof name, "/%s", argv[2]);
    if (strcmp(argv[1], "leave") == 0) {
        int fd = shm_open(name, O_CREAT | O_RDWR, 0666);
        if (fd < 0 || write(fd, "a secret\n", 9) != 9) {
            printf("shm_open: %s\n", strerror(errno));
            return 0;
        }
        printf("left %s\n", name);
        return 0;
    }
    int fd = shm_open(name, O_RDONLY, 0);
    if (fd < 0) {
        printf("shm_open: %s\n", strerror(errno));
        return 0;
    }
    char buf[64];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = 0;
    printf("read: %s", buf);
    return 0;
}
