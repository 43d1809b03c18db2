// A program that forks, both processes then waiting for commands: each
// has a channel of its own (the child's page is no longer the parent's).
// Each writes its pid to ready.<role> and waits for go.<role>, passing a
// safe point now and then.
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void announce(const char *role) {
  char name[32], tmp[40], pid[32];
  snprintf(name, sizeof(name), "ready.%s", role);
  snprintf(tmp, sizeof(tmp), "%s.tmp", name);
  int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (write(fd, pid, (size_t)len) != len)
    exit(1);
  close(fd);
  rename(tmp, name);
}

static void wait_go(const char *role, void *p) {
  char name[32];
  snprintf(name, sizeof(name), "go.%s", role);
  for (int i = 0; i < 20000 && access(name, F_OK) != 0; i++) {
    (void)malloc_usable_size(p);
    struct timespec t = {0, 2 * 1000 * 1000};
    nanosleep(&t, 0);
  }
}

int main(void) {
  void *common = malloc(1000);
  pid_t child = fork();
  if (child == 0) {
    void *mine = malloc(2000);
    announce("child");
    wait_go("child", mine);
    return 0;
  }
  void *mine = malloc(3000);
  announce("parent");
  wait_go("parent", mine);
  int status;
  waitpid(child, &status, 0);
  free(common);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
