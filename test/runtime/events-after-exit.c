// Events that come after the profile is written at exit go to glibc
// unrecorded. By then the model has given back its records of the live
// blocks (writing does not need them), so no event may reach them: here
// another thread allocates, frees, reallocates and asks
// malloc_usable_size after the write. When main has called exit, the
// thread waits, allocating nothing, until the file appears (the runtime
// is writing it) and registers an exit handler then, which glibc runs
// after the runtime's (a handler added while the exit handlers run is run
// too) and which keeps the process alive while the thread goes on.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O2 %s -o prog -lpthread
// RUN: env MASSIF_OPTIONS="--massif-out-file=out" ./prog
// RUN: grep -c "^snapshot=" out
// RUN: env MASSIF_OPTIONS="--massif-out-file=out --time-unit=B" ./prog
// RUN: grep -c "^snapshot=" out
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int Started, Exiting;

static void lateHandler(void) { usleep(50000); }

static void *churn(void *Arg) {
  void *Keep[64] = {0};
  int Registered = 0;
  for (unsigned I = 0;; ++I) {
    unsigned S = I % 64;
    Keep[S] = realloc(Keep[S], 16 + I % 500);
    if (!Keep[S] || malloc_usable_size(Keep[S]) < 16)
      abort();
    free(malloc(I % 300));
    Started = 1;
    if (Exiting && !Registered) {
      while (access("out", F_OK) != 0)
        ;
      Registered = atexit(lateHandler) == 0;
    }
  }
  return Arg;
}

int main(void) {
  pthread_t T;
  unlink("out");
  if (pthread_create(&T, 0, churn, 0) != 0)
    return 1;
  while (!Started)
    ;
  usleep(20000);
  Exiting = 1;
  exit(0);
}
