// --pages-as-heap=yes on the VEX engine: every page the program maps,
// remaps, unmaps or reaches with the break is a block charged to the
// call that made it, as under Massif; the start-up mappings too. The
// massif.out files must equal Valgrind's, line for line.
// RUN: %vexconform %s %t.b -- --pages-as-heap=yes --time-unit=B --detailed-freq=1 --threshold=0
// RUN: %vexconform %s %t.i -- --pages-as-heap=yes --detailed-freq=2
// RUN: %vexconform %s %t.d -- --pages-as-heap=yes --time-unit=B --depth=2 --peak-inaccuracy=0
// RUN: %vexconform %s %t.ign -- --pages-as-heap=yes --time-unit=B --ignore-fn=grow_break
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { Page = 4096 };

__attribute__((noinline)) static char *map_pages(size_t n) {
  char *p = mmap(0, n * Page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? 0 : p;
}

__attribute__((noinline)) static char *grow(char *p, size_t from, size_t to) {
  char *q = mremap(p, from * Page, to * Page, MREMAP_MAYMOVE);
  return q == MAP_FAILED ? 0 : q;
}

__attribute__((noinline)) static void grow_break(long bytes) { sbrk(bytes); }

int main(void) {
  char *a = map_pages(8);
  char *b = map_pages(3);
  memset(a, 1, 8 * Page);
  // Unmap the middle of a: the pages around it stay.
  munmap(a + 2 * Page, 3 * Page);
  // Grow b in place or by moving it, then shrink it.
  b = grow(b, 3, 40);
  b = grow(b, 40, 5);
  // The break moves by bytes; only whole new pages count.
  grow_break(100);
  grow_break(3 * Page);
  grow_break(10);
  grow_break(-(3 * Page + 110));
  // glibc's own mappings: a large block and the arena's top.
  void *big = malloc(1 << 20);
  void *small = malloc(100);
  free(big);
  free(small);
  munmap(a, 2 * Page);
  munmap(a + 5 * Page, 3 * Page);
  munmap(b, 5 * Page);
  return 0;
}
