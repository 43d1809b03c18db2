// A stack deeper than --depth: the trees are cut at the innermost frames.
// RUN: %conform %s %t.8 -- --time-unit=B --depth=8 --detailed-freq=1
// RUN: %conform %s %t.20 -- --time-unit=B --depth=20 --detailed-freq=1
// RUN: %conform %s %t.30 -- --time-unit=B --detailed-freq=1
#include <stdlib.h>

void *down(int n, size_t size) {
  if (n == 0)
    return malloc(size);
  void *p = down(n - 1, size);
  return p;
}

int main(void) {
  void *a = down(25, 1000);
  void *b = down(12, 2000);
  void *c = down(3, 3000);
  free(b);
  free(a);
  free(c);
  return 0;
}
