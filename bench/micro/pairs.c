//===- pairs.c - malloc/free pairs at a chosen call depth -------*- C -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Microbenchmark: recurses DEPTH frames deep through non-inlined functions,
// then performs PAIRS malloc/free pairs there, so that every allocation is
// made with DEPTH caller frames above main. A ring of live blocks keeps the
// pairs from being optimized away and gives the heap a small live set;
// sizes vary over 16..527 bytes with a fixed LCG. Prints the wall-clock cost
// per pair in nanoseconds.
//
// usage: pairs DEPTH PAIRS
//
//===----------------------------------------------------------------------===//

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { RingSize = 64 };

static void *Ring[RingSize];
static volatile unsigned long Sink;

__attribute__((noinline)) static void churn(long Pairs) {
  unsigned Seed = 12345;
  for (long I = 0; I < Pairs; ++I) {
    Seed = Seed * 1103515245u + 12345u;
    size_t Size = 16 + ((Seed >> 16) & 511);
    char *P = malloc(Size);
    P[0] = (char)I;
    unsigned Slot = (unsigned)I & (RingSize - 1);
    free(Ring[Slot]);
    Ring[Slot] = P;
  }
}

// Each level adds one real frame: the volatile access after the call keeps
// it from becoming a tail call.
__attribute__((noinline)) static void descend(int Depth, long Pairs) {
  if (Depth <= 0) {
    churn(Pairs);
    return;
  }
  descend(Depth - 1, Pairs);
  Sink = Sink + 1;
}

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    fprintf(stderr, "usage: pairs DEPTH PAIRS\n");
    return 2;
  }
  int Depth = atoi(Argv[1]);
  long Pairs = atol(Argv[2]);
  struct timespec T0, T1;
  clock_gettime(CLOCK_MONOTONIC, &T0);
  descend(Depth, Pairs);
  clock_gettime(CLOCK_MONOTONIC, &T1);
  for (int I = 0; I < RingSize; ++I)
    free(Ring[I]);
  double Ns = (T1.tv_sec - T0.tv_sec) * 1e9 + (T1.tv_nsec - T0.tv_nsec);
  printf("depth=%d pairs=%ld ns_per_pair=%.2f\n", Depth, Pairs, Ns / Pairs);
  return 0;
}
