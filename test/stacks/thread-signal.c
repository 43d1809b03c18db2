// A signal handler that allocates, in a thread other than main: the
// handler's stack runs through glibc's signal trampoline into the
// pthread_kill that raised it, and on down the thread's own frames to
// start_thread and clone. Deterministic: pthread_kill on the calling thread
// delivers the signal before it returns, and main waits for the thread.
// The DTV pthread_create allocates for the thread is in both profiles,
// 272 bytes.
// RUN: %stacks --cflags='-O0 -pthread' %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
// RUN: %FileCheck %s < %t/native-last.txt
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

static void *Kept[4];

static void onSignal(int Sig) {
  Kept[0] = malloc(500);
  (void)Sig;
}

__attribute__((noinline)) static void *worker(void *Arg) {
  Kept[1] = malloc(200);
  pthread_kill(pthread_self(), SIGUSR1);
  return Arg;
}

int main(void) {
  signal(SIGUSR1, onSignal);
  pthread_t T;
  pthread_create(&T, NULL, worker, NULL);
  pthread_join(T, NULL);
  return 0;
}

// CHECK:      onSignal ({{.*}}thread-signal.c:17)
// CHECK-NEXT: ??? (in {{.*}}libc.so.6)
// CHECK-NEXT: __pthread_kill_implementation (pthread_kill.c:
// CHECK:      worker ({{.*}}thread-signal.c:23)
// CHECK-NEXT: start_thread (pthread_create.c:
// CHECK-NEXT: clone (clone.S:
