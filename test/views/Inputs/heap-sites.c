// heaptrack's questions, each with a clear answer, for the site
// statistics views (sites-programs.test, html-sites.test) and ms_diff's
// tests: scratch() makes 200 temporary allocations (each freed before the
// next allocation), push() 50 small blocks kept until the end, dup() (an
// inlined call) four copies of a string, a 100,000-byte block is freed at
// once (temporary too), and leak() leaves two blocks of 3,000 bytes
// behind. -DSCRATCH=N and -DLEAKS=N change how many.
#include <stdlib.h>
#include <string.h>

#ifndef SCRATCH
#define SCRATCH 200
#endif
#ifndef LEAKS
#define LEAKS 2
#endif

static inline __attribute__((always_inline)) char *dup(const char *S) {
  size_t N = strlen(S) + 1;
  char *P = malloc(N);
  memcpy(P, S, N);
  return P;
}

static void scratch(int I) {
  volatile char *P = malloc(64 + I % 16);
  P[0] = 1;
  free((void *)P);
}

struct node {
  struct node *Next;
  char Pad[24];
};

static struct node *push(struct node *L) {
  struct node *N = malloc(sizeof *N);
  N->Next = L;
  return N;
}

static void *Kept[16];

static void leak(int I) {
  volatile char *P = malloc(3000);
  P[0] = 1;
  Kept[I % 16] = (void *)P; // still live at the end
}

int main(void) {
  struct node *L = 0;
  for (int I = 0; I < SCRATCH; I++)
    scratch(I);
  for (int I = 0; I < 50; I++)
    L = push(L);
  char *Names[4];
  for (int I = 0; I < 4; I++)
    Names[I] = dup("a name of some length");
  volatile char *Big = malloc(100000);
  Big[0] = 1;
  free((void *)Big);
  for (int I = 0; I < LEAKS; I++)
    leak(I);
  for (int I = 0; I < 4; I++)
    free(Names[I]);
  while (L) {
    struct node *N = L->Next;
    free(L);
    L = N;
  }
  return 0;
}
