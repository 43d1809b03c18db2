// Many call sites of different weights: Massif's and ms_print's thresholds.
// RUN: %conform %s %t.0 -- --time-unit=B --threshold=0
// RUN: %conform %s %t.099 -- --time-unit=B --threshold=0.99
// RUN: %conform %s %t.5 -- --time-unit=B --threshold=5
// RUN: %conform %s %t.10 -- --time-unit=B --threshold=10
// RUN: %conform --ms-print-args=--threshold=0 %s %t.p0 -- --time-unit=B --threshold=0
// RUN: %conform --ms-print-args=--threshold=10 %s %t.p10 -- --time-unit=B --threshold=0
// RUN: %conform --ms-print-args=--threshold=5 %s %t.p5 -- --time-unit=B --threshold=5
// RUN: %conform --ms-print-args=--threshold=0.99 %s %t.p099 -- --time-unit=B --threshold=0
// Massif's own "below massif's threshold (0.99%)" lines, shown whole.
// RUN: %conform --ms-print-args=--threshold=0 %s %t.099p0 -- --time-unit=B --threshold=0.99
#include <stdlib.h>

void *my_malloc1(size_t n) { return malloc(n); }
void *my_malloc2(size_t n) { return malloc(n); }
void a1(void) { my_malloc1(48000); }
void a2(void) { my_malloc1(2000); }
void a3(void) { my_malloc1(1600); }
void a4(void) { my_malloc1(1600); }
void b1(void) { my_malloc2(4000); }
void b2(void) { my_malloc2(3200); }
void b3(void) { my_malloc2(3200); }

int main(void) {
  a1(); a2(); a3(); a4();
  malloc(16000);
  b1(); b2(); b3();
  malloc(400);
  void *p = malloc(10);
  free(p);
  return 0;
}
