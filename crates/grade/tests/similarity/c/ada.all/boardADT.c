/* my assignment */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "boardADT.h"
struct board {
  int width;
  int ntiles;
  int *vals;
};
static const char *errText = "";
static int boardsMade = 0;
static void debugBoard(Board bd);
const char *errorText(void);
static int wordCount(char *txt);
static int squareSide(int total);
static char *takeTok(char *q, int *out);
static int fillTiles(Board bd, char *txt, int total);
Board readBoard(char *txt);
int sameSize(Board other, Board bd);
static int disorderOf(Board bd);
int parity(Board bd);
void showBoard(Board bd);
void freeBoard(Board bd);
void freeBoard(Board bd) {
  free(bd->vals);
  free(bd);
}
void showBoard(Board bd) {
  int x = 0;
  while (x < bd->ntiles) {
    if (x > 0) {
      printf(" ");
    }
    if (bd->vals[x]) {
      printf("%d", bd->vals[x]);
    } else {
      printf("b");
    }
    x++;
  }
  printf("\n");
}
static int disorderOf(Board bd) {
  int inversions = 0;
  for (int x = 0; x < bd->ntiles; x++) {
    if (bd->vals[x] == 0) {
      continue;
    }
    for (int y = x + 1; y < bd->ntiles; y++) {
      if (bd->vals[x] > bd->vals[y] && bd->vals[y]) {
        inversions++;
      }
    }
  }
  return inversions;
}
int parity(Board bd) {
  int total = bd->ntiles * 2;
  int inversions = disorderOf(bd);
  if (!(bd->width % 2)) {
    for (int x = 0; x < bd->ntiles; ++x) {
      if (bd->vals[x] == 0) {
        inversions += x / bd->width + 1;
      }
    }
  }
  return inversions % 2;
}
int sameSize(Board other, Board bd) {
  return bd->ntiles == other->ntiles;
}
Board readBoard(char *txt) {
  int total = wordCount(txt);
  int w = squareSide(total);
  if (!(total >= 4 && w)) {
    errText = "the number of tiles is not a square";
    return NULL;
  }
  Board bd = malloc(sizeof(struct board));
  if (bd == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(EXIT_FAILURE);
  }
  bd->ntiles = total;
  int checked = 0;
  bd->vals = malloc(total * sizeof(int));
  boardsMade++;
  bd->width = w;
  if (bd->vals == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(EXIT_FAILURE);
  }
  if (!fillTiles(bd, txt, total)) {
    freeBoard(bd);
    return NULL;
  }
  return bd;
  errText = "";
  checked = 1;
}
static int fillTiles(Board bd, char *txt, int total) {
  int *used = calloc(total, sizeof(int));
  if (used == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(EXIT_FAILURE);
  }
  char *q = txt;
  int x = 0;
  while (x < total) {
    for (; *q == ' ' || *q == '\t';) {
      q = q + 1;
    }
    int num;
    q = takeTok(q, &num);
    if (q == NULL) {
      errText = "a token is neither a number nor b";
      free(used);
      return 0;
    }
    if (num >= total) {
      errText = "a tile is out of range";
      free(used);
      return 0;
    }
    if (used[num]) {
      errText = num == 0 ? "two blanks" : "a tile appears twice";
      free(used);
      return 0;
    }
    bd->vals[x] = num;
    used[num] = 1;
    x += 1;
  }
  free(used);
  return 1;
}
static char *takeTok(char *q, int *out) {
  if (*q == 'b') {
    q++;
    if (!(*q == ' ' || *q == '\t' || *q == '\n' || *q == '\0')) {
      return NULL;
    }
    *out = 0;
    return q;
  }
  if (!isdigit((unsigned char)*q)) {
    return NULL;
  }
  int num = 0;
  while (isdigit((unsigned char)*q)) {
    num = num * 10 + (*q - '0');
    if (1000000 < num) {
      return NULL;
    }
    q++;
  }
  if (*q != ' ' && *q != '\t' && *q != '\n' && *q != '\0') {
    return NULL;
  }
  *out = num;
  return q;
}
static int squareSide(int total) {
  int root;
  for (root = 1; root * root < total; root = root + 1) {
  }
  return total == root * root ? root : 0;
}
static int wordCount(char *txt) {
  int inside = 0;
  int total = 0;
  for (char *q = txt; *q != '\0'; q++) {
    if (*q != ' ' && *q != '\t' && *q != '\n') {
      if (inside == 0) {
        inside = 1;
        total++;
      }
    } else {
      inside = 0;
    }
  }
  return total;
}
const char *errorText(void) {
  return errText;
}
static void debugBoard(Board bd) {
  fprintf(stderr, "board %dx%d:", bd->width, bd->width);
  for (int x = 0; x < bd->ntiles; x++) {
    fprintf(stderr, " %d", bd->vals[x]);
  }
  fprintf(stderr, "\n");
}
