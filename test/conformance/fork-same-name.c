// fork without %p in the name: both processes write the same path and the
// last to exit wins (the parent, which waits for its child); %n restarts at
// 1 in the child, so it names the same file too.
// RUN: %conform %s %t.fixed -- --time-unit=B --detailed-freq=1
// RUN: %conform --out-file=massif.out.%%n %s %t.n -- --time-unit=B --detailed-freq=1
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *keep[8];

int main(void) {
  keep[0] = malloc(1000);
  pid_t pid = fork();
  if (pid == 0) {
    keep[1] = malloc(7777);
    return 0;
  }
  waitpid(pid, NULL, 0);
  keep[2] = malloc(222);
  free(keep[0]);
  return 0;
}
