// A program that opens zlib with dlopen, uses it and closes it: the
// dynamic linker's own allocations for the new object (its link map, its
// scope, its search path) are the program's, and Massif shows them. They
// come out the same only if the program's link map is its own: when the
// runtime loaded elfutils and zlib into every program, zlib was already
// there and the loader allocated nothing (8 snapshots and a 1,120 B peak
// against Massif's 20 and 5,202 B).
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
#include <dlfcn.h>
#include <stdio.h>

int main(void) {
  void *Lib = dlopen("libz.so.1", RTLD_NOW);
  if (!Lib) {
    printf("no zlib: %s\n", dlerror());
    return 1;
  }
  const char *(*Version)(void) =
      (const char *(*)(void))dlsym(Lib, "zlibVersion");
  printf("zlib %s\n", Version ? Version() : "?");
  dlclose(Lib);
  return 0;
}
