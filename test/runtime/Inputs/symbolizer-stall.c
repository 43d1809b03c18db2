// For symbolizer-stall.test: allocates through its --alloc-fn (the model
// then asks for the names of every new stack, so the symbolizer starts at
// once), says "ready", waits for a line, allocates at two new sites and
// exits with status 7.
#include <stdio.h>
#include <stdlib.h>

void *volatile Keep[3];

__attribute__((noinline)) void *makeBlock(size_t N) { return malloc(N); }
__attribute__((noinline)) void first(void) { Keep[0] = makeBlock(100); }
__attribute__((noinline)) void second(void) { Keep[1] = makeBlock(200); }
__attribute__((noinline)) void third(void) { Keep[2] = malloc(300); }

int main(void) {
  first();
  printf("ready\n");
  fflush(stdout);
  char Line[16];
  if (!fgets(Line, sizeof(Line), stdin))
    return 1;
  second();
  third();
  printf("done\n");
  return 7;
}
