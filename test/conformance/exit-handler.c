// A program's own handler for a fatal signal runs as without the profiler:
// here it allocates, puts the default action back (with signal() or
// sigaction()) and raises the signal again, so the process dies of it and
// the profile, written at that death, holds the handler's allocation.
// Another handler ends the process with _exit from inside the handler.
// RUN: %conform --args=signal %s %t.s -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=sigaction %s %t.a -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=exit %s %t.e -- --time-unit=B --detailed-freq=1
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *keep[8];
static int how;

static void onTerm(int sig) {
  keep[2] = malloc(500);
  if (how == 2)
    _exit(42);
  if (how == 0) {
    signal(sig, SIG_DFL);
  } else {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigaction(sig, &sa, NULL);
  }
  raise(sig);
}

int main(int argc, char **argv) {
  const char *arg = argc > 1 ? argv[1] : "";
  how = !strcmp(arg, "signal") ? 0 : !strcmp(arg, "sigaction") ? 1 : 2;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = onTerm;
  sigaction(SIGTERM, &sa, NULL);
  keep[0] = malloc(1000);
  keep[1] = malloc(100);
  free(keep[0]);
  raise(SIGTERM);
  return 1;
}
