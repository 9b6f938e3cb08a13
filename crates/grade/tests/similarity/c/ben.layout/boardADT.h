// boardADT.h: the interface of the board ADT, as handed out.
// Complete it with the functions your program needs.

#ifndef BOARD_ADT_H
#define BOARD_ADT_H

typedef struct board *Board;

// Reads one board from a line of text; NULL when the line is not a board.
Board readBoard(char *line);

// Whether two boards have the same size.
int sameSize(Board a, Board b);

// The parity of a board: 0 even, 1 odd.
int parity(Board b);

// Writes the board's tiles on one line.
void showBoard(Board b);

// Frees a board.
void freeBoard(Board b);

#endif
