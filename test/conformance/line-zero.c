// At -O2 the two mallocs of pick merge into one call, which the line table
// gives line 0 (it stands for two lines): Valgrind prints the frame as
// "pick (line-zero.c:0)", the file with line 0, not "(in object)".
// RUN: %conform --cflags=-O2 %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
#include <stdlib.h>
#include <string.h>
void *volatile Keep[4];
__attribute__((noinline)) void *pick(int Big) {
  char *P;
  if (Big)
    P = malloc(200);
  else
    P = malloc(100);
  P[0] = 1;
  return P;
}
int main(int argc, char **argv) {
  (void)argv;
  Keep[0] = pick(argc > 1);
  Keep[1] = pick(argc > 2);
  free(Keep[0]);
  free(Keep[1]);
  return 0;
}
