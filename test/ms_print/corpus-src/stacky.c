/* Deep recursion with large frames, for --stacks=yes profiles. */
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static int burn(int depth) {
  volatile char frame[2048];
  memset((char *)frame, depth, sizeof frame);
  if (depth == 0)
    return frame[7];
  return burn(depth - 1) + frame[depth % 2048];
}

int main(void) {
  void *p = malloc(10000);
  int r = burn(40);
  free(p);
  r += burn(10);
  return r == 12345;
}
