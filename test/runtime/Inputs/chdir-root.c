/* Moves to / before it exits: a relative output name must still be
 * resolved against the directory the program started in. */
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  if (chdir("/") != 0)
    return 2;
  free(malloc(100));
  return 0;
}
