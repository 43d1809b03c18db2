// Every allocation function answers as glibc does, for every kind of
// argument: zero, huge and overflowing sizes, bad and huge alignments, NULL
// and live pointers, glibc's own __libc_* names, C++ operators in every
// form. The program prints each result (a block or NULL), errno and the
// alignment, and writes every byte it asked for; its output built with
// mscc must equal its output built with clang at the same -O level (at
// -O2 clang itself folds some of the calls). (glibc 2.36's aligned_alloc
// takes any alignment, as memalign does.)
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clangxx -O0 -w %s -o plain && ./plain > plain.txt
// RUN: %mscxx -O0 -w %s -o ms && ./ms > ms.txt
// RUN: diff plain.txt ms.txt
// RUN: %clangxx -O2 -w %s -o plain2 && ./plain2 > plain2.txt
// RUN: %mscxx -O2 -w %s -o ms2 && ./ms2 > ms2.txt
// RUN: diff plain2.txt ms2.txt
// RUN: %FileCheck %s < ms.txt
// CHECK: aligned_alloc(3, 10) block errno=0
// CHECK: __libc_memalign(64, 100) block errno=0 aligned16=1
#include <errno.h>
#include <initializer_list>
#include <malloc.h>
#include <new>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void *__libc_valloc(size_t);
void *__libc_pvalloc(size_t);
void __libc_free(void *);
}

static void report(const char *What, void *P, int Err, size_t Use) {
  printf("%s %s errno=%d", What, P ? "block" : "NULL", Err);
  if (P) {
    memset(P, 0xab, Use);
    printf(" aligned16=%d", (int)(((uintptr_t)P & 15) == 0));
  }
  printf("\n");
}

#define TRY(Expr, Use)                                                         \
  do {                                                                         \
    errno = 0;                                                                 \
    void *P = (Expr);                                                          \
    int E = errno;                                                             \
    char Buf[64];                                                              \
    snprintf(Buf, sizeof Buf, "%s", #Expr);                                    \
    report(Buf, P, E, P ? (Use) : 0);                                          \
  } while (0)

int main() {
  const size_t Huge = SIZE_MAX - 100, Half = SIZE_MAX / 2 + 1;
  TRY(malloc(0), 0);
  TRY(malloc(1), 1);
  TRY(malloc(Huge), 0);
  TRY(malloc(PTRDIFF_MAX), 0);
  TRY(calloc(0, 0), 0);
  TRY(calloc(3, 5), 15);
  TRY(calloc(Half, 2), 0);
  TRY(calloc(1, Huge), 0);
  TRY(realloc(NULL, 0), 0);
  TRY(realloc(NULL, 10), 10);
  TRY(realloc(malloc(10), 0), 0);
  TRY(realloc(malloc(10), 100), 100);
  TRY(realloc(malloc(10), Huge), 0);
  TRY(reallocarray(NULL, 3, 4), 12);
  TRY(reallocarray(NULL, Half, 2), 0);
  TRY(reallocarray(malloc(8), 0, 4), 0);
  TRY(memalign(0, 10), 10);
  TRY(memalign(1, 10), 10);
  TRY(memalign(3, 10), 10);
  TRY(memalign(24, 10), 10);
  TRY(memalign(64, 10), 10);
  TRY(memalign(Half, 10), 0);
  TRY(memalign(64, Huge), 0);
  TRY(aligned_alloc(0, 10), 10);
  TRY(aligned_alloc(1, 10), 10);
  TRY(aligned_alloc(3, 10), 10);
  TRY(aligned_alloc(16, 10), 10);
  TRY(aligned_alloc(24, 48), 48);
  TRY(aligned_alloc(64, 100), 100);
  TRY(aligned_alloc(Half, 10), 0);
  TRY(aligned_alloc(4096, 0), 0);
  TRY(__libc_malloc(0), 0);
  TRY(__libc_malloc(Huge), 0);
  TRY(__libc_calloc(Half, 2), 0);
  TRY(__libc_calloc(4, 4), 16);
  TRY(__libc_realloc(__libc_malloc(8), 64), 64);
  TRY(__libc_realloc(malloc(8), 0), 0);
  TRY(__libc_memalign(64, 100), 100);
  TRY(__libc_memalign(3, 100), 100);
  TRY(__libc_valloc(10), 10);
  TRY(__libc_pvalloc(10), 4096);
  TRY(valloc(0), 0);
  TRY(valloc(10), 10);
  TRY(valloc(Huge), 0);
  TRY(pvalloc(0), 0);
  TRY(pvalloc(10), 4096);
  TRY(pvalloc(Huge), 0);
  size_t Aligns[] = {0, 1, 3, 4, 8, 16, 24, 64, 4096, Half};
  size_t Sizes[] = {0, 10, Huge};
  for (size_t A : Aligns)
    for (size_t S : Sizes) {
      void *P = (void *)1;
      errno = 0;
      int R = posix_memalign(&P, A, S);
      int E = errno;
      printf("posix_memalign(%zu, %zu) = %d errno=%d out=%s\n", A, S, R, E,
             P == (void *)1 ? "unchanged" : P ? "block" : "NULL");
      if (R == 0 && P)
        memset(P, 1, S == 0 ? 0 : S);
    }
  for (size_t S : {(size_t)0, (size_t)10}) {
    void *P = operator new(S);
    printf("new(%zu) block\n", S);
    operator delete(P);
    P = operator new[](S);
    printf("new[](%zu) block\n", S);
    operator delete[](P, S);
  }
  try {
    void *P = operator new(Huge);
    printf("new(huge) %p\n", P);
  } catch (std::bad_alloc &) {
    printf("new(huge) bad_alloc\n");
  }
  printf("new(huge, nothrow) %s\n", operator new(Huge, std::nothrow) ? "block" : "NULL");
  printf("new[](huge, nothrow) %s\n", operator new[](Huge, std::nothrow) ? "block" : "NULL");
  for (size_t A : {(size_t)16, (size_t)64, (size_t)4096}) {
    void *P = operator new(100, std::align_val_t(A));
    printf("new(100, align %zu) aligned=%d\n", A, (int)((uintptr_t)P % A == 0));
    operator delete(P, std::align_val_t(A));
  }
  try {
    void *P = operator new(100, std::align_val_t(3));
    printf("new(100, align 3) %s\n", P ? "block" : "NULL");
  } catch (std::bad_alloc &) {
    printf("new(100, align 3) bad_alloc\n");
  }
  printf("new(huge, align 64, nothrow) %s\n",
         operator new(Huge, std::align_val_t(64), std::nothrow) ? "block" : "NULL");
  free(NULL);
  operator delete(nullptr);
  errno = 0;
  char *D = strdup("abc");
  printf("strdup %s errno=%d\n", D, errno);
  printf("strndup %s\n", strndup("abcdef", 3));
  printf("usable(NULL) %zu\n", malloc_usable_size(NULL));
  void *L = __libc_malloc(40);
  __libc_free(realloc(L, 4000));
  return 0;
}
