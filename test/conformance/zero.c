// Zero-size blocks are real blocks: admin bytes, a snapshot each.
// RUN: %conform %s %t.a -- --time-unit=B
// RUN: %conform %s %t.b -- --time-unit=B --heap-admin=0 --threshold=0
#include <stdlib.h>

int main(void) {
  void *a[12];
  for (int i = 0; i < 12; i++)
    a[i] = malloc(0);
  for (int i = 0; i < 12; i++)
    free(a[i]);
  return 0;
}
