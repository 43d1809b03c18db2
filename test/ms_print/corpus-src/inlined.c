/* Allocation sites inside functions inlined into their callers, built
   with -O2, so trees show chains of inlined frames at one address. The
   counter updates after each call keep the calls out of tail position. */
#include <stdlib.h>

static void *volatile sink[16];
static volatile int calls;

static inline __attribute__((always_inline)) void *grab(size_t n) {
  void *p = malloc(n);
  calls++;
  return p;
}
static inline __attribute__((always_inline)) void *twice(size_t n) {
  void *p = grab(n * 2);
  calls++;
  return p;
}
__attribute__((noinline)) static void outer_a(int i, size_t n) {
  sink[i] = twice(n);
  calls++;
}
__attribute__((noinline)) static void outer_b(int i, size_t n) {
  sink[i] = grab(n + 1);
  calls++;
}

int main(void) {
  int i;
  for (i = 0; i < 8; i++)
    outer_a(i, (size_t)(i + 1) * 512);
  for (i = 8; i < 16; i++)
    outer_b(i, (size_t)(i + 1) * 128);
  for (i = 0; i < 16; i++)
    free(sink[i]);
  return 0;
}
