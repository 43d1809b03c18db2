#include <stdlib.h>
#include <string.h>
static void *volatile Sink;
__attribute__((noinline)) void temporary(int N) {
  for (int I = 0; I < N; ++I) { char *P = malloc(64); memset(P, I, 64); Sink = P; free(P); }
}
__attribute__((noinline)) void *leak(size_t N) { return malloc(N); }
__attribute__((noinline)) void grow(void) {
  char *P = NULL;
  for (int I = 1; I <= 20; ++I) { P = realloc(P, I * 100); Sink = P; }
  free(P);
}
__attribute__((noinline)) void pairs(void) {
  void *A = calloc(10, 30), *B = malloc(500);
  Sink = A; Sink = B; free(A); free(B);
}
int main(void) {
  temporary(100);
  for (int I = 0; I < 5; ++I) Sink = leak(1000 + I);
  grow();
  for (int I = 0; I < 7; ++I) pairs();
  return 0;
}
