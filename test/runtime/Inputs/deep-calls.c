/* Allocates through a short chain of calls, so a profile has several
 * frames of the executable's own code (the counter after each call keeps
 * it from being a tail call). */
#include <stdlib.h>

void *volatile Kept[4];
volatile int Calls;

__attribute__((noinline)) static void *leaf(int N) {
  void *P = malloc(100 * N);
  ++Calls;
  return P;
}

__attribute__((noinline)) static void *middle(int N) {
  void *P = leaf(N + 1);
  ++Calls;
  return P;
}

int main(void) {
  for (int I = 0; I < 4; ++I)
    Kept[I] = I % 2 ? middle(I) : leaf(I + 1);
  return 0;
}
