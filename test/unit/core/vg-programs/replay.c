/* replay.c - performs a scripted sequence of heap operations.
 *
 * Part of massif-native, under the MIT licence.
 *
 * Used to record Massif's real behaviour (regenerate.sh runs it under
 * valgrind --tool=massif) so that the core's unit tests can replay the very
 * same sequence into the model and require the same massif.out. The script
 * (argv[1]) has one operation per line:
 *
 *   a <slot> <size> <site>    p[slot] = malloc(size), called from asite<site>
 *   r <slot> <size> <site>    p[slot] = realloc(p[slot], size), from rsite<site>
 *   f <slot>                  free(p[slot]); p[slot] = 0
 *
 * Site s calls malloc/realloc in the leaf function asite<s % 6> or
 * rsite<s % 6>, reached from main through dispatch and group<s / 6>: six
 * leaves with four callers each, so the printed trees branch at two
 * levels. For every
 * operation one line goes to stdout: the operation and, for a and r, the
 * usable size Valgrind's allocator gave minus the size asked (the slop).
 *
 * The program itself must not allocate: the script is read with read(2)
 * into a static buffer and output is written with write(2).
 */
#include <malloc.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define NUM_SLOTS 4096

static void *Slots[NUM_SLOTS];
static char Script[1 << 20];
static char Out[1 << 16];
static unsigned OutLen;

static void flushOut(void) {
  unsigned Done = 0;
  while (Done < OutLen) {
    ssize_t N = write(1, Out + Done, OutLen - Done);
    if (N <= 0)
      _exit(3);
    Done += (unsigned)N;
  }
  OutLen = 0;
}

static void putChar(char C) {
  if (OutLen == sizeof(Out))
    flushOut();
  Out[OutLen++] = C;
}

static void putNum(unsigned long V) {
  char Tmp[24];
  int N = 0;
  do {
    Tmp[N++] = (char)('0' + V % 10);
    V /= 10;
  } while (V);
  while (N)
    putChar(Tmp[--N]);
}

#define LEAF(L)                                                                \
  NOINLINE void *asite##L(unsigned long N) { return malloc(N); }              \
  NOINLINE void *rsite##L(void *P, unsigned long N) { return realloc(P, N); }
LEAF(0) LEAF(1) LEAF(2) LEAF(3) LEAF(4) LEAF(5)

#define CASE(L)                                                                \
  case L:                                                                      \
    return Old ? rsite##L(*Old, N) : asite##L(N);
#define GROUP(G)                                                               \
  NOINLINE void *group##G(int Leaf, void **Old, unsigned long N) {             \
    switch (Leaf) { CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) }          \
    return 0;                                                                  \
  }
GROUP(0) GROUP(1) GROUP(2) GROUP(3)

static void *dispatch(int Site, void **Old, unsigned long N) {
  switch (Site / 6) {
  case 0:
    return group0(Site % 6, Old, N);
  case 1:
    return group1(Site % 6, Old, N);
  case 2:
    return group2(Site % 6, Old, N);
  default:
    return group3(Site % 6, Old, N);
  }
}

static const char *skipBlanks(const char *P) {
  while (*P == ' ')
    ++P;
  return P;
}

static const char *readNum(const char *P, unsigned long *V) {
  P = skipBlanks(P);
  *V = 0;
  while (*P >= '0' && *P <= '9')
    *V = *V * 10 + (unsigned long)(*P++ - '0');
  return P;
}

int main(int Argc, char **Argv) {
  if (Argc < 2)
    return 2;
  int Fd = open(Argv[1], O_RDONLY);
  if (Fd < 0)
    return 2;
  long Len = 0, N;
  while ((N = read(Fd, Script + Len, sizeof(Script) - 1 - Len)) > 0)
    Len += N;
  close(Fd);
  Script[Len] = 0;

  for (const char *P = Script; *P;) {
    char Op = *P++;
    unsigned long Slot = 0, Size = 0, Site = 0;
    P = readNum(P, &Slot);
    if (Op == 'a' || Op == 'r') {
      P = readNum(P, &Size);
      P = readNum(P, &Site);
    }
    while (*P && *P != '\n')
      ++P;
    if (*P)
      ++P;
    if (Slot >= NUM_SLOTS || Site > 23)
      return 2;
    putChar(Op);
    putChar(' ');
    putNum(Slot);
    if (Op == 'f') {
      free(Slots[Slot]);
      Slots[Slot] = 0;
    } else if (Op == 'a' || Op == 'r') {
      void *Q = dispatch((int)Site, Op == 'r' ? &Slots[Slot] : 0, Size);
      if (Op == 'a' || Q || Size != 0)
        Slots[Slot] = Q;
      else
        Slots[Slot] = 0; /* realloc(p, 0) freed p */
      putChar(' ');
      putNum(Size);
      putChar(' ');
      putNum(Site);
      putChar(' ');
      putNum(Q ? malloc_usable_size(Q) - Size : 0);
    } else {
      return 2;
    }
    putChar('\n');
  }
  flushOut();
  return 0;
}
