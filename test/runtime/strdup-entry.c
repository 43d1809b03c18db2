// With the pass, strdup and strndup reach the runtime as __massif_strdup
// and __massif_strndup; the stack still reads strdup <- caller <- main, as
// under Valgrind, although glibc's strdup keeps no frame pointer.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: llvm-objdump -d prog | %FileCheck %s --check-prefix=CALLS
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --massif-out-file=out" ./prog
// RUN: %python %S/Inputs/last-snapshot.py out > last
// RUN: %FileCheck %s < last
// CALLS-LABEL: <copy>:
// CALLS: call{{.*}} <__massif_strdup>
// CALLS: call{{.*}} <__massif_strndup>
#include <stdlib.h>
#include <string.h>

static char *keep[2];

__attribute__((noinline)) void copy(void) {
  keep[0] = strdup("twenty-nine characters long!"); // CHECK-DAG: {{^  }}n1: 29 0x{{[0-9A-F]+}}: copy ({{.*}}strdup-entry.c:[[@LINE]])
  keep[1] = strndup("abcdefgh", 4); // CHECK-DAG: {{^  }}n1: 5 0x{{[0-9A-F]+}}: copy ({{.*}}strdup-entry.c:[[@LINE]])
}

int main(void) {
  copy(); // CHECK-DAG: {{^   }}n0: {{29|5}} 0x{{[0-9A-F]+}}: main ({{.*}}strdup-entry.c:[[@LINE]])
  free(malloc(8));
  return 0;
}
// CHECK-DAG: {{^ }}n1: 29 0x{{[0-9A-F]+}}: strdup ({{.*}})
// CHECK-DAG: {{^ }}n1: 5 0x{{[0-9A-F]+}}: strndup ({{.*}})
