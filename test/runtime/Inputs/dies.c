/* Allocates, then ends as argv[1] says: a fault, abort, a raised signal,
 * or a plain return. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static void *keep[4];
volatile int zero = 0;

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  keep[0] = malloc(1000);
  if (!strcmp(how, "segv"))
    *(volatile int *)keep[1] = 1;
  if (!strcmp(how, "fpe"))
    return 10 / zero;
  if (!strcmp(how, "abort"))
    abort();
  if (!strcmp(how, "quit"))
    raise(SIGQUIT);
  if (!strcmp(how, "term"))
    raise(SIGTERM);
  if (!strcmp(how, "bus"))
    raise(SIGBUS);
  return 0;
}
