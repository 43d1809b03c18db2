// The runtime's own functions never appear in a profile. Where an
// interposer calls on into glibc and glibc allocates, the stack passes
// through the runtime's frame; it is left out, so the stack reads as
// Massif's: the DTV glibc's pthread_create allocates is charged to
// pthread_create@@GLIBC_2.34 called from main. The program also starts a
// thread from a thread, opens and closes a library, allocates in a signal
// handler and in atexit handlers; no frame of the profile is the
// runtime's.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 -g %s -o prog -lpthread -ldl
// RUN: env MASSIF_OPTIONS="--time-unit=B --detailed-freq=1 --threshold=0 --massif-out-file=out" ./prog
// RUN: %FileCheck %s < out
// RUN: %FileCheck %s --check-prefix=NONE < out
// CHECK: pthread_create@@GLIBC_2.34 (pthread_create.c:
// CHECK-NEXT: {{(main|outer) }}(
// NONE-NOT: runtime/native/
// NONE-NOT: massif::
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

static void *volatile Keep[8];

static void *inner(void *Arg) {
  Keep[1] = malloc(30);
  return Arg;
}

static void *outer(void *Arg) {
  pthread_t T;
  pthread_create(&T, NULL, inner, NULL);
  pthread_join(T, NULL);
  return Arg;
}

static void onUsr1(int Sig) {
  (void)Sig;
  Keep[2] = malloc(40);
}

static void atExit(void) { Keep[3] = malloc(50); }

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, outer, NULL);
  pthread_join(T, NULL);
  void *Lib = dlopen("libm.so.6", RTLD_NOW);
  if (Lib)
    dlclose(Lib);
  signal(SIGUSR1, onUsr1);
  raise(SIGUSR1);
  atexit(atExit);
  Keep[0] = malloc(20);
  return 0;
}
