// A shared library whose constructor allocates: ld.so's _dl_init runs it
// before the program's own constructors (global-ctors-lib.c).
#include <stdlib.h>

static void *Kept[3];

// Not a tail call at -O2: the frame stays.
__attribute__((noinline)) void *ctorlib_grab(size_t n) {
  char *P = malloc(n);
  if (P)
    *P = 1;
  return P;
}

__attribute__((constructor)) static void ctorlib_init(void) {
  Kept[0] = ctorlib_grab(500);
  Kept[1] = calloc(3, 100);
}

__attribute__((destructor)) static void ctorlib_fini(void) { free(Kept[1]); }

void *ctorlib_kept(int I) { return Kept[I]; }
