// Threads, one after another so that the count does not depend on the
// scheduler: each allocates at its own stack depth, in its own arena, and
// one lets a block it made outlive it.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static void *volatile Sink;

static void *work(void *Arg) {
  long N = (long)Arg;
  char Frame[1024];
  memset(Frame, (int)N, sizeof(Frame));
  Sink = Frame;
  void *Blocks[16];
  for (int I = 0; I < 16; ++I)
    Blocks[I] = malloc((size_t)(N + 1) * 100 * (I + 1));
  for (int I = 0; I < 16; ++I)
    if (I != (int)N)
      free(Blocks[I]);
  return Blocks[N];
}

int main(void) {
  void *Kept[4];
  for (long N = 0; N < 4; ++N) {
    pthread_t T;
    if (pthread_create(&T, NULL, work, (void *)N) != 0)
      return 1;
    pthread_join(T, &Kept[N]);
  }
  for (int N = 0; N < 4; ++N)
    free(Kept[N]);
  return 0;
}
