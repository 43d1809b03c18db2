// An overrun smashes the header of the next block, and glibc's free finds
// the damage and aborts the program. The runtime's own records are whole
// (it calls glibc only between its updates), so the profile is written
// anyway, from the emergency heap (glibc's heap and lock are unusable by
// then), and the process dies as it does without the runtime: glibc's
// message, SIGABRT. The same in a thread, whose frees the runtime batches
// (glibc then finds the damage when the batch is released).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang -O0 %s -o plain -lpthread
// RUN: %mscc -O0 %s -o prog -lpthread
// RUN: sh -c './plain; echo "status $?"' > plain.log 2>&1 || true
// RUN: sh -c './plain thread; echo "status $?"' > plain-thread.log 2>&1 || true
// RUN: env MASSIF_OPTIONS="--time-unit=B --massif-out-file=out" sh -c './prog; echo "status $?"' > log 2>&1
// RUN: env MASSIF_OPTIONS="--time-unit=B --massif-out-file=out.t" sh -c './prog thread; echo "status $?"' > log.t 2>&1
// RUN: %FileCheck %s < plain.log
// RUN: %FileCheck %s < plain-thread.log
// RUN: %FileCheck %s --check-prefixes=CHECK,OURS < log
// RUN: %FileCheck %s --check-prefixes=CHECK,OURS < log.t
// RUN: %FileCheck %s --check-prefix=PROFILE < out
// RUN: %FileCheck %s --check-prefix=PROFILE < out.t
// CHECK: double free or corruption (out)
// CHECK: status 134
// OURS-NOT: massif:
// PROFILE: mem_heap_B=5{{[0-9][0-9][0-9]}}
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static void *volatile Keep;

static void *overrun(void *Arg) {
  (void)Arg;
  Keep = malloc(5000);
  char *A = malloc(100), *B = malloc(100);
  memset(A, 0x41, 100 + 64); // through B's header
  free(B);
  free(A);
  Keep = malloc(100);
  return NULL;
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    pthread_t T;
    pthread_create(&T, NULL, overrun, NULL);
    pthread_join(T, NULL);
  } else {
    overrun(NULL);
  }
  return 0;
}
