// fork with --massif-out-file=massif.out.%p: the child inherits the profile
// so far and writes its own file at its exit (%p expanded then, to its own
// pid); the parent waits for it and writes its file afterwards. Files are
// paired in the order written: child first, then parent.
// RUN: %conform --out-file=massif.out.%%p --files=2 %s %t -- --time-unit=B --detailed-freq=1
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *keep[8];

__attribute__((noinline)) void *inParent(size_t n) { return malloc(n); }
__attribute__((noinline)) void *inChild(size_t n) { return malloc(n); }

int main(void) {
  keep[0] = inParent(1000);
  keep[1] = inParent(300);
  pid_t pid = fork();
  if (pid == 0) {
    free(keep[1]);
    keep[2] = inChild(4000);
    return 3;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  keep[3] = inParent(50);
  free(keep[0]);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}
