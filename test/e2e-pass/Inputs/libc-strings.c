// Work split between the program and libc (memcpy, strlen, qsort): the
// case where Valgrind counts instructions the counters do not see.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *A, const void *B) {
  return strcmp(*(char *const *)A, *(char *const *)B);
}

int main(void) {
  enum { N = 3000 };
  char **Words = malloc(N * sizeof(char *));
  char *Text = malloc(N * 13);
  unsigned X = 7;
  for (int I = 0; I < N; I++) {
    char Buf[32];
    for (int K = 0; K < 12; K++) {
      X = X * 1103515245u + 12345u;
      Buf[K] = (char)('a' + (X >> 16) % 26);
    }
    Buf[12] = 0;
    Words[I] = Text + I * 13;
    memcpy(Words[I], Buf, strlen(Buf) + 1);
  }
  qsort(Words, N, sizeof(char *), cmp);
  size_t Total = 0;
  for (int I = 0; I < N; I++)
    Total += strlen(Words[I]) + (unsigned char)Words[I][0];
  free(Text);
  free(Words);
  printf("%zu\n", Total);
  void *volatile Marker = malloc(4242); // both profilers time this event
  free(Marker);
  return 0;
}
