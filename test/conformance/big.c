// Big blocks (Valgrind gives them page-rounded superblocks) and a run whose
// time in bytes passes 2^32.
// RUN: %conform %s %t -- --time-unit=B
#include <stdlib.h>
#include <string.h>

int main(void) {
  void *keep = malloc(64 << 20);
  for (int i = 0; i < 220; i++) {
    void *p = malloc((10 << 20) + i * 4096 + 3);
    free(p);
  }
  free(keep);
  return 0;
}
