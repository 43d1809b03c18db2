/* Thousands of short-lived blocks of varying sizes, with realloc growth
   and shrinking: many snapshots, culling, and frequent peaks. */
#include <stdlib.h>

static void *slots[256];

int main(void) {
  unsigned seed = 12345;
  int i;
  for (i = 0; i < 6000; i++) {
    int k;
    seed = seed * 1103515245u + 12345u;
    k = (int)((seed >> 8) % 256);
    if (slots[k]) {
      if (seed & 0x10000)
        slots[k] = realloc(slots[k], (seed >> 4) % 5000 + 1);
      else {
        free(slots[k]);
        slots[k] = 0;
      }
    } else {
      slots[k] = malloc((seed >> 12) % 3000 + 1);
    }
  }
  for (i = 0; i < 256; i++)
    free(slots[i]);
  return 0;
}
