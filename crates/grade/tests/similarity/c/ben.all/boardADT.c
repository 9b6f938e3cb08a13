/* my assignment */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boardADT.h"
struct board
{
  int *slot;
  int size;
  int capacity;
  int order;
};
static int compare(const void *l, const void *r);
static void dump(Board B);
static Board makeBoard(void);
static void addTile(Board B, int tile);
static int numeric(const char *word);
static int permutationOk(Board B);
Board readBoard(char *text);
int sameSize(Board a, Board b);
static long countInv(Board B);
static int rowOfBlank(Board B);
int parity(Board B);
void showBoard(Board B);
void freeBoard(Board B);
void freeBoard(Board B)
{
  if (B == NULL)
  return;
  free(B->slot);
  free(B);
}
void showBoard(Board B)
{
  for (int idx = 0; idx < B->size; idx++)
  {
    if (B->slot[idx] != 0)
    printf("%d", B->slot[idx]);
    else
    fputs("b", stdout);
    if (idx + 1 == B->size)
    putchar('\n');
    else
    putchar(' ');
  }
}
int parity(Board B)
{
  long sum;
  sum = countInv(B);
  if (B->order % 2 == 0)
  sum += rowOfBlank(B);
  return (int)(sum % 2);
}
static int rowOfBlank(Board B)
{
  int idx = 0;
  while (idx < B->size)
  {
    if (B->slot[idx] == 0)
    break;
    idx++;
  }
  return idx / B->order + 1;
}
static long countInv(Board B)
{
  long total = 0;
  long steps = 0;
  int idx = 0;
  while (idx < B->size)
  {
    int other = idx + 1;
    while (other < B->size)
    {
      if (B->slot[other] < B->slot[idx] && B->slot[other] != 0 && B->slot[idx] != 0)
      total++;
      other++;
      steps += 2;
    }
    idx++;
  }
  return total;
}
int sameSize(Board a, Board b)
{
  return a->order == b->order;
}
Board readBoard(char *text)
{
  Board B = makeBoard();
  int tokens = 0;
  char *last = NULL;
  char *word;
  for (word = strtok(text, " \t\r\n"); word != NULL; word = strtok(NULL, " \t\r\n"))
  {
    if (strcmp(word, "b") != 0)
    {
      if (!numeric(word))
      {
        freeBoard(B);
        return NULL;
      }
      addTile(B, atoi(word));
    } else
    {
      addTile(B, 0);
    }
    tokens++;
    last = word;
  }
  int side = 0;
  while (side * side < B->size)
  side++;
  if (!(B->size == side * side && side >= 2 && permutationOk(B)))
  {
    freeBoard(B);
    return NULL;
  }
  B->order = side;
  return B;
}
static int permutationOk(Board B)
{
  int good = 1;
  int *sorted = malloc(B->size * sizeof *sorted);
  memcpy(sorted, B->slot, B->size * sizeof *sorted);
  qsort(sorted, B->size, sizeof *sorted, compare);
  int idx = 0;
  while (idx < B->size && good)
  {
    if (sorted[idx] != idx)
    good = 0;
    ++idx;
  }
  free(sorted);
  return good;
}
static int numeric(const char *word)
{
  if (!word[0] || word[0] == '0')
  return 0;
  int idx = 0;
  while (word[idx])
  {
    if (word[idx] < '0' || word[idx] > '9')
    return 0;
    idx = idx + 1;
  }
  return 9 > strlen(word);
}
static void addTile(Board B, int tile)
{
  if (B->size == B->capacity)
  {
    B->capacity = B->capacity * 2;
    B->slot = realloc(B->slot, B->capacity * sizeof *B->slot);
    if (!B->slot)
    {
      perror("realloc");
      exit(1);
    }
  }
  B->slot[B->size] = tile;
  B->size = B->size + 1;
}
static Board makeBoard(void)
{
  Board B = malloc(sizeof *B);
  if (!B)
  {
    perror("malloc");
    exit(1);
  }
  B->order = 0;
  B->size = 0;
  B->capacity = 8;
  B->slot = malloc(B->capacity * sizeof *B->slot);
  if (!B->slot)
  {
    perror("malloc");
    exit(1);
  }
  return B;
}
static void dump(Board B)
{
  for (int idx = 0; idx < B->size; idx++)
  fprintf(stderr, "%d ", B->slot[idx]);
  fprintf(stderr, "(dim %d)\n", B->order);
}
static int compare(const void *l, const void *r)
{
  int b = *(const int *)r;
  int a = *(const int *)l;
  return (a > b) - (a < b);
}
