// Calls in tail position stay jumps, as in the plain -O2 build: step and
// other call each other 5 million levels deep, which overflows the stack
// unless each call is a jump; every 100,000th level allocates. Massif's
// profile of the clang build shows each block allocated by step called
// from main, the levels between having left no frame; so must ours, at
// -O2, with the counters and the probes' sleds in every function.
// RUN: %conform --cflags=-O2 %s %t -- --time-unit=B
// RUN: %conform --cflags=-O2 %s %t.i -- --time-unit=B --threshold=0 --detailed-freq=1
#include <stdio.h>
#include <stdlib.h>

void *volatile Kept[64];
long other(long N, long Acc);

__attribute__((noinline)) long step(long N, long Acc) {
  if (N == 0)
    return Acc;
  if (N % 100000 == 0)
    Kept[N / 100000 % 64] = malloc(64 + N / 100000);
  return other(N - 1, Acc + 1);
}

__attribute__((noinline)) long other(long N, long Acc) {
  if (N == 0)
    return Acc;
  return step(N - 1, Acc + 2);
}

int main(void) {
  printf("%ld\n", step(5000000, 0));
  for (int I = 0; I < 64; ++I)
    free(Kept[I]);
  return 0;
}
