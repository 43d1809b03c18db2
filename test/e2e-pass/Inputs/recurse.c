// Recursion with a 200-byte frame array, three descents of growing depth:
// the stack dominates the peak, which is at the deepest point. The deepest
// call makes no library call, so probes and Valgrind see the same frames.
#include <stdio.h>

__attribute__((noinline)) int down(int N, volatile char *Prev) {
  volatile char Buf[200];
  Buf[0] = (char)N;
  if (N == 0)
    return Buf[0] + Prev[0];
  return down(N - 1, Buf) + Buf[0];
}

int main(void) {
  int S = 0;
  for (int I = 1; I <= 3; I++)
    S += down(100 * I, "x");
  printf("%d\n", S);
  return 0;
}
