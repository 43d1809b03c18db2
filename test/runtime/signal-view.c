// The runtime's fatal-signal handlers are invisible to the program: queries
// report the disposition the program set (SIG_DFL at start), signal() and
// sigaction() return the previous disposition as the program knows it, a
// handler of the program runs when the signal comes, a disposition
// inherited as SIG_IGN stays ignored, and SIG_DFL set by the program dies
// of the signal with the profile written.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: env MASSIF_OPTIONS="--time-unit=B --massif-out-file=out" %python -c "import signal, subprocess, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); sys.exit(subprocess.call(['./prog']) != -signal.SIGTERM)" > log
// RUN: %FileCheck %s < log
// RUN: %python %S/Inputs/last-snapshot.py out | %FileCheck %s --check-prefix=PROFILE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int handled;
static void onUsr1(int sig) { handled = sig; }
static void onInfo(int sig, siginfo_t *info, void *ctx) {
  (void)ctx;
  handled = sig + 1000 * (info->si_code == SI_TKILL);
}

static const char *name(void (*h)(int)) {
  return h == SIG_DFL ? "DFL" : h == SIG_IGN ? "IGN" : h == onUsr1 ? "onUsr1"
                                                                     : "other";
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); // no stdio buffer in the profile
  void *keep = malloc(1234);
  struct sigaction sa, old;
  // CHECK: SEGV at start: DFL flags=0
  sigaction(SIGSEGV, NULL, &old);
  printf("SEGV at start: %s flags=%d\n", name(old.sa_handler), old.sa_flags);
  // CHECK-NEXT: INT inherited: IGN
  sigaction(SIGINT, NULL, &old);
  printf("INT inherited: %s\n", name(old.sa_handler));
  raise(SIGINT); // ignored, as without the runtime

  // CHECK-NEXT: signal(USR1) was DFL
  printf("signal(USR1) was %s\n", name(signal(SIGUSR1, onUsr1)));
  raise(SIGUSR1);
  // CHECK-NEXT: handled 10
  printf("handled %d\n", handled);
  // CHECK-NEXT: signal(USR1, DFL) was onUsr1
  printf("signal(USR1, DFL) was %s\n", name(signal(SIGUSR1, SIG_DFL)));
  // CHECK-NEXT: USR1 now DFL
  sigaction(SIGUSR1, NULL, &old);
  printf("USR1 now %s\n", name(old.sa_handler));

  // A query returns what the program asked for with SIG_DFL, flags too.
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = SIG_DFL;
  sa.sa_flags = SA_NODEFER;
  sigaddset(&sa.sa_mask, SIGHUP);
  sigaction(SIGQUIT, &sa, NULL);
  sigaction(SIGQUIT, NULL, &old);
  // CHECK-NEXT: QUIT: DFL nodefer=1 hup-masked=1
  printf("QUIT: %s nodefer=%d hup-masked=%d\n", name(old.sa_handler),
         !!(old.sa_flags & SA_NODEFER), sigismember(&old.sa_mask, SIGHUP));

  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = onInfo;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGHUP, &sa, &old);
  // CHECK-NEXT: HUP was DFL
  printf("HUP was %s\n", name(old.sa_handler));
  raise(SIGHUP);
  // CHECK-NEXT: handled 1001
  printf("handled %d\n", handled);
  sigaction(SIGHUP, NULL, &old);
  // CHECK-NEXT: HUP handler kept: 1
  printf("HUP handler kept: %d\n", old.sa_sigaction == onInfo);

  free(malloc(10));
  // CHECK-NEXT: dying of SIGTERM
  // CHECK-NOT: not reached
  printf("dying of SIGTERM\n");
  raise(SIGTERM);
  printf("not reached\n");
  free(keep);
  return 0;
}
// PROFILE: mem_heap_B=1234
