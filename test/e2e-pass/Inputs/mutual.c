// Two mutually recursive functions with different frames, and heap blocks
// allocated on the way down and freed on the way up: heap and stack peak
// together. The deepest calls allocate, so Valgrind also sees malloc's own
// pushes there, which probes do not.
#include <stdio.h>
#include <stdlib.h>

int odd(int N, volatile char *Prev);

__attribute__((noinline)) int even(int N, volatile char *Prev) {
  volatile char Buf[64];
  Buf[0] = Prev[0];
  if (N == 0)
    return Buf[0];
  char *volatile P = malloc(48);
  int R = odd(N - 1, Buf) + Buf[0];
  free(P);
  return R;
}

__attribute__((noinline)) int odd(int N, volatile char *Prev) {
  volatile char Buf[512];
  Buf[0] = Prev[1];
  Buf[1] = Buf[0];
  return even(N - 1, Buf) + Buf[1];
}

int main(void) {
  int S = 0;
  for (int I = 2; I <= 122; I += 60) // even depths: even() reaches 0
    S += even(I, "ab");
  printf("%d\n", S);
  return 0;
}
