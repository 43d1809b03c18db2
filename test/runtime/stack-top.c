// The main thread's stack ends at the top of its mapping, not at the end
// of the page that holds the initial stack pointer (where glibc's
// pthread_getattr_np ends it): past _start the walk reads argc and argv as
// Valgrind's does (conformance/below-main.c), and argv goes on into the
// next page when the initial stack pointer lies in the last words of its
// page, which ASLR gives about one run in a hundred. Here the layout is
// fixed (setarch -R) and the environment padded so that argc is the second
// last word of its page: the first run measures where argc lies, the
// second moves it there and must still show every word up to argv's null.
// REQUIRES: setarch
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O1 -g %s -o prog
// RUN: env PAD= MASSIF_OPTIONS="--time-unit=B --show-below-main=yes --depth=30 --threshold=0 --massif-out-file=first.out" setarch -R ./prog one two > first.log
// RUN: env PAD=$(%python -c "import sys; print('a' * ((int(open('first.log').read().split()[2]) - 4080) %% 4096))") MASSIF_OPTIONS="--time-unit=B --show-below-main=yes --depth=30 --threshold=0 --massif-out-file=moved.out" setarch -R ./prog one two > moved.log
// RUN: %FileCheck %s --check-prefix=MOVED < moved.log
// RUN: %ms_print moved.out | %FileCheck %s
// MOVED: argc at 4080 of its page
// CHECK: 0x{{[0-9A-F]+}}: _start (in {{.*}}prog)
// CHECK-NEXT: 0x{{[0-9A-F]+}}: ???{{$}}
// CHECK-NEXT: 0x{{[0-9A-F]+}}: ???{{$}}
// CHECK-NEXT: 0x{{[0-9A-F]+}}: ???{{$}}
// CHECK-NEXT: 0x{{[0-9A-F]+}}: ???{{$}}
// CHECK-NEXT: 0x{{[0-9A-F]+}}: ???{{$}}
// CHECK-NEXT: 0x{{[0-9A-F]+}}: ???{{$}}
// CHECK-NEXT: {{^[ |]+$}}
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_stack_end;

static void *volatile Keep;

int main(void) {
  Keep = malloc(100);
  printf("argc at %lu of its page\n",
         (unsigned long)((unsigned long)__libc_stack_end & 4095));
  free(Keep);
  return 0;
}
