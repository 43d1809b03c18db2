// A stack overflow in the main thread: the SIGSEGV handler still runs (on
// an alternate stack) and writes the profile; the process dies of SIGSEGV.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1
#include <stdlib.h>

static void *keep[4];

__attribute__((noinline)) int recurse(volatile char *prev, int n) {
  volatile char frame[1024];
  frame[0] = (char)n;
  frame[1023] = prev ? prev[0] : 0;
  return recurse(frame, n + 1) + frame[1023];
}

int main(void) {
  keep[0] = malloc(1000);
  keep[1] = malloc(100);
  free(keep[0]);
  return recurse(0, 0);
}
