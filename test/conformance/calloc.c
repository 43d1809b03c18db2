// calloc counts count*size; an overflowing product returns NULL and
// records nothing.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1
#include <stdint.h>
#include <stdlib.h>

int main(void) {
  void *a = calloc(10, 100);
  void *b = calloc(SIZE_MAX / 2, 4); // overflows
  void *c = calloc(0, 8);
  void *d = calloc(3, 33);
  free(d);
  free(c);
  free(a);
  return b != 0;
}
