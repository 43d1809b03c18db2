// --stacks=no given explicitly: the same as the default, and listed in the
// desc: line like every option given.
// RUN: %conform %s %t -- --time-unit=B --stacks=no --detailed-freq=2
#include <stdlib.h>

static void *keep[4];

int main(void) {
  keep[0] = malloc(100);
  keep[1] = malloc(200);
  free(keep[0]);
  keep[2] = malloc(300);
  free(keep[1]);
  free(keep[2]);
  return 0;
}
