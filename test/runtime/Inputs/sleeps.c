/* Allocates 1000 bytes, sleeps 300 ms, allocates 2000 more, sleeps
 * 300 ms, frees everything: with --time-unit=ms the snapshots' times are
 * that far apart. */
#include <stdlib.h>
#include <time.h>

void *volatile Kept[2];

static void sleepMs(long Ms) {
  struct timespec T = {Ms / 1000, (Ms % 1000) * 1000000};
  while (nanosleep(&T, &T) != 0)
    ;
}

int main(void) {
  sleepMs(100);
  Kept[0] = malloc(1000);
  sleepMs(300);
  Kept[1] = malloc(2000);
  sleepMs(300);
  free(Kept[0]);
  free(Kept[1]);
  return 0;
}
