// --threshold=100: no single site reaches 100% of a snapshot with several
// sites, so every detailed tree collapses to one "below threshold" line;
// a snapshot whose heap comes from one site keeps it. ms_print's own
// threshold is varied as well.
// RUN: %conform %s %t.m -- --time-unit=B --threshold=100 --detailed-freq=1
// RUN: %conform --ms-print-args=--threshold=100 %s %t.p -- --time-unit=B --threshold=0 --detailed-freq=1
#include <stdlib.h>

static void *keep[8];

__attribute__((noinline)) void *one(size_t n) { return malloc(n); }
__attribute__((noinline)) void *two(size_t n) { return malloc(n); }

int main(void) {
  keep[0] = one(500);
  keep[1] = two(500);
  keep[2] = one(100);
  free(keep[1]);
  free(keep[0]);
  free(keep[2]);
  return 0;
}
