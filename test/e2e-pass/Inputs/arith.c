// Integer loops and a few allocations: the plain compute case of the
// instruction-count comparison.
#include <stdio.h>
#include <stdlib.h>

static unsigned long mix(unsigned long S, unsigned I, unsigned J) {
  return S + ((I * J) ^ (S >> 3));
}

int main(void) {
  void *Keep[16];
  unsigned long S = 0;
  for (unsigned I = 0; I < 400; I++) {
    for (unsigned J = 0; J < 5000; J++)
      S = mix(S, I, J);
    if (I % 25 == 0)
      Keep[I / 25] = malloc(1000 + I);
  }
  for (int K = 0; K < 16; K++)
    free(Keep[K]);
  printf("%lu\n", S);
  void *volatile Marker = malloc(4242); // both profilers time this event
  free(Marker);
  return 0;
}
