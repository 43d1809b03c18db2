// Five allocation sites whose sizes the tests choose, for ms_diff: built
// once as the base and once as the new run with other sizes, the
// differences per site and of the peak are known exactly. A size of 0
// leaves its site out. All sizes are multiples of 16, so each block's
// extra-heap bytes are the same in every variant.
//
//   GROW    grow_site's block (a larger one in the new run)
//   SHRINK  shrink_site's block (a smaller one)
//   SAME    same_site's block (the same)
//   GONE    gone_site's block (the base only)
//   NEW     new_site's block (the new run only)
//
// The blocks stay live to the end; a temporary block of 8192 bytes, freed
// last, makes the peak the moment when all of them and it were live.
#include <stdlib.h>

#ifndef GROW
#define GROW 4096
#endif
#ifndef SHRINK
#define SHRINK 3072
#endif
#ifndef SAME
#define SAME 2048
#endif
#ifndef GONE
#define GONE 1024
#endif
#ifndef NEW
#define NEW 0
#endif

static void *Keep[5];

__attribute__((noinline)) void *grow_site(void) { return malloc(GROW); }
__attribute__((noinline)) void *shrink_site(void) { return malloc(SHRINK); }
__attribute__((noinline)) void *same_site(void) { return malloc(SAME); }
__attribute__((noinline)) void *gone_site(void) { return malloc(GONE); }
__attribute__((noinline)) void *new_site(void) { return malloc(NEW); }

int main(void) {
  Keep[0] = grow_site();
  Keep[1] = shrink_site();
  Keep[2] = same_site();
  if (GONE)
    Keep[3] = gone_site();
  if (NEW)
    Keep[4] = new_site();
  void *Temp = malloc(8192);
  free(Temp);
  return Keep[0] == 0;
}
