/* pvalloc of 100 bytes and of three pages and a bit; the memory is used to
 * the end of the rounded size. */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  char *a = pvalloc(100);
  char *b = pvalloc(3 * 4096 + 1);
  if (!a || !b || (uintptr_t)a % 4096 || (uintptr_t)b % 4096)
    return 2;
  memset(a, 1, 4096);
  memset(b, 1, 4 * 4096);
  (void)!write(1, "pvalloc worked\n", 15);
  free(a);
  free(b);
  return 0;
}
