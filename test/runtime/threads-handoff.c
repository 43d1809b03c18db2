// Blocks passed between threads: each of four threads allocates blocks and
// hands them to the next through a mailbox; the next frees them, or grows
// them with realloc first, or asks their usable size. With threads the
// runtime batches each thread's events (runtime/native/record/EventRing.h), so a
// free or a realloc often reaches the model before the block's allocation
// does; the books must still come out exact: at the end only the kept
// blocks are live, each charged to its call site. A last big block, freed
// at once, makes the final state the peak, which gets a snapshot in any
// time unit. The threads' DTVs are in the profile, 272 bytes each, as
// natively.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O1 %s -o prog -lpthread
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --massif-out-file=out" ./prog
// RUN: %python %S/Inputs/last-snapshot.py --peak out > peak
// RUN: %FileCheck %s < peak
// RUN: env MASSIF_OPTIONS="--threshold=0 --detailed-freq=1 --massif-out-file=out-i" ./prog
// RUN: %python %S/Inputs/last-snapshot.py --peak out-i | %FileCheck %s
// CHECK: mem_heap_B=16858304
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { NumThreads = 4, Rounds = 20000, KeepEvery = 100, MailCap = 64 };

struct Mailbox {
  pthread_mutex_t Lock;
  void *Items[MailCap];
  int Count;
};

static struct Mailbox Boxes[NumThreads];
void *volatile Big;
static void *Kept[NumThreads][Rounds / KeepEvery];

/// Puts P into box B; when the box is full, the sender frees P itself.
static int post(struct Mailbox *B, void *P) {
  pthread_mutex_lock(&B->Lock);
  int Posted = B->Count < MailCap;
  if (Posted)
    B->Items[B->Count++] = P;
  pthread_mutex_unlock(&B->Lock);
  return Posted;
}

static void *take(struct Mailbox *B) {
  pthread_mutex_lock(&B->Lock);
  void *P = B->Count ? B->Items[--B->Count] : NULL;
  pthread_mutex_unlock(&B->Lock);
  return P;
}

static void *worker(void *Arg) {
  int Me = (int)(long)Arg;
  int N = 0;
  for (int I = 0; I < Rounds; ++I) {
    if (I % KeepEvery == 0) {
      Kept[Me][N++] = malloc(100); // CHECK: {{^ }}n{{[0-9]+}}: 80000 0x{{[0-9A-F]+}}: worker ({{.*}}threads-handoff.c:[[@LINE]])
      continue;
    }
    char *P = malloc(16 + I % 200);
    memset(P, Me, 16);
    if (!post(&Boxes[(Me + 1) % NumThreads], P))
      free(P);
    if ((P = take(&Boxes[Me]))) {
      if (I % 3 == 0)
        P = realloc(P, 4096 + I % 64);
      else if (I % 3 == 1 && malloc_usable_size(P) < 16)
        abort();
      free(P);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t T[NumThreads];
  for (int I = 0; I < NumThreads; ++I)
    pthread_mutex_init(&Boxes[I].Lock, NULL);
  for (int I = 0; I < NumThreads; ++I)
    pthread_create(&T[I], NULL, worker, (void *)(long)I);
  for (int I = 0; I < NumThreads; ++I)
    pthread_join(T[I], NULL);
  for (int I = 0; I < NumThreads; ++I)
    for (void *P; (P = take(&Boxes[I]));)
      free(P);
  Big = malloc(1 << 24);
  free(Big);
  return 0;
}
