// Ten threads allocating at once: every stack ends in start_thread and
// clone, as under Valgrind (where glibc starts threads with clone, not
// clone3), and the totals are exact. The threads start together at a
// barrier and only allocate, and all allocate the same sizes from the same
// code, so every interleaving gives the same snapshots, the threads' DTVs
// (allocate_dtv, which the creating thread allocates before each thread
// starts) included. The threads wait at a
// second barrier before they end, so that what a thread's end frees comes
// after every thread's allocations, in either run.
// RUN: %stacks %s %t -- --time-unit=B --detailed-freq=5
// RUN: %FileCheck %s < %t/native.txt
#include <pthread.h>
#include <stdlib.h>

enum { NumThreads = 10, PerThread = 40 };

static pthread_barrier_t Start, Done;
static void *Blocks[NumThreads][PerThread];

static void *fill(long T) {
  for (int I = 0; I < PerThread; I++)
    Blocks[T][I] = malloc(48);
  return 0;
}

static void *worker(void *Arg) {
  pthread_barrier_wait(&Start);
  void *Result = fill((long)Arg);
  pthread_barrier_wait(&Done);
  return Result;
}

int main(void) {
  pthread_t Threads[NumThreads];
  pthread_barrier_init(&Start, 0, NumThreads + 1);
  pthread_barrier_init(&Done, 0, NumThreads + 1);
  for (long T = 0; T < NumThreads; T++)
    pthread_create(&Threads[T], 0, worker, (void *)T);
  pthread_barrier_wait(&Start);
  pthread_barrier_wait(&Done);
  for (int T = 0; T < NumThreads; T++)
    pthread_join(Threads[T], 0);
  for (int T = 0; T < NumThreads; T++)
    for (int I = 0; I < PerThread; I++)
      free(Blocks[T][I]);
  return 0;
}

// CHECK:      (19,200B) 0x{{[0-9A-F.]+}}: fill ({{.*}}threads.c:22)
// CHECK-NEXT: worker ({{.*}}threads.c:28)
// CHECK-NEXT: start_thread (pthread_create.c:
// CHECK-NEXT: clone (clone.S:
