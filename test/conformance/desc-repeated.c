// Repeated options: the desc: line lists every option as given, in order,
// and the last value of a repeated option is the one that counts.
// RUN: %conform %s %t -- --time-unit=B --depth=3 --threshold=5 --depth=2 --detailed-freq=1 --threshold=0.5 --alloc-fn=a --alloc-fn=a
#include <stdlib.h>

static void *keep[4];

__attribute__((noinline)) void *a(size_t n) { return malloc(n); }
__attribute__((noinline)) void *b(size_t n) { return a(n); }
__attribute__((noinline)) void *c(size_t n) { return b(n); }

int main(void) {
  keep[0] = c(1000);
  keep[1] = malloc(3);
  free(keep[0]);
  free(keep[1]);
  return 0;
}
