/* arena.c - performs a scripted sequence of allocator calls and reports
 * where each block landed.
 *
 * Part of massif-native, under the MIT licence.
 *
 * Used to record what Valgrind's own allocator does under Massif
 * (regenerate.sh runs it under valgrind --tool=massif), so that the core's
 * unit tests can replay the same calls into the model's simulation of that
 * allocator (ClientArena) and require the same addresses and usable sizes.
 * The script (argv[1]) has one call per line:
 *
 *   a <slot> <size>            p[slot] = malloc(size)
 *   c <slot> <count> <size>    p[slot] = calloc(count, size)
 *   m <slot> <align> <size>    p[slot] = memalign(align, size)
 *   p <slot> <align> <size>    posix_memalign(&p[slot], align, size)
 *   l <slot> <align> <size>    p[slot] = aligned_alloc(align, size)
 *   v <slot> <size>            p[slot] = valloc(size)
 *   r <slot> <size>            p[slot] = realloc(p[slot], size)
 *   f <slot>                   free(p[slot]); p[slot] = 0
 *
 * For every line it writes the line back followed by the block's address
 * in hex and its usable size (malloc_usable_size), or "0 0" when the call
 * gave no block. The program itself must not allocate: the script is read
 * with read(2) into a static buffer and output is written with write(2).
 */
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#define NUM_SLOTS 8192

static void *Slots[NUM_SLOTS];
static char Script[4 << 20];
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

static void putNum(unsigned long V, unsigned Base) {
  char Tmp[24];
  int N = 0;
  do {
    Tmp[N++] = "0123456789abcdef"[V % Base];
    V /= Base;
  } while (V);
  while (N)
    putChar(Tmp[--N]);
}

static const char *readNum(const char *P, unsigned long *V) {
  while (*P == ' ')
    ++P;
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
    const char *Line = P;
    char Op = *P++;
    unsigned long Slot = 0, X = 0, Y = 0;
    P = readNum(P, &Slot);
    if (Op != 'f')
      P = readNum(P, &X);
    if (Op == 'c' || Op == 'm' || Op == 'p' || Op == 'l')
      P = readNum(P, &Y);
    const char *End = P;
    while (*P && *P != '\n')
      ++P;
    if (*P)
      ++P;
    if (Slot >= NUM_SLOTS)
      return 2;
    void *Q = 0;
    switch (Op) {
    case 'a':
      Q = malloc(X);
      break;
    case 'c':
      Q = calloc(X, Y);
      break;
    case 'm':
      Q = memalign(X, Y);
      break;
    case 'p':
      if (posix_memalign(&Q, X, Y) != 0)
        Q = 0;
      break;
    case 'l':
      Q = aligned_alloc(X, Y);
      break;
    case 'v':
      Q = valloc(X);
      break;
    case 'r':
      Q = realloc(Slots[Slot], X);
      if (!Q && X != 0)
        return 4; /* the old block would still be live */
      break;
    case 'f':
      free(Slots[Slot]);
      break;
    default:
      return 2;
    }
    Slots[Slot] = Q;
    for (const char *C = Line; C < End; ++C)
      putChar(*C);
    if (Op != 'f') {
      putChar(' ');
      putNum((unsigned long)Q, 16);
      putChar(' ');
      putNum(Q ? malloc_usable_size(Q) : 0, 10);
    }
    putChar('\n');
  }
  flushOut();
  return 0;
}
