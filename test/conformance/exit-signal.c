// Death by a signal whose default action ends the process: the profile is
// written and the process dies of the same signal (the exit statuses are
// compared). Faults (SIGSEGV, SIGFPE, SIGILL), signals raised or sent
// with kill, a timer's SIGALRM, and SIGKILL sent to itself, which Valgrind
// also intercepts.
// RUN: %conform --args=segv %s %t.segv -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=fpe %s %t.fpe -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=term %s %t.term -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=int %s %t.int -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=hup %s %t.hup -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=quit %s %t.quit -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=pipe %s %t.pipe -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=bus %s %t.bus -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=usr1 %s %t.usr1 -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=kill %s %t.kill -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=ill %s %t.ill -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=alrm %s %t.alrm -- --time-unit=B --detailed-freq=1
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static void *keep[8];
volatile int zero = 0;

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  keep[0] = malloc(1000);
  keep[1] = malloc(100);
  free(keep[0]);
  if (!strcmp(how, "segv"))
    *(volatile int *)keep[2] = 1;
  if (!strcmp(how, "fpe"))
    return 10 / zero;
  if (!strcmp(how, "term"))
    raise(SIGTERM);
  if (!strcmp(how, "int"))
    kill(getpid(), SIGINT);
  if (!strcmp(how, "hup"))
    raise(SIGHUP);
  if (!strcmp(how, "quit"))
    raise(SIGQUIT);
  if (!strcmp(how, "pipe")) {
    int fds[2];
    if (pipe(fds) != 0)
      return 2;
    close(fds[0]);
    (void)!write(fds[1], "x", 1);
  }
  if (!strcmp(how, "bus"))
    raise(SIGBUS);
  if (!strcmp(how, "usr1"))
    raise(SIGUSR1);
  if (!strcmp(how, "kill"))
    kill(getpid(), SIGKILL);
  if (!strcmp(how, "ill"))
    __builtin_trap();
  if (!strcmp(how, "alrm")) {
    struct itimerval when = {{0, 0}, {0, 10 * 1000}};
    setitimer(ITIMER_REAL, &when, NULL);
    for (;;)
      pause();
  }
  return 1;
}
