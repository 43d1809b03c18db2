// Deep recursion and many small calls: the call-heavy case of the
// instruction-count comparison (prologues, epilogues, argument moves).
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned fib(unsigned N) {
  return N < 2 ? N : fib(N - 1) + fib(N - 2);
}

int main(void) {
  char *P = malloc(64);
  unsigned R = fib(25);
  free(P);
  printf("%u\n", R);
  void *volatile Marker = malloc(4242); // both profilers time this event
  free(Marker);
  return 0;
}
