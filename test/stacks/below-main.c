// The frames below main: when main itself is an alloc-fn, Massif keeps one
// frame, "(below main)", which needs libc's start-up frames unwound. A
// stripped program has no "main" to cut at: the stacks end at the
// innermost below-main frame.
// RUN: %stacks %s %t -- --time-unit=B --detailed-freq=1 --alloc-fn=main
// RUN: %FileCheck %s < %t/native-last.txt
// RUN: %stacks --cflags='-O0 -s' %s %t.s -- --time-unit=B --detailed-freq=1
// RUN: %FileCheck %s --check-prefix=STRIPPED < %t.s/native-last.txt
#include <stdlib.h>

static void *Kept[2];

__attribute__((noinline)) static void *helper(void) { return malloc(64); }

int main(void) {
  Kept[0] = malloc(100);
  Kept[1] = helper();
  return 0;
}

// CHECK: (below main) (libc_start_call_main.h:58)
// STRIPPED: ??? (in {{.*}}prog)
// STRIPPED: (below main) (libc_start_call_main.h:58)
