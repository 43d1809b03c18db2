// Every way memusage counts the malloc family: realloc growing in place,
// moving, shrinking, freeing and allocating; calloc; requests that fail;
// free(NULL); blocks from 0 bytes to several megabytes; strdup inside libc;
// and allocations from deep in the stack.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Keeps the compiler from removing allocations it can see through.
static void *volatile Sink;
static void keep(void *P) { Sink = P; }

__attribute__((noinline)) static void *allocateDeep(int Depth, size_t Size) {
  char Frame[512];
  memset(Frame, Depth, sizeof(Frame));
  keep(Frame);
  if (Depth == 0)
    return malloc(Size);
  void *P = allocateDeep(Depth - 1, Size);
  keep(Frame);
  return P;
}

int main(void) {
  // Grows at the top of the heap: in place.
  char *Top = malloc(1000);
  keep(Top);
  Top = realloc(Top, 4000);
  keep(Top);
  // A neighbour after it forces the next growth to move.
  char *Wall = malloc(64);
  keep(Wall);
  char *Moved = realloc(Top, 100000);
  keep(Moved);
  // Shrinks in place, twice.
  Moved = realloc(Moved, 30000);
  Moved = realloc(Moved, 29999);
  keep(Moved);
  // realloc as malloc and as free.
  char *FromNull = realloc(NULL, 48);
  keep(FromNull);
  if (realloc(FromNull, 0) != NULL)
    return 1;
  // calloc, small and large.
  int *Zeroed = calloc(25, sizeof(int));
  keep(Zeroed);
  double *Big = calloc(70000, sizeof(double));
  keep(Big);
  // Requests glibc refuses.
  keep(malloc(SIZE_MAX / 2));
  keep(calloc(SIZE_MAX / 16, 4));
  char *Still = realloc(Wall, SIZE_MAX / 4);
  if (Still != NULL)
    return 2;
  free(NULL);
  // Every histogram bin up to 64 KiB is hit at least once for some sizes.
  for (size_t Size = 0; Size < 70000; Size = Size * 3 / 2 + 7) {
    void *P = malloc(Size);
    keep(P);
    free(P);
  }
  char *Copy = strdup("memusage counts libc's own calls too");
  keep(Copy);
  for (int Depth = 0; Depth < 40; Depth += 13)
    free(allocateDeep(Depth, 256 + Depth));
  printf("%zu\n", strlen(Copy));
  free(Copy);
  free(Big);
  free(Zeroed);
  free(Moved);
  free(Wall);
  return 7;
}
