// A C program linked with the runtime does not depend on the C++ runtime:
// demangling borrows libstdc++ only when a C++ name has to be printed.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: llvm-readelf -d prog | %FileCheck %s
// RUN: env MASSIF_OPTIONS="--time-unit=B --massif-out-file=out" ./prog
// RUN: %FileCheck %s --check-prefix=FILE < out
// CHECK: NEEDED
// CHECK-NOT: libstdc++
// FILE: cmd: ./prog
#include <stdlib.h>

int main(void) {
  free(malloc(10));
  return 0;
}
