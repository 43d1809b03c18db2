// reallocarray: a realloc of count*size bytes; an overflowing product
// fails with nothing recorded.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
#include <stdint.h>
#include <stdlib.h>

int main(void) {
  int *p = reallocarray(NULL, 10, sizeof(int));
  p = reallocarray(p, 100, sizeof(int));
  if (reallocarray(p, SIZE_MAX / 2, 4) != NULL)
    return 1;
  free(p);
  return 0;
}
