// A worker thread that computes without ever allocating: its instructions
// must still reach the clock, while it runs (LIVE) and after it has exited
// (JOINED). The worker prints its own counter so the test can check the
// gap between the main thread's snapshots.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#include "massif/abi.h"

static sem_t Done, Release;
static unsigned long long WorkerCount;

// Optimised code keeps its count in a register until its next call, so
// the worker reads its counter through a call.
__attribute__((noinline)) static unsigned long long readCounter(void) {
  return massif_thread_instructions();
}

static void *work(void *Arg) {
  unsigned long S = (unsigned long)Arg;
  for (unsigned I = 0; I < 2000000; I++)
    S = S * 31 + (I ^ (S >> 7));
  WorkerCount = readCounter();
  sem_post(&Done);
  sem_wait(&Release);
  return (void *)S;
}

int main(int argc, char **argv) {
  int Live = argc > 1;
  pthread_t T;
  sem_init(&Done, 0, 0);
  sem_init(&Release, 0, 0);
  void *volatile A = malloc(1000);
  pthread_create(&T, 0, work, (void *)(unsigned long)argc);
  sem_wait(&Done); // blocks: the main thread counts little meanwhile
  if (!Live) {
    sem_post(&Release);
    pthread_join(T, 0);
  }
  // This snapshot's time includes the worker's count.
  void *volatile B = malloc(2000);
  if (Live) {
    sem_post(&Release);
    pthread_join(T, 0);
  }
  printf("%llu\n", WorkerCount);
  free(A);
  free(B);
  return 0;
}
