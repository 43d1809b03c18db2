/* Allocates a little and says when main runs, so a test can tell whether
 * the runtime stopped the program before main. Exits with argv[1] if
 * given. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  printf("main ran\n");
  free(malloc(100));
  return argc > 1 ? atoi(argv[1]) : 0;
}
