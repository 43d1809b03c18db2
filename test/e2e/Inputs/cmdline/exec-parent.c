#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
// Allocates, then runs each program named in argv with fork and execv.
int main(int argc, char **argv) {
  void *p = malloc(4000);
  for (int i = 1; i < argc; i++) {
    pid_t pid = fork();
    if (pid == 0) {
      char *args[] = {argv[i], "child-arg", NULL};
      execv(argv[i], args);
      _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    printf("%s: %d\n", argv[i], WEXITSTATUS(st));
  }
  free(p);
  return 0;
}
