// malloc_usable_size: Massif answers the requested bytes plus its slop. The
// runtime answers the same but never more than glibc's real usable size,
// so that a program trusting the answer stays within its block; this
// intended difference is checked on its own: native = min(Massif, glibc)
// for every size, and the two differ for some. The profiles, where the
// calls leave no trace, must be equal.
// RUN: %conform --args=quiet %s %t -- --time-unit=B --detailed-freq=1
// RUN: cd %t/vg && %valgrind -q --tool=massif --massif-out-file=/dev/null ./prog > massif-sizes
// RUN: cd %t/vg && ./prog > glibc-sizes
// RUN: cd %t/native && env MASSIF_OPTIONS=--massif-out-file=/dev/null ./prog > native-sizes
// RUN: %python -c "import sys; m, g, n = [[int(x) for x in open(f).read().split()] for f in sys.argv[1:]]; sys.exit(not (len(m) == len(g) == len(n) == 7 and n == [min(a, b) for a, b in zip(m, g)] and m != g))" %t/vg/massif-sizes %t/vg/glibc-sizes %t/native/native-sizes
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

static int quiet;

static void say(size_t v) {
  char buf[32], digits[24];
  int n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (int i = 0; i < n; i++)
    buf[i] = digits[n - 1 - i];
  buf[n] = '\n';
  if (!quiet)
    (void)!write(1, buf, (size_t)n + 1);
}

static void *keep[8];

int main(int argc, char **argv) {
  (void)argv;
  quiet = argc > 1;
  static const size_t sizes[] = {1, 8, 17, 24, 100, 1000};
  for (int i = 0; i < 6; i++) {
    keep[i] = malloc(sizes[i]);
    say(malloc_usable_size(keep[i]));
  }
  say(malloc_usable_size(NULL));
  for (int i = 0; i < 6; i++)
    free(keep[i]);
  return 0;
}
