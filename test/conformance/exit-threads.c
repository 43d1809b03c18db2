// A thread other than main calls exit() while main waits for it: the
// profile is written by that thread, with every thread's blocks, the DTVs
// pthread_create allocates included.
// RUN: %conform --cflags="-O0 -pthread" %s %t -- --time-unit=B --detailed-freq=1
#include <pthread.h>
#include <stdlib.h>

static void *keep[4];

__attribute__((noinline)) static void *worker(void *arg) {
  (void)arg;
  keep[1] = malloc(300);
  free(keep[0]);
  exit(4);
}

int main(void) {
  keep[0] = malloc(1000);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  return 0;
}
