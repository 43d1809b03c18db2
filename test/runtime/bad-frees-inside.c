// Frees where no heap block begins: inside a block, a global, the stack,
// a misaligned address. glibc aborts the program there, and so does
// Valgrind's allocator (Massif dies with an assertion); the runtime
// ignores them, says so once on stderr, and the program and its profile
// go on as if the calls had not been made. The second run does the same in
// a thread (the runtime then batches events), with C++ deletes too.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscxx -O0 -w -x c++ %s -o prog -lpthread
// RUN: env MASSIF_OPTIONS="--time-unit=B --detailed-freq=1 --massif-out-file=out" ./prog 2> err | %FileCheck %s --check-prefix=OUT
// RUN: %FileCheck %s --check-prefix=ERR --input-file=err
// RUN: %python %S/Inputs/last-snapshot.py out | %FileCheck %s
// RUN: env MASSIF_OPTIONS="--time-unit=B --detailed-freq=1 --massif-out-file=out.t" ./prog thread 2> err.t | %FileCheck %s --check-prefix=OUT
// RUN: %FileCheck %s --check-prefix=ERR --input-file=err.t
// RUN: %python %S/Inputs/last-snapshot.py out.t | %FileCheck %s
// OUT: done
// ERR: massif: warning: ignored a free of 0x{{[0-9a-f]+}}, where no heap block begins (Valgrind's allocator would abort); later ones are ignored silently
// ERR-NOT: massif:
// The two kept blocks, nothing else: 1000 + 24 bytes.
// CHECK: mem_heap_B=1024
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static char Global[64];
static void *Kept[2];

static void *misuse(void *) {
  char *P = (char *)malloc(1000);
  char Local[64];
  free(P + 16);       // inside a block
  free(P + 512);      // inside, farther in
  free(Global);       // not the heap
  free(Local);        // the stack
  free(P + 1);        // misaligned
  int *Q = new int[6];
  delete[](Q + 4);    // inside a block, through delete[]
  delete (int *)Global;
  Kept[0] = P;
  Kept[1] = Q;
  return nullptr;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    pthread_t T;
    pthread_create(&T, nullptr, misuse, nullptr);
    pthread_join(T, nullptr);
  } else {
    misuse(nullptr);
  }
  free(malloc(10));
  printf("done\n");
  return 0;
}
