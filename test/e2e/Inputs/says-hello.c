#include <stdio.h>
#include <stdlib.h>

int main(void) {
  puts("main ran");
  free(malloc(10));
  return 3;
}
