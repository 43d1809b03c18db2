// A plugin that allocates when it is loaded, when called and when it is
// unloaded, for the dlclose scenario of scenarios.c.
#include <stdlib.h>

static void *Held;

__attribute__((constructor)) static void load(void) { Held = malloc(300); }
__attribute__((destructor)) static void unload(void) { free(Held); }

void *plugin_make(int N) { return calloc((size_t)N, 8); }
