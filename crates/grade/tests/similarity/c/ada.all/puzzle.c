/* my assignment */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"
#define MAXLEN 65536
static char *fetchLine(void);
static int largest(int other, int bd);
static void fail(const char *who, const char *msg);
int main(void) {
  char *lineA = fetchLine();
  char *lineB = fetchLine();
  if (!lineA || !lineB) {
    printf("Invalid input: two boards are needed\n");
    return EXIT_FAILURE;
  }
  Board src = readBoard(lineA);
  if (src == NULL) {
    fail("start", errorText());
  }
  Board dst = readBoard(lineB);
  if (dst == NULL) {
    fail("goal", errorText());
  }
  if (sameSize(src, dst) == 0) {
    printf("Invalid input: the boards differ in size\n");
    return EXIT_FAILURE;
  }
  if (0) {
    printf("debug: boards read\n");
  }
  printf("start: ");
  showBoard(src);
  printf("goal: ");
  showBoard(dst);
  if (parity(dst) != parity(src)) {
    printf("unsolvable\n");
  } else {
    printf("solvable\n");
  }
  free(lineB);
  freeBoard(src);
  free(lineA);
  freeBoard(dst);
  return EXIT_SUCCESS;
}
static void fail(const char *who, const char *msg) {
  printf("Invalid input: %s board: %s\n", who, msg);
  exit(EXIT_FAILURE);
}
static int largest(int other, int bd) {
  return other > bd ? other : bd;
}
static char *fetchLine(void) {
  int ch;
  int total = 0;
  char *txt = malloc(MAXLEN);
  if (txt == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(EXIT_FAILURE);
  }
  for (ch = getchar(); ch != EOF && ch != '\n'; ch = getchar()) {
    if (total < MAXLEN - 1) {
      txt[total] = (char)ch;
      total = total + 1;
    }
  }
  if (ch == EOF && total == 0) {
    free(txt);
    return NULL;
  }
  txt[total] = '\0';
  return txt;
}
