// --alloc-fn strips only a contiguous run of frames at the top of the stack.
// RUN: %conform %s %t.none -- --time-unit=B --detailed-freq=1
// RUN: %conform %s %t.one -- --time-unit=B --detailed-freq=1 --alloc-fn=w1
// RUN: %conform %s %t.two -- --time-unit=B --detailed-freq=1 --alloc-fn=w1 --alloc-fn=w2
// RUN: %conform %s %t.gap -- --time-unit=B --detailed-freq=1 --alloc-fn=w2
// RUN: %conform %s %t.main -- --time-unit=B --detailed-freq=1 --alloc-fn=w1 --alloc-fn=w2 --alloc-fn=main
#include <stdlib.h>

void *w1(size_t n) { return malloc(n); }
void *w2(size_t n) { return w1(n); }
void *user_a(void) { return w2(100); }
void *user_b(void) { return w1(200); }

int main(void) {
  void *p = user_a();
  void *q = user_b();
  void *r = w2(300);
  free(p);
  free(q);
  free(r);
  return 0;
}
