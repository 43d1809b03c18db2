// strdup and strndup allocate inside glibc: the stacks show the glibc
// function, then the caller.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
#include <stdlib.h>
#include <string.h>

static char *keep[4];

int main(void) {
  keep[0] = strdup("a string of some length");
  keep[1] = strndup("another string", 7);
  free(keep[0]);
  free(keep[1]);
  return 0;
}
