// Prints the file name of every object loaded into the process, in the
// dynamic linker's order, and whether malloc_usable_size sees glibc's own
// block for a request (memusage's header would change it).
#define _GNU_SOURCE
#include <link.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int printObject(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  (void)Data;
  const char *Slash = strrchr(Info->dlpi_name, '/');
  printf("object %s\n", Slash ? Slash + 1 : Info->dlpi_name);
  return 0;
}

int main(void) {
  dl_iterate_phdr(printObject, NULL);
  void *P = malloc(24);
  printf("usable %zu\n", malloc_usable_size(P));
  free(P);
  return 0;
}
