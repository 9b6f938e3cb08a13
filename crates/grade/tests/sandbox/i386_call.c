/* Makes a system call through the i386 ABI (int $0x80: getpid, number 20),
 * whose numbers are not x86-64's; prints what it got. */
#include <stdio.h>

int main(void) {
    fputs("calling\n", stderr);
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
    printf("i386 getpid: %ld\n", r);
    return 0;
}
