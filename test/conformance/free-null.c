// free(NULL) is not an event: no time in unit B, no snapshot, no peak
// attempt, wherever it comes between real events. (Frees of blocks the
// profiler never saw are checked natively in test/runtime/unknown-free.c:
// under Valgrind every block of the process is seen.)
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1
// RUN: %conform %s %t.p -- --time-unit=B --peak-inaccuracy=0
#include <stdlib.h>

static void *keep[4];

int main(void) {
  free(NULL);
  keep[0] = malloc(100);
  free(NULL);
  free(NULL);
  keep[1] = malloc(200);
  free(NULL);
  free(keep[0]);
  free(NULL);
  free(keep[1]);
  free(NULL);
  return 0;
}
