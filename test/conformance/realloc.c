// Every realloc case: NULL, same size, shrink in place, grow within the
// slop, grow and move, size 0, and the re-charging to the realloc site.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
#include <stdlib.h>

int main(void) {
  char *p = realloc(NULL, 100); // like malloc
  p = realloc(p, 100);          // same size
  p = realloc(p, 60);           // shrink
  p = realloc(p, 110);          // grows, fits in the slop
  p = realloc(p, 2000);         // grows and moves
  char *q = malloc(33);
  q = realloc(q, 47);
  p = realloc(p, 0);            // frees, returns NULL
  free(q);
  return p != 0;
}
