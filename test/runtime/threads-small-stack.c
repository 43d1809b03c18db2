// A thread asking for the smallest stack glibc allows gets it: the
// runtime has no static TLS, which glibc would carve out of every thread's
// stack (its per-thread state is in the thread control block, the stack
// walks' memos are mapped per thread), so pthread_create succeeds exactly
// as without profiling, and the thread's allocations and their stacks are
// recorded.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O2 %s -o prog -lpthread
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --massif-out-file=out" ./prog | %FileCheck %s --check-prefix=OUT
// RUN: %FileCheck %s < out
// RUN: readelf -lW prog | %FileCheck %s --check-prefix=TLS
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *Kept[100];

__attribute__((noinline)) static void *worker(void *Arg) {
  for (int I = 0; I < 100; ++I)
    Kept[I] = malloc(40); // CHECK: 0x{{[0-9A-F]+}}: worker ({{.*}}threads-small-stack.c:[[@LINE]])
  return Arg;
}

int main(void) {
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  int SetErr = pthread_attr_setstacksize(&Attr, PTHREAD_STACK_MIN);
  pthread_t T;
  int CreateErr = pthread_create(&T, &Attr, worker, NULL);
  // OUT: setstacksize 0 create 0
  printf("setstacksize %d create %d\n", SetErr, CreateErr);
  if (CreateErr == 0)
    pthread_join(T, NULL);
  return 0;
}

// No thread-local storage: the program has none of its own.
// TLS: Program Headers:
// TLS-NOT: TLS
