// Calls the library's descent, linked (-DOPEN=0) or through dlopen (the
// library's path in argv[1]); with -DOPEN=2 the library is opened and
// closed 300 times first, and the descent runs in the last opening.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#if !OPEN
int descend(int N);
#endif

int main(int Argc, char **Argv) {
  int (*Descend)(int);
#if OPEN
#if OPEN == 2
  for (int I = 0; I < 300; ++I) {
    void *Again = dlopen(Argv[1], RTLD_NOW);
    if (!Again || dlclose(Again) != 0)
      return 1;
  }
#endif
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
