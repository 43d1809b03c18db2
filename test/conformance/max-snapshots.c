// --max-snapshots at both ends of its range: 1000 keeps every snapshot of a
// 900-event run and culls a 2,600-event one; 10 culls the same run hard.
// RUN: %conform --args=900 %s %t.small -- --time-unit=B --max-snapshots=1000
// RUN: %conform --args=2600 %s %t.big -- --time-unit=B --max-snapshots=1000
// RUN: %conform --args=2600 %s %t.ten -- --time-unit=B --max-snapshots=10
#include <stdlib.h>

static void *keep[4096];

int main(int argc, char **argv) {
  int events = argc > 1 ? atoi(argv[1]) : 900;
  int live = 0;
  for (int i = 0; i < events; i++) {
    if (i % 4 == 3 && live > 0) {
      free(keep[--live]);
    } else {
      keep[live++] = malloc(24 + (i * 37) % 400);
    }
  }
  while (live > 0)
    free(keep[--live]);
  return 0;
}
