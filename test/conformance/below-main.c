// --show-below-main=yes: stacks go on past main, with the real names of
// the functions below it (__libc_start_call_main, __libc_start_main with
// its symbol version, _start) instead of "(below main)". Past _start, whose
// return address its call-frame information leaves undefined, Valgrind's
// unwinder reads the stack word by word as return addresses ("???": the
// two words _start pushed, then argc and the argv pointers up to argv's
// null, or argc itself when it is 1), and so does the native one: the
// deeper runs show them.
// RUN: %conform %s %t.b -- --time-unit=B --show-below-main=yes --depth=5
// RUN: %conform %s %t.j -- --time-unit=B --show-below-main=yes --depth=12 --threshold=0
// RUN: %conform --args="one two" %s %t.k -- --time-unit=B --show-below-main=yes --depth=14 --threshold=0
// RUN: %FileCheck %s --check-prefix=JUNK < %t.k/report.txt
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
// JUNK: 0x........: __libc_start_main@@GLIBC_2.34 (libc-start.c:[[#]])
// JUNK-NEXT: 0x........: _start (in <dir>/prog)
// JUNK-NEXT: 0x........: ???{{$}}
// JUNK-NEXT: 0x........: ???{{$}}
// JUNK-NEXT: 0x........: ???{{$}}
// JUNK-NEXT: 0x........: ???{{$}}
// JUNK-NEXT: 0x........: ???{{$}}
// JUNK-NEXT: 0x........: ???{{$}}
// JUNK-NEXT: {{^[ |]+$}}
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
