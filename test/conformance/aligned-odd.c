// memalign and aligned_alloc with the alignments glibc takes and rounds:
// 0 and 1 (Massif's allocator makes them 16, whatever --alignment says),
// 3, 24 and 48 (rounded up to a power of two), and 128.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
// RUN: %conform %s %t.a64 -- --time-unit=B --detailed-freq=1 --threshold=0 --alignment=64
#include <malloc.h>
#include <stdlib.h>

static void *Keep[12];

int main(void) {
  size_t Aligns[] = {0, 1, 3, 24, 48, 128};
  for (int I = 0; I < 6; ++I) {
    Keep[I] = memalign(Aligns[I], 100 + I);
    Keep[6 + I] = aligned_alloc(Aligns[I], 200 + I);
  }
  for (int I = 0; I < 12; I += 2)
    free(Keep[I]);
  for (int I = 1; I < 12; I += 2)
    free(Keep[I]);
  return 0;
}
