// An inline function, so a comdat group in each unit that uses it: the
// linker keeps one copy, and the probes' entries of the others must go
// with them (stacks-comdat.test).
#include <cstdlib>

__attribute__((noinline)) inline void keepBuffer(volatile char *Buf) {
  Buf[0] = 1;
}

__attribute__((noinline)) inline int descendInline(int N) {
  char Buf[1000];
  keepBuffer(Buf);
  if (N == 0) {
    free(malloc(16)); // a peak attempt with the whole descent on the stack
    return Buf[0];
  }
  return descendInline(N - 1) + Buf[0];
}

int fromA(int N);
int fromB(int N);
