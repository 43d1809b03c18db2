// Peaks are only recorded before a deallocation, and only when the total
// beats the last recorded peak by more than --peak-inaccuracy percent.
// RUN: %conform %s %t.0 -- --time-unit=B --peak-inaccuracy=0
// RUN: %conform %s %t.1 -- --time-unit=B --peak-inaccuracy=1
// RUN: %conform %s %t.10 -- --time-unit=B --peak-inaccuracy=10
#include <stdlib.h>

int main(void) {
  void *a[50];
  for (int round = 0; round < 6; round++) {
    for (int i = 0; i < 50; i++)
      a[i] = malloc(1000 + round * 40 + i);
    for (int i = 0; i < 50; i++)
      free(a[i]);
  }
  return 0;
}
