//===- threads.c - malloc/free pairs from several threads -------*- C -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Microbenchmark: THREADS threads share PAIRS malloc/free pairs equally,
// each with its own ring of live blocks, sizes over 16..527 bytes. Prints
// the cost per pair in core-nanoseconds: wall time times the number of cores
// the threads can use (min(THREADS, online CPUs)), divided by the pairs.
// With no serialization the figure stays flat as threads are added; a global
// lock convoy makes it grow.
//
// usage: threads THREADS PAIRS
//
//===----------------------------------------------------------------------===//

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { RingSize = 64, MaxThreads = 64 };

struct Work {
  long Pairs;
  unsigned Seed;
};

static void *worker(void *Arg) {
  struct Work *W = Arg;
  void *Ring[RingSize] = {0};
  unsigned Seed = W->Seed;
  for (long I = 0; I < W->Pairs; ++I) {
    Seed = Seed * 1103515245u + 12345u;
    size_t Size = 16 + ((Seed >> 16) & 511);
    char *P = malloc(Size);
    P[0] = (char)I;
    unsigned Slot = (unsigned)I & (RingSize - 1);
    free(Ring[Slot]);
    Ring[Slot] = P;
  }
  for (int I = 0; I < RingSize; ++I)
    free(Ring[I]);
  return NULL;
}

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    fprintf(stderr, "usage: threads THREADS PAIRS\n");
    return 2;
  }
  int Threads = atoi(Argv[1]);
  long Pairs = atol(Argv[2]);
  if (Threads < 1 || Threads > MaxThreads)
    return 2;
  pthread_t Ids[MaxThreads];
  struct Work Works[MaxThreads];
  struct timespec T0, T1;
  clock_gettime(CLOCK_MONOTONIC, &T0);
  for (int T = 0; T < Threads; ++T) {
    Works[T].Pairs = Pairs / Threads;
    Works[T].Seed = 1000u + (unsigned)T;
    pthread_create(&Ids[T], NULL, worker, &Works[T]);
  }
  for (int T = 0; T < Threads; ++T)
    pthread_join(Ids[T], NULL);
  clock_gettime(CLOCK_MONOTONIC, &T1);
  long Cpus = sysconf(_SC_NPROCESSORS_ONLN);
  long Cores = Threads < Cpus ? Threads : Cpus;
  long Done = Pairs / Threads * Threads;
  double Ns = (T1.tv_sec - T0.tv_sec) * 1e9 + (T1.tv_nsec - T0.tv_nsec);
  printf("threads=%d pairs=%ld cores=%ld ns_per_pair=%.2f\n", Threads, Done,
         Cores, Ns * Cores / Done);
  return 0;
}
