// --heap=no: the allocator is still replaced but nothing is counted.
// RUN: %conform %s %t -- --time-unit=B --heap=no
#include <stdlib.h>

int main(void) {
  void *p = malloc(1000);
  void *q = malloc(2000);
  free(p);
  free(q);
  return 0;
}
