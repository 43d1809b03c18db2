// Says whether it runs on Valgrind (RUNNING_ON_VALGRIND) and allocates a
// little, so that every engine has a profile to write.
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/valgrind.h>

int main(void) {
  void *p = malloc(1000);
  printf("on valgrind: %d\n", RUNNING_ON_VALGRIND ? 1 : 0);
  free(p);
  return 3;
}
