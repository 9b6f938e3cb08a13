/* Prints forever. */
#include <stdio.h>

int main(void) {
    for (;;)
        fputs("solvable\n", stdout);
}
