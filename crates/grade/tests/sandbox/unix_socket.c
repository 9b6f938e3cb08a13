/* An abstract Unix socket between runs: "listen NAME" binds @NAME and waits
 * two seconds for a connection; "connect NAME" connects to it. Prints what
 * it managed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0) {
        printf("socket: %s\n", strerror(errno));
        return 0;
    }
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    strncpy(a.sun_path + 1, argv[2], sizeof a.sun_path - 2);
    socklen_t len = sizeof a.sun_family + 1 + strlen(argv[2]);
    if (strcmp(argv[1], "listen") == 0) {
        if (bind(s, (struct sockaddr *)&a, len) != 0 || listen(s, 1) != 0) {
            printf("bind: %s\n", strerror(errno));
            return 0;
        }
        printf("listening\n");
        fflush(stdout);
        sleep(2);
        return 0;
    }
    if (connect(s, (struct sockaddr *)&a, len) != 0) {
        printf("connect: %s\n", strerror(errno));
        return 0;
    }
    printf("connected\n");
    return 0;
}
