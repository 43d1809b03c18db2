// A recursion calling a function of another file, which -flto inlines
// after the pass has probed both: the inlined probes sit in the host's
// frame and must not count it as gone (the runtime's shadow stack).
#include <stdio.h>
#include <stdlib.h>

int helper(int X);

__attribute__((noinline)) int deep(int N, volatile char *P) {
  volatile char Buf[512];
  Buf[0] = (char)helper(N);
  if (N == 0)
    return Buf[0] + P[0];
  return deep(N - 1, Buf) + helper(Buf[0]);
}

int main(void) {
  void *volatile Q = malloc(100);
  printf("%d\n", deep(50, "x"));
  free(Q);
  return 0;
}
