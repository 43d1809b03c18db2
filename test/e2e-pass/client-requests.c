// A pool allocator annotated for Valgrind (VALGRIND_MALLOCLIKE_BLOCK,
// FREELIKE_BLOCK, RESIZEINPLACE_BLOCK): natively, the pass lowers the
// requests to the runtime, and the ms_print report is Valgrind's.
// REQUIRES: valgrind, vg-ms-print
// RUN: %conform %s %t.B -- --time-unit=B --detailed-freq=1 --threshold=0
// RUN: %conform --cflags=-O2 %s %t.O2 -- --time-unit=B --detailed-freq=2
// RUN: %conform %s %t.heap-admin -- --time-unit=B --heap-admin=0 --depth=3
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>

typedef struct {
  char *Base;
  size_t Used, Cap;
} Pool;

static void poolInit(Pool *P, size_t Cap) {
  P->Base = malloc(Cap);
  P->Used = 16; // a header: no object shares the chunk's address
  P->Cap = Cap;
}

__attribute__((noinline)) static void *poolAlloc(Pool *P, size_t N) {
  size_t Rounded = (N + 15) & ~(size_t)15;
  if (P->Used + Rounded > P->Cap)
    return NULL;
  char *R = P->Base + P->Used;
  P->Used += Rounded;
  VALGRIND_MALLOCLIKE_BLOCK(R, N, 0, 0);
  return R;
}

__attribute__((noinline)) static void poolFree(void *X) {
  VALGRIND_FREELIKE_BLOCK(X, 0);
}

__attribute__((noinline)) static void poolResize(void *X, size_t Old,
                                                 size_t New) {
  VALGRIND_RESIZEINPLACE_BLOCK(X, Old, New, 0);
}

__attribute__((noinline)) static char *makeName(Pool *P, const char *S) {
  char *N = poolAlloc(P, strlen(S) + 1);
  strcpy(N, S);
  return N;
}

__attribute__((noinline)) static int *makeTable(Pool *P, int Count) {
  return poolAlloc(P, Count * sizeof(int));
}

int main(void) {
  Pool P;
  poolInit(&P, 64 * 1024);
  char *Names[8];
  for (int I = 0; I < 8; I++)
    Names[I] = makeName(&P, I % 2 ? "a longer name for odd ones" : "short");
  int *Table = makeTable(&P, 500);
  int *Small = makeTable(&P, 10);
  poolResize(Table, 2000, 4000); // Massif only records: nothing is checked
  poolFree(Names[3]);
  poolFree(Names[4]);
  poolResize(Small, 40, 8); // shrinks
  void *Heap = malloc(3000); // an ordinary block among the pool's
  poolFree(Table);
  poolFree((char *)Heap + 1); // unknown to both: ignored
  for (int I = 0; I < 8; I++)
    if (I != 3 && I != 4)
      poolFree(Names[I]);
  poolFree(Small);
  free(Heap);
  free(P.Base);
  return RUNNING_ON_VALGRIND ? 0 : 0;
}
