// The runtime's own memory (the model, libdw's symbol tables, the
// demangler) never shows up in the profile: with every call site printed
// (--threshold=0), only the program's own allocations appear.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --alloc-fn=wrapper --max-snapshots=1000 --massif-out-file=out" ./prog
// RUN: %FileCheck %s < out
// RUN: %FileCheck %s --check-prefix=LAST < out
#include <stdlib.h>

static void *keep[300];

__attribute__((noinline)) static void *wrapper(size_t SizeB) {
  return malloc(SizeB);
}

int main(void) {
  for (int I = 0; I < 300; ++I)
    keep[I] = wrapper(10 + I); // LAST: {{^ }}n0: 47850 0x{{[0-9A-F]+}}: main ({{.*}}own-allocations.c:[[@LINE]])
  return 0;
}
// CHECK-NOT: libdw
// CHECK-NOT: libelf
// CHECK-NOT: dwfl
// CHECK-NOT: Arena
// CHECK-NOT: massif::
