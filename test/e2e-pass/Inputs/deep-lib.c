// A library that descends 100 frames of at least 1,000 bytes each and
// allocates at the bottom, for the probes of an instrumented shared
// library (stacks-shared-library.test).
#include <stdlib.h>

__attribute__((noinline)) void keep(volatile char *Buf) { Buf[0] = 1; }

__attribute__((noinline)) int descend(int N) {
  char Buf[1000];
  keep(Buf);
  if (N == 0) {
    free(malloc(16)); // a peak attempt with the whole descent on the stack
    return Buf[0];
  }
  return descend(N - 1) + Buf[0];
}
