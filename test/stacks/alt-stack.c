// A signal handler that allocates on an alternate signal stack
// (sigaltstack, SA_ONSTACK): the walk keeps to that stack, as Valgrind's
// does, through the handler and glibc's signal trampoline to the
// interrupted pthread_kill, and ends there; the allocation after the
// handler returns has its full stack again. Deterministic: raise delivers
// the signal before it returns.
// RUN: %stacks --cflags=-O0 %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
// RUN: %FileCheck %s < %t/native-last.txt
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static void *Kept[2];
static char AltStack[65536];

__attribute__((noinline)) static void *grab(size_t SizeB) {
  return malloc(SizeB);
}

static void onSignal(int Sig) {
  Kept[0] = grab(1000);
  (void)Sig;
}

__attribute__((noinline)) static void work(void) {
  raise(SIGUSR1);
  Kept[1] = grab(2000);
}

int main(void) {
  stack_t Ss;
  Ss.ss_sp = AltStack;
  Ss.ss_size = sizeof AltStack;
  Ss.ss_flags = 0;
  sigaltstack(&Ss, NULL);
  struct sigaction Sa;
  memset(&Sa, 0, sizeof Sa);
  Sa.sa_handler = onSignal;
  Sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &Sa, NULL);
  work();
  return 0;
}

// CHECK:      grab ({{.*}}alt-stack.c:17)
// CHECK-NEXT: work ({{.*}}alt-stack.c:27)
// CHECK-NEXT: main ({{.*}}alt-stack.c:41)
// CHECK:      onSignal ({{.*}}alt-stack.c:21)
// CHECK-NEXT: ??? (in {{.*}}libc.so.6)
// CHECK-NEXT: __pthread_kill_implementation (pthread_kill.c:
// CHECK-NOT:  ->
