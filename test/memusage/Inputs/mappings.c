// The mmap family, for memusage -m: anonymous, read-only and writable file
// mappings, mremap growing, shrinking and moving, munmap, and calls that
// fail.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
  const size_t Page = 4096;
  char Path[] = "/tmp/ms_memusage-mappings-XXXXXX";
  int Fd = mkstemp(Path);
  if (Fd < 0 || ftruncate(Fd, 8 * Page) != 0)
    return 1;
  unlink(Path);
  char *Anon = mmap(NULL, 16 * Page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *Read = mmap(NULL, 8 * Page, PROT_READ, MAP_PRIVATE, Fd, 0);
  char *Write = mmap(NULL, 4 * Page, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  if (Anon == MAP_FAILED || Read == MAP_FAILED || Write == MAP_FAILED)
    return 2;
  Anon[0] = Write[0] = 1;
  char *Grown = mremap(Anon, 16 * Page, 32 * Page, MREMAP_MAYMOVE);
  char *Shrunk = mremap(Grown, 32 * Page, 8 * Page, 0);
  char *Moved = mremap(Shrunk, 8 * Page, 64 * Page, MREMAP_MAYMOVE);
  if (Grown == MAP_FAILED || Shrunk == MAP_FAILED || Moved == MAP_FAILED)
    return 3;
  // Failures: a bad descriptor, an unaligned unmap.
  if (mmap(NULL, Page, PROT_READ, MAP_PRIVATE, 12345, 0) != MAP_FAILED)
    return 4;
  if (munmap(Moved + 1, Page) == 0)
    return 5;
  void *Heap = malloc(300000); // glibc maps this itself: not a call of mmap
  free(Heap);
  munmap(Moved, 64 * Page);
  munmap(Read, 8 * Page);
  munmap(Write, 4 * Page);
  close(Fd);
  return 0;
}
