// Leaves a file behind to show that it ran, then exits with 42, or dies of
// SIGABRT when asked to.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc > 1) {
    FILE *F = fopen(argv[1], "w");
    if (F)
      fclose(F);
  }
  if (argc > 2 && strcmp(argv[2], "kill") == 0)
    abort();
  return 42;
}
