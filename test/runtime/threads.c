// Four threads allocate and free concurrently; the model sees every event
// exactly once: each thread's kept blocks are all charged to its call site
// and the final heap total is exact. A last big allocation makes sure the
// final state gets a snapshot despite culling (Massif takes none at exit).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog -lpthread
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --massif-out-file=out" ./prog
// RUN: %python %S/Inputs/last-snapshot.py out > last
// RUN: %FileCheck %s < last
#include <pthread.h>
#include <stdlib.h>

enum { NumThreads = 4, Rounds = 5000, KeepEvery = 100 };

static void *worker(void *Arg) {
  void **Kept = Arg;
  int N = 0;
  for (int I = 0; I < Rounds; ++I) {
    void *P = malloc(16 + I % 32); // CHECK: {{^ }}n{{[0-9]+}}: 5904 0x{{[0-9A-F]+}}: worker ({{.*}}threads.c:[[@LINE]])
    if (I % KeepEvery == 0)
      Kept[N++] = P;
    else
      free(P);
  }
  return NULL;
}

int main(void) {
  static void *Kept[NumThreads][Rounds / KeepEvery];
  pthread_t T[NumThreads];
  for (int I = 0; I < NumThreads; ++I)
    pthread_create(&T[I], NULL, worker, Kept[I]);
  for (int I = 0; I < NumThreads; ++I)
    pthread_join(T[I], NULL);
  static void *Big;
  Big = malloc(1 << 24);
  return 0;
}
