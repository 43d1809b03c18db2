// A function from a header, inlined at -O0, allocating on line 12 of the
// header, and main on line 12 of this file: the range of main's first
// instructions and the inlined call's are adjacent, of one line number and
// two files, and Massif names the inlined frame with this file
// (Inputs/same-line.h says why). At -O2 as well.
// RUN: %conform %s %t.0 -- --time-unit=B --threshold=0
// RUN: %conform --cflags=-O2 %s %t.2 -- --time-unit=B --threshold=0
#include "Inputs/same-line.h"

void *volatile keep[2];

int main(void) { keep[0] = grab(100); keep[1] = grab(200); free(keep[0]); free(keep[1]); return 0; }
