// Ends that skip exit handlers still leave a profile, as under Valgrind:
// _exit, _Exit and quick_exit (after the at_quick_exit handlers, whose
// allocations are in it), each with the program's own exit status.
// RUN: %conform --args=_exit %s %t.u -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=_Exit %s %t.e -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=quick_exit %s %t.q -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=exit %s %t.x -- --time-unit=B --detailed-freq=1
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *keep[8];

static void atQuickExit(void) { keep[3] = malloc(33); }
static void atExit(void) { keep[4] = malloc(44); }

int main(int argc, char **argv) {
  at_quick_exit(atQuickExit);
  atexit(atExit);
  keep[0] = malloc(1000);
  keep[1] = malloc(200);
  free(keep[0]);
  const char *how = argc > 1 ? argv[1] : "";
  if (!strcmp(how, "_exit"))
    _exit(3);
  if (!strcmp(how, "_Exit"))
    _Exit(4);
  if (!strcmp(how, "quick_exit"))
    quick_exit(5);
  exit(6);
}
