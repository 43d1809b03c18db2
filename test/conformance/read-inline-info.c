// --read-inline-info=no: no inlined frames. An address inside inlined
// code prints as one line, the enclosing real function with the line of
// the innermost inlined code, as Valgrind prints it without inline info.
// RUN: %conform --cflags=-O1 %s %t.no -- --time-unit=B --read-inline-info=no
// RUN: %conform --cflags=-O1 %s %t.nod -- --time-unit=B --read-inline-info=no --detailed-freq=1 --alloc-fn=plain
// RUN: %conform --cflags=-O1 %s %t.yes -- --time-unit=B --read-inline-info=yes
// RUN: %FileCheck %s --check-prefix=NO < %t.no/report.txt
// RUN: %FileCheck %s --check-prefix=YES < %t.yes/report.txt
// NO-NOT: 0x........: inner (
// NO-NOT: 0x........: outer (
// Line 21 is inner's call of malloc, 24 outer's of inner, 30 main's.
// NO: 0x........: main ({{.*}}read-inline-info.c:21)
// YES: 0x........: inner ({{.*}}read-inline-info.c:21)
// YES-NEXT: 0x........: outer ({{.*}}read-inline-info.c:24)
// YES-NEXT: 0x........: main ({{.*}}read-inline-info.c:30)
#include <stdlib.h>

static void *keep[8];

static inline __attribute__((always_inline)) void *inner(size_t n) {
  return malloc(n);
}
static inline __attribute__((always_inline)) void *outer(size_t n) {
  return inner(n * 2);
}
__attribute__((noinline)) void *plain(size_t n) { return outer(n) ; }

int main(void) {
  for (int i = 0; i < 8; i++)
    keep[i] = (i & 1) ? outer(1000) : plain(500);
  for (int i = 0; i < 8; i++)
    free(keep[i]);
  return 0;
}
