/* Connects to 127.0.0.1, port argv[1]; prints "connected" or why not. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) {
        printf("no socket: %s\n", strerror(errno));
        return 0;
    }
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)atoi(argv[1]));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) {
        write(s, "hello\n", 6);
        printf("connected\n");
        return 0;
    }
    printf("not connected: %s\n", strerror(errno));
    return 0;
}
