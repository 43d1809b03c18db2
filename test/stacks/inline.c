// Inlined allocation wrappers (a chain of always_inline functions) and
// inlined callers: one code address stands for several printed frames, each
// named by its DWARF name at the line of the call inside it, as Massif
// prints them; --depth counts addresses, not inlined levels.
// RUN: %stacks --cflags=-O0 %s %t.0 -- --time-unit=B --detailed-freq=1 --threshold=0
// RUN: %FileCheck %s < %t.0/native.txt
// RUN: %stacks --cflags=-O2 %s %t.2 -- --time-unit=B --detailed-freq=1 --threshold=0
// RUN: %FileCheck %s --check-prefix=OPT < %t.2/native.txt
// RUN: %stacks --cflags=-O2 %s %t.d -- --time-unit=B --detailed-freq=1 --depth=2
#include <stdlib.h>

static inline __attribute__((always_inline)) void *wrap1(size_t n) {
  return malloc(n);
}
static inline __attribute__((always_inline)) void *wrap2(size_t n) {
  return wrap1(n * 2);
}
static inline __attribute__((always_inline)) void *wrap3(size_t n) {
  return wrap2(n + 1);
}

void *volatile sink[16];

__attribute__((noinline)) void outer(int i) {
  sink[i] = wrap3((size_t)(100 * i));
  __asm__ volatile("" ::: "memory");
}

static inline __attribute__((always_inline)) void caller(int i) {
  outer(i);
  sink[i + 8] = wrap1(10);
}

int main(void) {
  for (int i = 1; i < 4; i++)
    caller(i);
  return 0;
}

// CHECK:      wrap1 ({{.*}}inline.c:13)
// CHECK-NEXT: wrap2 ({{.*}}inline.c:16)
// CHECK-NEXT: wrap3 ({{.*}}inline.c:19)
// CHECK-NEXT: outer ({{.*}}inline.c:25)
// CHECK-NEXT: caller ({{.*}}inline.c:30)
// CHECK-NEXT: main ({{.*}}inline.c:36)
// OPT:      wrap1 ({{.*}}inline.c:13)
// OPT-NEXT: wrap2 ({{.*}}inline.c:16)
// OPT-NEXT: wrap3 ({{.*}}inline.c:19)
// OPT-NEXT: outer ({{.*}}inline.c:25)
// OPT-NEXT: caller ({{.*}}inline.c:30)
// OPT-NEXT: main ({{.*}}inline.c:36)
