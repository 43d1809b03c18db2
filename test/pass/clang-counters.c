// Instruction counters end to end, through clang at -O0 and -O2: the
// program reads its own thread's counter around a loop. The count grows
// exactly linearly with the trip count (deterministic, one increment per
// block), by at least one per iteration, and another thread counts the
// same work the same way on its own counter. Two functions calling each
// other in tail position (jumps at -O2) count every level too, exactly
// linearly: each block is counted before it jumps. A stand-in built without
// the plugin defines what the runtime will: the version symbol; the
// counter is the thread area's (massif/abi.h), which the stand-in reads.
//
// RUN: %clang -DSTAND_IN -I%S/../../include -c %s -o %t.stand-in.o
// RUN: %clang -O0 -fplugin=%plugin -fpass-plugin=%plugin -mllvm -massif-count-instructions \
// RUN:   %s %t.stand-in.o -lpthread -o %t.O0
// RUN: %t.O0 | %FileCheck %s
// RUN: %clang -O2 -fplugin=%plugin -fpass-plugin=%plugin -mllvm -massif-count-instructions \
// RUN:   %s %t.stand-in.o -lpthread -o %t.O2
// RUN: %t.O2 | %FileCheck %s
//
// CHECK:      one [[#ONE:]]
// CHECK-NEXT: two [[#TWO:]]
// CHECK-NEXT: three [[#TWO+TWO-ONE]]
// CHECK-NEXT: step {{[1-9][0-9][0-9][0-9]+}}
// CHECK-NEXT: thread [[#ONE]]
// CHECK-NEXT: tail one [[#TONE:]]
// CHECK-NEXT: tail two [[#TTWO:]]
// CHECK-NEXT: tail three [[#TTWO+TTWO-TONE]]
// CHECK-NEXT: tail step {{[1-9][0-9][0-9][0-9]+}}

#ifdef STAND_IN
#include "massif/abi.h"
const int __massif_abi_version_1 = 1;
unsigned long long readCounter(void) { return massif_thread_instructions(); }
#else
#include <pthread.h>
#include <stdio.h>

unsigned long long readCounter(void);

volatile unsigned Sink;

__attribute__((noinline)) static void work(unsigned N) {
  unsigned S = 0;
  for (unsigned I = 0; I < N; ++I)
    S += (I * I) ^ (S >> 3);
  Sink = S;
}

long pong(long N, long Acc);

__attribute__((noinline)) long ping(long N, long Acc) {
  if (N == 0)
    return Acc;
  return pong(N - 1, Acc + 1);
}

__attribute__((noinline)) long pong(long N, long Acc) {
  if (N == 0)
    return Acc;
  return ping(N - 1, Acc ^ N);
}

static unsigned long long tailInstructionsFor(long N) {
  unsigned long long Before = readCounter();
  Sink = (unsigned)ping(N, 0);
  return readCounter() - Before;
}

static unsigned long long instructionsFor(unsigned N) {
  unsigned long long Before = readCounter();
  work(N);
  return readCounter() - Before;
}

static void *threadMain(void *Out) {
  *(unsigned long long *)Out = instructionsFor(1000);
  return 0;
}

int main(void) {
  unsigned long long One = instructionsFor(1000);
  unsigned long long Two = instructionsFor(2000);
  unsigned long long Three = instructionsFor(3000);
  unsigned long long InThread = 0;
  pthread_t T;
  pthread_create(&T, 0, threadMain, &InThread);
  pthread_join(T, 0);
  printf("one %llu\ntwo %llu\nthree %llu\nstep %llu\nthread %llu\n", One, Two,
         Three, Two - One, InThread);
  unsigned long long TOne = tailInstructionsFor(1000);
  unsigned long long TTwo = tailInstructionsFor(2000);
  unsigned long long TThree = tailInstructionsFor(3000);
  printf("tail one %llu\ntail two %llu\ntail three %llu\ntail step %llu\n",
         TOne, TTwo, TThree, TTwo - TOne);
  return 0;
}
#endif
