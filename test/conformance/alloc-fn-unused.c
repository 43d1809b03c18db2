// An --alloc-fn (and an --ignore-fn) that names functions the program never
// calls, or that do not exist, changes nothing.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --alloc-fn=never_called --alloc-fn=no_such_function --ignore-fn=nor_this
#include <stdlib.h>

static void *keep[4];

__attribute__((noinline)) void *never_called(size_t n) { return malloc(n); }
__attribute__((noinline)) void *used(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  (void)argv;
  keep[0] = used(400);
  keep[1] = malloc(100);
  if (argc > 5)
    keep[2] = never_called(1);
  free(keep[0]);
  free(keep[1]);
  return 0;
}
