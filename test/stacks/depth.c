// Recursion deeper than --depth: the stack is captured down to main and
// beyond (--depth + 50 frames at most, as Massif), and cut at --depth
// frames; entries differing only below the cut merge as in Massif.
// RUN: %stacks %s %t.4 -- --time-unit=B --detailed-freq=1 --depth=4
// RUN: %stacks %s %t.30 -- --time-unit=B --detailed-freq=1
// RUN: %stacks %s %t.200 -- --time-unit=B --detailed-freq=1 --depth=200
// RUN: %FileCheck %s < %t.4/native-last.txt
#include <stdlib.h>

static void *Kept[4];

__attribute__((noinline)) static void *recurse(int N, size_t Size) {
  void *P = N == 0 ? malloc(Size) : recurse(N - 1, Size);
  __asm__ volatile("" ::: "memory");
  return P;
}

int main(void) {
  Kept[0] = recurse(10, 100);
  Kept[1] = recurse(60, 200);
  Kept[2] = recurse(240, 300); // beyond --depth + 50 frames
  Kept[3] = recurse(2, 400);
  return 0;
}

// Cut at four frames, the three deep recursions merge below the fourth:
// CHECK:      (1,000B) 0x{{.*}}: recurse ({{.*}}depth.c:13)
// CHECK-NEXT: (1,000B) 0x{{.*}}: recurse ({{.*}}depth.c:13)
// CHECK-NEXT: (1,000B) 0x{{.*}}: recurse ({{.*}}depth.c:13)
// CHECK-NEXT: (600B) 0x{{.*}}: recurse ({{.*}}depth.c:13)
// CHECK-NOT:  recurse
// CHECK:      (400B) 0x{{.*}}: main ({{.*}}depth.c:22)
