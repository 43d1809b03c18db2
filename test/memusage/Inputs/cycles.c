// A block that grows for a while and then shrinks again, reallocated twice
// per round, as in the example of memusage's manual page.
#include <stdio.h>
#include <stdlib.h>

enum { Rounds = 20 };

int main(void) {
  size_t Bytes = 100 * sizeof(int);
  printf("malloc: %zu\n", Bytes);
  int *Block = malloc(Bytes);
  int Step = 0;
  for (int Round = 0; Round < Rounds; ++Round) {
    Step = Round < Rounds / 2 ? Round : Step - 1;
    Bytes = sizeof(int) * (size_t)(Step * 50 + 110);
    printf("realloc: %zu\n", Bytes);
    Block = realloc(Block, Bytes);
    Bytes = sizeof(int) * (size_t)((Step + 1) * 150 + 110);
    printf("realloc: %zu\n", Bytes);
    Block = realloc(Block, Bytes);
  }
  free(Block);
  return EXIT_SUCCESS;
}
