// abort() with a handler of the program that returns: the runtime's abort
// raises SIGABRT itself, so that it can write the profile once the handler
// is done (glibc's abort would end the process without returning). What
// the handler allocates is in the profile, but below the signal frame its
// stack goes from raise straight to main where Valgrind shows glibc's
// abort (abort.c:79) between them: the documented difference (the
// runtime's own abort is never shown).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: env MASSIF_OPTIONS="--time-unit=B --detailed-freq=1 --massif-out-file=out" sh -c './prog; echo "status $?"' > log 2>&1
// RUN: %FileCheck %s --check-prefix=STATUS < log
// RUN: %python %S/Inputs/last-snapshot.py out | %FileCheck %s
#include <signal.h>
#include <stdlib.h>

static void *keep[4];
static int calls;

static void onAbort(int sig) {
  (void)sig;
  ++calls;
  keep[1] = malloc(64); // CHECK: n1: 64 {{.*}}: onAbort ({{.*}}abort-handler.c:[[@LINE]])
}
// CHECK: raise
// CHECK-NEXT: main ({{.*}}abort-handler.c:[[@LINE+8]])

int main(void) {
  signal(SIGABRT, onAbort);
  keep[0] = malloc(1000);
  if (calls)
    return 1;
  // The handler runs once, then the process dies of SIGABRT.
  abort(); // STATUS: status 134
}
