// Writes a line of its own to stderr around a few allocations.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  fprintf(stderr, "the program's own line\n");
  void *p = malloc(1000), *q = malloc(200);
  free(p);
  free(q);
  return 0;
}
