// A plugin for dlclose.c: allocates blocks it never frees, then is
// unloaded before the profile is written.
#include <stdlib.h>

static void *Kept[16];
static int NumKept;

__attribute__((noinline)) static void plugin_keep(int N) {
  Kept[NumKept++] = malloc((size_t)N * 400);
}

void plugin_run(int N) {
  for (int I = 1; I <= N; I++)
    plugin_keep(I);
}
