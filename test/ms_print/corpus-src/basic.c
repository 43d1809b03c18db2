/* A few allocations from nested calls, freed in an order that makes a
   clear peak: the everyday shape of a Massif profile. */
#include <stdlib.h>
#include <string.h>

static void *keep[64];

static void *leaf(size_t n) {
  void *p = malloc(n);
  memset(p, 1, n);
  return p;
}

static void *middle(size_t n) { return leaf(n * 2); }

static void *outer(size_t n) { return middle(n + 16); }

int main(void) {
  int i;
  for (i = 0; i < 20; i++)
    keep[i] = outer((size_t)(i + 1) * 1000);
  for (i = 20; i < 40; i++)
    keep[i] = leaf(300);
  for (i = 0; i < 20; i += 2)
    free(keep[i]);
  for (i = 40; i < 60; i++)
    keep[i] = calloc(10, 100);
  for (i = 0; i < 60; i++)
    if (i % 2 || i >= 20)
      free(keep[i]);
  return 0;
}
