// The cmd: line: the program as typed, then each argument, joined by
// single spaces (arguments with spaces and empty ones are not quoted).
// RUN: %conform --args="one 'two words' '' x' 'y ''" %s %t -- --time-unit=B
#include <stdlib.h>

int main(int argc, char **argv) {
  (void)argv;
  free(malloc(10 * (size_t)argc));
  return argc;
}
