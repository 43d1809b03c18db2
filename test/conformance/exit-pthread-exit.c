// The main thread leaves with pthread_exit; the process ends when its last
// thread returns, and the profile is written then, by that thread.
// XFAIL: *
// Expected to fail until the symbolizer reads the process's mappings from
// a file that works once the main thread is gone: /proc/self/maps is empty
// then (the thread-group leader is a zombie; /proc/thread-self/maps is
// not), so every frame prints as ??? (issue 6).
// RUN: %conform --cflags="-O0 -pthread" %s %t -- --time-unit=B --detailed-freq=1 --ignore-fn=allocate_dtv
#include <pthread.h>
#include <stdlib.h>

static void *keep[4];

__attribute__((noinline)) static void *worker(void *arg) {
  (void)arg;
  keep[1] = malloc(300);
  free(keep[0]);
  return NULL;
}

int main(void) {
  keep[0] = malloc(1000);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_exit(NULL);
}
