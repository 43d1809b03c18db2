// A program for the memusage graph test: its heap rises in steps to one
// clear peak and falls back to nothing, so the plotted heap line has a
// known shape. Blocks grow with the index, some are grown again with
// realloc, then all are freed newest first.
#include <stdlib.h>
#include <string.h>

enum { NumBlocks = 120 };

int main(void) {
  static char *Blocks[NumBlocks];
  for (int I = 0; I < NumBlocks; ++I) {
    Blocks[I] = malloc(256 + 64 * I);
    memset(Blocks[I], I, 256 + 64 * I);
    if (I % 4 == 3) {
      // Growing an earlier block keeps the curve rising through reallocs.
      char *Grown = realloc(Blocks[I - 2], 512 + 64 * I);
      if (Grown)
        Blocks[I - 2] = Grown;
    }
  }
  for (int I = NumBlocks - 1; I >= 0; --I)
    free(Blocks[I]);
  return 0;
}
