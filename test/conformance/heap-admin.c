// --heap-admin is charged per block, whatever its size.
// RUN: %conform %s %t.0 -- --time-unit=B --heap-admin=0
// RUN: %conform %s %t.16 -- --time-unit=B --heap-admin=16
// RUN: %conform %s %t.128 -- --time-unit=B --heap-admin=128
#include <stdlib.h>

int main(void) {
  void *a[30];
  for (int i = 0; i < 30; i++)
    a[i] = malloc(1 + i * 7);
  for (int i = 0; i < 30; i++)
    free(a[i]);
  return 0;
}
