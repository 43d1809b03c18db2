// A header for same-line.c: its allocating function is inlined always, and
// its call to malloc sits on the same line number as the opening of
// same-line.c's main. Valgrind's table of source locations merges two adjacent
// ranges of one line number whatever their files, keeping the first's
// file, so Massif names this function's frame with the including file.
//
//
//
//
#include <stdlib.h>
static inline __attribute__((always_inline)) void *grab(size_t n) {
  void *p = malloc(n); return p; }
