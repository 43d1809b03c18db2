// A C program's code before main: __attribute__((constructor)) functions
// (with and without a priority), a raw .init_array entry and a
// .preinit_array entry allocate. The constructors run from glibc's
// __libc_start_main@@GLIBC_2.34, a normal function to Massif (its versioned
// name is not one of the below-main names it compares whole), so their
// stacks end in it and "(below main)" for _start; .preinit_array runs from
// ld.so's _dl_init, whose caller has no call-frame information (see
// global-ctors.cpp).
// RUN: %conform --ms-print-args=--threshold=0 %s %t -- --time-unit=B --threshold=0 --detailed-freq=1
// RUN: %FileCheck %s < %t/report.txt
// RUN: %conform --args="a b c" %s %t.a -- --time-unit=B --threshold=0
// RUN: %conform --cflags=-O2 %s %t.o -- --time-unit=B --threshold=0
// RUN: %conform %s %t.d -- --time-unit=B
// RUN: %conform %s %t.b -- --time-unit=B --threshold=0 --show-below-main=yes
// CHECK: init_late ({{.*}}global-ctors-c.c:[[#]])
// CHECK-NEXT: call_init (libc-start.c:[[#]])
// CHECK-NEXT: __libc_start_main@@GLIBC_2.34 (libc-start.c:[[#]])
// CHECK-NEXT: (below main) (in <dir>/prog)
#include <stdlib.h>

static void *Kept[8];

__attribute__((noinline)) static void *grab(size_t n) { return malloc(n); }

__attribute__((constructor)) static void init_late(void) {
  Kept[0] = grab(1000);
  Kept[1] = realloc(grab(10), 2000);
}

__attribute__((constructor(101))) static void init_first(void) {
  Kept[2] = calloc(10, 30);
}

static void init_raw(void) { Kept[3] = malloc(64); }
__attribute__((section(".init_array"), used)) static void (*Raw)(void) =
    init_raw;

static void pre(void) { Kept[4] = malloc(48); }
__attribute__((section(".preinit_array"), used)) static void (*Pre)(void) =
    pre;

int main(void) {
  Kept[5] = malloc(16);
  free(Kept[2]);
  return 0;
}
