// A shared library linked at start-up whose constructor allocates (Inputs/
// ctorlib.c): ld.so's _dl_init runs it, called from ld.so's start code
// (_dl_start_user), which has neither call-frame information nor a symbol.
// Massif shows "??? (in ld-linux-x86-64.so.2)" for it and then, when the
// program has arguments, one "???" per stack word its walk reads there as
// a return address: m_stacktrace.c's last resort for a frame without
// call-frame information and without a frame pointer in the stack takes
// the word at SP and moves one word on, which finds argc and the argv
// pointers, up to argv's null (a 1, argc with no arguments, ends it at
// once). The native walk follows the same rule. The library built by gcc
// and clang at -O2 (no frame pointers: its frames are walked by its CFI),
// and instrumented by mscc.
// RUN: %conform --lib='Inputs/ctorlib.c:ctorlib:gcc:-O2 -g -gdwarf-4' --ms-print-args=--threshold=0 %s %t -- --time-unit=B --threshold=0
// RUN: %FileCheck %s < %t/report.txt
// RUN: %conform --lib='Inputs/ctorlib.c:ctorlib:gcc:-O2 -g -gdwarf-4' --ms-print-args=--threshold=0 --args="one two three" %s %t.a -- --time-unit=B --threshold=0 --detailed-freq=1
// RUN: %FileCheck %s --check-prefix=ARGS < %t.a/report.txt
// RUN: %conform --lib='Inputs/ctorlib.c:ctorlib:clang:-O2 -g -gdwarf-4' --args="x" %s %t.c -- --time-unit=B --threshold=0
// RUN: %conform --lib='Inputs/ctorlib.c:ctorlib:gcc:-O2' --args="x y" %s %t.n -- --time-unit=B --detailed-freq=1
// RUN: %conform --lib='Inputs/ctorlib.c:ctorlib:mscc:-O2' --args="x y" %s %t.m -- --time-unit=B --threshold=0
// RUN: %conform --lib='Inputs/ctorlib.c:ctorlib:mscc:' %s %t.f -- --time-unit=B --threshold=0 --alloc-fn=ctorlib_grab
// CHECK: ctorlib_grab (ctorlib.c:[[#]])
// CHECK-NEXT: ctorlib_init (ctorlib.c:[[#]])
// CHECK-NEXT: call_init (dl-init.c:[[#]])
// CHECK-NEXT: call_init (dl-init.c:[[#]])
// CHECK-NEXT: _dl_init (dl-init.c:[[#]])
// CHECK-NEXT: ??? (in {{.*}}ld-linux-x86-64.so.2)
// CHECK-NOT: 0x........: ???{{$}}
// ARGS: ctorlib_grab (ctorlib.c:[[#]])
// ARGS-NEXT: ctorlib_init (ctorlib.c:[[#]])
// ARGS-NEXT: call_init (dl-init.c:[[#]])
// ARGS-NEXT: call_init (dl-init.c:[[#]])
// ARGS-NEXT: _dl_init (dl-init.c:[[#]])
// ARGS-NEXT: ??? (in {{.*}}ld-linux-x86-64.so.2)
// ARGS-NEXT: 0x........: ???{{$}}
// ARGS-NEXT: 0x........: ???{{$}}
// ARGS-NEXT: 0x........: ???{{$}}
// ARGS-NEXT: 0x........: ???{{$}}
// ARGS-NEXT: 0x........: ???{{$}}
// ARGS-NEXT: {{^[ |]+$}}
#include <stdlib.h>

void *ctorlib_kept(int I);

int main(void) {
  void *P = malloc(20);
  free(P);
  return ctorlib_kept(0) && ctorlib_kept(1) ? 0 : 1;
}
