// glibc's own names for its allocator (__libc_malloc and its relatives),
// which some programs call directly, are Valgrind's replacements too: the
// blocks are recorded, reallocated and freed through them as through
// malloc, and a block from one family may be freed through the other.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void *__libc_valloc(size_t);
void __libc_free(void *);

int main(void) {
  char *A = __libc_malloc(500);
  memset(A, 1, 500);
  A = __libc_realloc(A, 5000);
  if (!A || A[499] != 1)
    return 1;
  char *B = __libc_calloc(10, 30);
  char *C = __libc_memalign(64, 100);
  char *D = __libc_valloc(100);
  char *E = malloc(70);
  free(A);          // a __libc_malloc block through free
  __libc_free(E);   // a malloc block through __libc_free
  __libc_free(B);
  free(C);
  __libc_free(D);
  return 0;
}
