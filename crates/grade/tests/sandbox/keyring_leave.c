/* Leaves a key named argv[1] in its uid's keyring (add_key), for a later
 * program of the same uid to read (keyring_read.c): the kernel keeps a
 * uid's keyring after its processes end. Prints what it managed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEY_SPEC_USER_KEYRING -4

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    const char *secret = "the answers of another student";
    long id = syscall(SYS_add_key, "user", argv[1], secret, strlen(secret),
                      KEY_SPEC_USER_KEYRING);
    if (id < 0)
        printf("add_key: %s\n", strerror(errno));
    else
        printf("added key %ld\n", id);
    return 0;
}
