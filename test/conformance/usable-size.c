// malloc_usable_size: Massif answers the requested bytes plus its slop. The
// runtime answers the same but never more than glibc's real usable size,
// so that a program trusting the answer stays within its block; this
// intended difference is checked on its own: native = min(Massif, glibc)
// for every size, and the two differ for some. The profiles, where the
// calls leave no trace, must be equal, stdout's buffer included.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1
// RUN: cd %t/vg && %valgrind -q --tool=massif --massif-out-file=/dev/null ./prog sizes > massif-sizes
// RUN: cd %t/vg && ./prog sizes > glibc-sizes
// RUN: cd %t/native && env MASSIF_OPTIONS=--massif-out-file=/dev/null ./prog sizes > native-sizes
// RUN: %python -c "import sys; m, g, n = [[int(x) for x in open(f).read().split()] for f in sys.argv[1:]]; sys.exit(not (len(m) == len(g) == len(n) == 7 and n == [min(a, b) for a, b in zip(m, g)] and m != g))" %t/vg/massif-sizes %t/vg/glibc-sizes %t/native/native-sizes
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

static int sizes;

/// The answer itself, or (in the profiled comparison, where the answers
/// differ on purpose) whether it covers the request.
static void say(size_t usable, size_t requested) {
  if (sizes)
    printf("%zu\n", usable);
  else
    printf("%s\n", usable >= requested ? "covers" : "short");
}

static void *keep[8];

int main(int argc, char **argv) {
  (void)argv;
  sizes = argc > 1;
  static const size_t requests[] = {1, 8, 17, 24, 100, 1000};
  for (int i = 0; i < 6; i++) {
    keep[i] = malloc(requests[i]);
    say(malloc_usable_size(keep[i]), requests[i]);
  }
  say(malloc_usable_size(NULL), 0);
  for (int i = 0; i < 6; i++)
    free(keep[i]);
  return 0;
}
