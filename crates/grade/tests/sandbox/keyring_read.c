/* Looks for the key named argv[1] in its uid's keyring (left by
 * keyring_leave.c in an earlier run) and prints what it holds. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEY_SPEC_USER_KEYRING -4
#define KEYCTL_READ 11

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    long id = syscall(SYS_request_key, "user", argv[1], NULL, KEY_SPEC_USER_KEYRING);
    if (id < 0) {
        printf("request_key: %s\n", strerror(errno));
        return 0;
    }
    char buf[256];
    long n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof buf - 1);
    if (n < 0) {
        printf("found key %ld; keyctl: %s\n", id, strerror(errno));
        return 0;
    }
    buf[n < (long)sizeof buf - 1 ? n : (long)sizeof buf - 1] = 0;
    printf("read: %s\n", buf);
    return 0;
}
