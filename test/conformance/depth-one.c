// --depth=1: every tree is one level deep, each allocation charged to the
// function that called malloc; distinct callers of one helper merge.
// RUN: %conform %s %t -- --time-unit=B --depth=1 --detailed-freq=1
#include <stdlib.h>

static void *keep[8];

__attribute__((noinline)) void *helper(size_t n) { return malloc(n); }
__attribute__((noinline)) void *viaA(size_t n) { return helper(n); }
__attribute__((noinline)) void *viaB(size_t n) { return helper(n); }

int main(void) {
  keep[0] = viaA(1000);
  keep[1] = viaB(2000);
  keep[2] = malloc(300);
  keep[3] = viaA(40);
  for (int i = 0; i < 4; i++)
    free(keep[i]);
  return 0;
}
