// Frees and reallocs that glibc aborts the program for, answered as
// Massif's allocator answers them: a second free is ignored; a realloc of
// a freed block, of an address inside a block or of a global returns NULL
// (errno ENOMEM) and changes nothing; realloc(freed, 0) is a second free;
// malloc_usable_size of such an address is 0. The program goes on and
// the profile is whole. The second run does the same in a thread, once the
// process has threads (the runtime then batches its events).
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1
// RUN: %conform --cflags="-O0 -pthread" --args=thread %s %t.t -- --time-unit=B --detailed-freq=1
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char Global[64];

static void *misuse(void *Arg) {
  (void)Arg;
  char *P = malloc(100), *Q = malloc(200);
  free(P);
  free(P); // a second free
  errno = 0;
  char *R = realloc(P, 300); // a freed block
  printf("realloc(freed): %s, errno %s\n", R ? "a block" : "NULL",
         errno == ENOMEM ? "ENOMEM" : "other");
  errno = 0;
  R = realloc(Q + 16, 300); // inside a block
  printf("realloc(inside): %s, errno %s\n", R ? "a block" : "NULL",
         errno == ENOMEM ? "ENOMEM" : "other");
  R = realloc(Global, 10); // not the heap
  printf("realloc(global): %s\n", R ? "a block" : "NULL");
  R = realloc(P, 0); // a second free, through realloc
  printf("realloc(freed, 0): %s\n", R ? "a block" : "NULL");
  printf("usable(freed) %zu, usable(inside) %zu\n", malloc_usable_size(P),
         malloc_usable_size(Q + 16));
  Q = realloc(Q, 400); // still live, still movable
  memset(Q, 1, 400);
  free(Q);
  return malloc(50); // kept
}

int main(int argc, char **argv) {
  void *Kept;
  if (argc > 1) {
    pthread_t T;
    if (pthread_create(&T, NULL, misuse, NULL) != 0 ||
        pthread_join(T, &Kept) != 0)
      return 1;
  } else {
    Kept = misuse(NULL);
  }
  free(malloc(1000));
  printf("done\n");
  return Kept ? 0 : 1;
}
