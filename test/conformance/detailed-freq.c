// --detailed-freq=1 makes every snapshot detailed, the start-up one too;
// a peak restarts the count.
// RUN: %conform %s %t.1 -- --time-unit=B --detailed-freq=1
// RUN: %conform %s %t.4 -- --time-unit=B --detailed-freq=4
#include <stdlib.h>

void *site_a(size_t n) { return malloc(n); }
void *site_b(size_t n) { return malloc(n); }

int main(void) {
  void *a[20];
  for (int i = 0; i < 20; i++)
    a[i] = (i & 1) ? site_a(100 * i + 8) : site_b(50 * i + 16);
  for (int i = 0; i < 20; i += 3)
    free(a[i]);
  return 0;
}
