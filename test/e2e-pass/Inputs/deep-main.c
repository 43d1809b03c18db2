// Calls the library's descent, linked (-DOPEN=0) or through dlopen (the
// library's path in argv[1]).
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#if !OPEN
int descend(int N);
#endif

int main(int Argc, char **Argv) {
  int (*Descend)(int);
#if OPEN
  void *Lib = dlopen(Argv[1], RTLD_NOW);
  if (!Lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  Descend = (int (*)(int))dlsym(Lib, "descend");
#else
  (void)Argc;
  (void)Argv;
  Descend = descend;
#endif
  printf("%d\n", Descend(100));
  return 0;
}
