// Prints the objects loaded into the process, one a line (the executable
// and the vDSO, which have no file name, left out), at the end of main and
// again in an exit handler: the runtime has named frames by then if it had
// to (with --alloc-fn it names them during the run).
#define _GNU_SOURCE
#include <link.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

static int print(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  if (Info->dlpi_name[0] && !strstr(Info->dlpi_name, "linux-vdso"))
    printf("%s: %s\n", (const char *)Data, Info->dlpi_name);
  return 0;
}

static void atExit(void) {
  fflush(stdout);
  dl_iterate_phdr(print, "exit");
  fflush(stdout);
}

void *volatile Keep;

__attribute__((noinline)) void *allocator(size_t N) { return malloc(N); }

int main(void) {
  atexit(atExit);
  for (int I = 0; I < 10; ++I)
    Keep = allocator(100 + I);
  dl_iterate_phdr(print, "main");
  return 0;
}
