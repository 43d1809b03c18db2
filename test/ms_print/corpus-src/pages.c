/* mmap and munmap of whole pages, for --pages-as-heap=yes profiles. */
#include <stdlib.h>
#include <sys/mman.h>

int main(void) {
  void *maps[8];
  int i;
  for (i = 0; i < 8; i++)
    maps[i] = mmap(0, (size_t)(i + 1) * 65536, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  void *p = malloc(200000);
  for (i = 0; i < 8; i += 2)
    munmap(maps[i], (size_t)(i + 1) * 65536);
  free(p);
  return 0;
}
