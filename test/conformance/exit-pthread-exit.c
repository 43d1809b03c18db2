// The main thread leaves with pthread_exit; the process ends when its last
// thread returns, and the profile is written then, by that thread (which
// waits for main to be gone first, so that the order of events is the
// same in both runs). The mappings are read through /proc/thread-self:
// /proc/self/maps is empty once the thread-group leader is gone.
// RUN: %conform --cflags="-O0 -pthread" %s %t -- --time-unit=B --detailed-freq=1
#include <pthread.h>
#include <stdlib.h>

static void *keep[4];
static pthread_t Main;

__attribute__((noinline)) static void *worker(void *arg) {
  (void)arg;
  pthread_join(Main, NULL);
  keep[1] = malloc(300);
  free(keep[0]);
  return NULL;
}

int main(void) {
  keep[0] = malloc(1000);
  Main = pthread_self();
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_exit(NULL);
}
