// Up then down: the manual's example shape with a second wave, so the run
// has several detailed snapshots, a peak and a descent.
// RUN: %conform %s %t.b -- --time-unit=B
// RUN: %conform %s %t.d -- --time-unit=B --detailed-freq=3
#include <stdlib.h>

static void *keep[64];

void *leaf(size_t n) { return malloc(n); }
void *mid(size_t n) { return leaf(n); }

int main(void) {
  for (int i = 0; i < 40; i++)
    keep[i] = (i % 3) ? leaf(100 + 10 * i) : mid(2000);
  for (int i = 0; i < 40; i += 2) {
    free(keep[i]);
    keep[i] = 0;
  }
  for (int i = 0; i < 20; i++)
    keep[40 + i] = malloc(64);
  for (int i = 0; i < 60; i++)
    free(keep[i]);
  return 0;
}
