/* Allocations at the bottom of long call chains, so trees are deeper than
   100 levels (Perl's ms_print then warns about deep recursion). */
#include <stdlib.h>

static void *sink[8];

__attribute__((noinline)) static void *descend(int depth, size_t n) {
  void *p;
  if (depth == 0)
    return malloc(n);
  p = descend(depth - 1, n);
  __asm__ volatile("" ::: "memory"); /* Keep the call out of tail position. */
  return p;
}

int main(void) {
  sink[0] = descend(150, 4000);
  sink[1] = descend(120, 3000);
  sink[2] = descend(30, 2000);
  sink[3] = descend(5, 1000);
  free(sink[3]);
  sink[4] = descend(98, 500);
  sink[5] = descend(99, 500);
  free(sink[0]);
  free(sink[1]);
  free(sink[2]);
  free(sink[4]);
  free(sink[5]);
  return 0;
}
