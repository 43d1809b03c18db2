/* A C program for static linking: the heap through malloc, strdup, stdio
 * and a thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *work(void *Arg) {
  (void)Arg;
  return malloc(3000); /* the thread's (a tail call: no frame of work), freed by main */
}

int main(void) {
  char *A = malloc(1000);
  strcpy(A, "static");
  char *B = strdup(A);
  pthread_t T;
  void *C;
  pthread_create(&T, NULL, work, NULL);
  pthread_join(T, &C);
  printf("%s %s\n", A, B);
  free(C);
  free(B);
  free(A);
  return 3;
}
