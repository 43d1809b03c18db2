// --show-below-main=yes: stacks go on past main, with the real names of
// the functions below it (__libc_start_call_main, __libc_start_main with
// its symbol version, _start) instead of "(below main)". Valgrind's
// unwinder reads junk frames ("???") past _start, which the native one
// does not: every allocation is at the same depth, and --depth stops the
// trees before _start.
// RUN: %conform %s %t.b -- --time-unit=B --show-below-main=yes --depth=5
// RUN: %conform %s %t.d -- --time-unit=B --show-below-main=yes --depth=4 --detailed-freq=2 --threshold=0
// RUN: %conform %s %t.f -- --time-unit=B --show-below-main=yes --depth=5 --alloc-fn=leaf
// The default for comparison: cut at main, below it "(below main)" only
// when main is an --alloc-fn.
// RUN: %conform %s %t.n -- --time-unit=B --show-below-main=no --alloc-fn=leaf --alloc-fn=via_a --alloc-fn=via_b --alloc-fn=main
// RUN: %FileCheck %s < %t.b/report.txt
// CHECK: 0x........: leaf ({{.*}}below-main.c:[[#]])
// CHECK: 0x........: main ({{.*}}below-main.c:[[#]])
// CHECK-NEXT: 0x........: __libc_start_call_main (libc_start_call_main.h:[[#]])
// CHECK-NEXT: 0x........: __libc_start_main@@GLIBC_2.34 (libc-start.c:[[#]])
#include <stdlib.h>

static void *keep[32];

__attribute__((noinline)) void *leaf(size_t n) { return malloc(n); }
__attribute__((noinline)) void *via_a(size_t n) { return leaf(n); }
__attribute__((noinline)) void *via_b(size_t n) { return leaf(n * 3); }

int main(void) {
  for (int i = 0; i < 32; i++)
    keep[i] = (i % 3) ? via_a(100 + i) : via_b(200);
  for (int i = 0; i < 32; i += 2)
    free(keep[i]);
  return 0;
}
