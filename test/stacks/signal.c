// A signal handler that allocates: its stack runs through glibc's signal
// trampoline (unnamed, "???" as under Valgrind) into the code the signal
// interrupted, down to the raise() in main. Deterministic: raise delivers
// the signal before it returns. strdup, fopen and qsort allocate inside
// glibc as well, from the handler and from main.
// RUN: %stacks %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
// RUN: %FileCheck %s < %t/native-last.txt
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *Kept[8];
static FILE *File;

static void onSignal(int Sig) {
  Kept[0] = malloc(700);
  Kept[1] = strdup("from the handler");
  (void)Sig;
}

static int compare(const void *A, const void *B) {
  if (!Kept[2])
    Kept[2] = malloc(300);
  return *(const int *)A - *(const int *)B;
}

int main(void) {
  signal(SIGUSR1, onSignal);
  raise(SIGUSR1);
  File = fopen("/dev/null", "r");
  int V[4] = {4, 3, 2, 1};
  qsort(V, 4, sizeof(int), compare);
  Kept[3] = strdup("from main");
  fclose(File);
  return 0;
}

// The last snapshot: the handler's stacks in full, then qsort's callback.
// CHECK:      onSignal ({{.*}}signal.c:17)
// CHECK-NEXT: ??? (in {{.*}}libc.so.6)
// CHECK-NEXT: __pthread_kill_implementation (pthread_kill.c:
// CHECK-NEXT: raise (raise.c:
// CHECK-NEXT: main ({{.*}}signal.c:30)
// CHECK:      compare ({{.*}}signal.c:24)
// CHECK-NEXT: msort_with_tmp
// CHECK:      strdup (strdup.c:42)
// CHECK-NEXT: onSignal ({{.*}}signal.c:18)
// CHECK-NEXT: ??? (in {{.*}}libc.so.6)
