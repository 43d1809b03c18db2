// C++ deletes from several threads. With the C++ runtime's operator
// delete, which frees, the runtime batches them like frees
// (runtime/native/record/EventRing.h); a program that replaces operator delete
// gets every call of its own operators, as without profiling. Either way
// the books come out exact: a last big block, freed at once, makes the
// final state the peak, where the workers' sites hold nothing.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscxx -O1 %s -o library -lpthread
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --massif-out-file=library.out" ./library | %FileCheck %s --check-prefix=LIBRARY
// RUN: %python %S/Inputs/last-snapshot.py --peak library.out | %FileCheck %s
// RUN: %mscxx -O1 -DREPLACE %s -o replaced -lpthread
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --massif-out-file=replaced.out" ./replaced | %FileCheck %s --check-prefix=REPLACED
// RUN: %python %S/Inputs/last-snapshot.py --peak replaced.out | %FileCheck %s
// LIBRARY: deletes=0
// REPLACED: deletes=40000
// CHECK: heap_tree=peak
#include <cstdio>
#include <cstdlib>
#include <new>
#include <pthread.h>

static int Deletes;
int *volatile Sink;

#ifdef REPLACE
void operator delete(void *P) noexcept {
  __atomic_add_fetch(&Deletes, 1, __ATOMIC_RELAXED);
  std::free(P);
}
void operator delete(void *P, std::size_t) noexcept {
  __atomic_add_fetch(&Deletes, 1, __ATOMIC_RELAXED);
  std::free(P);
}
#endif

static void *worker(void *) {
  for (int I = 0; I < 10000; ++I) {
    int *P = new int[4];
    Sink = P;
    delete[] P;
    int *Q = new int(I);
    Sink = Q;
    delete Q;
  }
  return nullptr;
}

int main() {
  pthread_t T[2];
  for (pthread_t &X : T)
    pthread_create(&X, nullptr, worker, nullptr);
  for (pthread_t &X : T)
    pthread_join(X, nullptr);
  std::printf("deletes=%d\n", Deletes);
  int *Big = new int[1 << 22]; // CHECK: n{{[0-9]+}}: 16777216 0x{{[0-9A-F]+}}: main ({{.*}}threads-delete.cpp:[[@LINE]])
  Sink = Big;
  delete[] Big;
  return 0;
}
// The rest of the peak's tree: nothing left at the workers' sites.
// CHECK-NOT: {{^ *}}n{{[0-9]+}}: {{[1-9][0-9]*}} 0x{{[0-9A-F]+}}: worker
