/* A source file whose name contains '#': ms_print cuts every line at the
   first '#', so tree lines from this file lose their tail. */
#include <stdlib.h>

static void *volatile sink[4];

int main(void) {
  sink[0] = malloc(1000);
  sink[1] = malloc(2000);
  free(sink[0]);
  sink[2] = malloc(4000);
  free(sink[1]);
  free(sink[2]);
  return 0;
}
