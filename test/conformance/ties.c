// Many call sites with equal sizes: children of equal size keep Massif's
// order (ties), and equal totals are ranked the same by ms_print.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
#include <stdlib.h>

static void *keep[32];

#define SITE(k)                                                              \
  __attribute__((noinline)) void *site##k(void) { return malloc(64); }
SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7)

int main(void) {
  // Called in an order unlike their definition order.
  keep[0] = site5();
  keep[1] = site2();
  keep[2] = site7();
  keep[3] = site0();
  keep[4] = site3();
  keep[5] = site6();
  keep[6] = site1();
  keep[7] = site4();
  for (int i = 0; i < 8; i++)
    keep[8 + i] = malloc(64); // eight allocations from main itself
  for (int i = 15; i >= 0; i--)
    free(keep[i]);
  return 0;
}
