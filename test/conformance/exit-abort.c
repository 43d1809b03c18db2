// abort(): the process dies of SIGABRT and the profile is written, whether
// SIGABRT has its default action, a program handler that returns (abort
// then ends the process anyway), or is ignored. The handler frees a block,
// so the profile shows that it was written after the handler ran. (A block
// the handler allocated would show one frame differently: the runtime's
// abort raises SIGABRT itself, see test/runtime/abort-handler.c.)
// RUN: %conform --args=default %s %t.d -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=handler %s %t.h -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=ignore %s %t.i -- --time-unit=B --detailed-freq=1
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static void *keep[8];

static void onAbort(int sig) {
  (void)sig;
  free(keep[1]);
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  if (!strcmp(how, "handler"))
    signal(SIGABRT, onAbort);
  if (!strcmp(how, "ignore"))
    signal(SIGABRT, SIG_IGN);
  keep[0] = malloc(1000);
  keep[1] = malloc(100);
  free(keep[0]);
  abort();
}
