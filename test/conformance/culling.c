// Culling: far more events than --max-snapshots, with irregular sizes so the
// minimum-interval rule matters.
// RUN: %conform %s %t.10 -- --time-unit=B --max-snapshots=10
// RUN: %conform %s %t.11 -- --time-unit=B --max-snapshots=11
// RUN: %conform %s %t.100 -- --time-unit=B
#include <stdlib.h>

static void *keep[400];

int main(void) {
  unsigned x = 12345;
  for (int i = 0; i < 400; i++) {
    x = x * 1103515245u + 12345u;
    keep[i] = malloc(16 + (x >> 16) % 3000);
    if (i % 7 == 6) {
      free(keep[i - 3]);
      keep[i - 3] = 0;
    }
  }
  for (int i = 0; i < 400; i++)
    free(keep[i]);
  return 0;
}
