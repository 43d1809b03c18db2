/* Allocates, then replaces its image as argv[1] says, with /bin/sh running
 * "exit 5" (or this program again for "self"). "fail" execs a missing
 * file, then allocates more and returns. "vfork", "spawn" and "forkexec"
 * start /bin/sh from a child and wait for it. "child" is the image that
 * "self" starts. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void *keep[4];

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  if (!strcmp(how, "child")) {
    keep[0] = malloc(777);
    return 6;
  }
  keep[0] = malloc(1000);
  char *sh[] = {"sh", "-c", "exit 5", NULL};
  if (!strcmp(how, "execve"))
    execve("/bin/sh", sh, environ);
  if (!strcmp(how, "execv"))
    execv("/bin/sh", sh);
  if (!strcmp(how, "execvp"))
    execvp("sh", sh);
  if (!strcmp(how, "execvpe"))
    execvpe("sh", sh, environ);
  if (!strcmp(how, "execl"))
    execl("/bin/sh", "sh", "-c", "exit 5", (char *)NULL);
  if (!strcmp(how, "execlp"))
    execlp("sh", "sh", "-c", "exit 5", (char *)NULL);
  if (!strcmp(how, "execle"))
    execle("/bin/sh", "sh", "-c", "exit 5", (char *)NULL, environ);
  if (!strcmp(how, "fexecve")) {
    int fd = open("/bin/sh", O_RDONLY);
    fexecve(fd, sh, environ);
  }
  if (!strcmp(how, "self"))
    execl(argv[0], argv[0], "child", (char *)NULL);
  if (!strcmp(how, "fail")) {
    execl("/nonexistent/program", "x", (char *)NULL);
    keep[1] = malloc(55);
    return 0;
  }
  int status = 0;
  if (!strcmp(how, "vfork")) {
    pid_t pid = vfork();
    if (pid == 0) {
      execv("/bin/sh", sh);
      _exit(127);
    }
    waitpid(pid, &status, 0);
  }
  if (!strcmp(how, "spawn")) {
    pid_t pid;
    if (posix_spawn(&pid, "/bin/sh", NULL, NULL, sh, environ) == 0)
      waitpid(pid, &status, 0);
  }
  if (!strcmp(how, "forkexec")) {
    pid_t pid = fork();
    if (pid == 0) {
      keep[2] = malloc(33);
      execv("/bin/sh", sh);
      _exit(127);
    }
    waitpid(pid, &status, 0);
  }
  keep[1] = malloc(22);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}
