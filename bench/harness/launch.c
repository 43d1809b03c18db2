/* launch.c - runs a command from a small process, for honest peak RSS.
 *
 * Part of massif-native, under the MIT licence.
 *
 * A process's peak RSS (ru_maxrss) survives exec: a command forked from the
 * Python harness starts with the harness's resident set as its peak. This
 * launcher, exec'ed by the harness, forks the command from itself (a
 * process of a few hundred KiB), waits for it, and writes the command's
 * wall time, CPU time (user + system, its waited-for descendants
 * included) and peak RSS to RESULT:
 *
 *     launch RESULT COMMAND ARGS...   ->  RESULT: "<wall s> <cpu s> <KiB>"
 *
 * It then ends as the command did: with its exit status, or by the same
 * signal.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval T) { return T.tv_sec + T.tv_usec / 1e6; }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: launch RESULT COMMAND ARGS...\n");
    return 2;
  }
  struct timespec T0, T1;
  clock_gettime(CLOCK_MONOTONIC, &T0);
  pid_t Pid = fork();
  if (Pid < 0) {
    perror("launch: fork");
    return 2;
  }
  if (Pid == 0) {
    execvp(argv[2], argv + 2);
    perror("launch: exec");
    _exit(127);
  }
  int Status;
  struct rusage Ru;
  while (wait4(Pid, &Status, 0, &Ru) < 0)
    ;
  clock_gettime(CLOCK_MONOTONIC, &T1);
  double Wall = (T1.tv_sec - T0.tv_sec) + (T1.tv_nsec - T0.tv_nsec) / 1e9;
  FILE *F = fopen(argv[1], "w");
  if (F) {
    fprintf(F, "%.9f %.6f %ld\n", Wall, seconds(Ru.ru_utime) + seconds(Ru.ru_stime),
            Ru.ru_maxrss);
    fclose(F);
  }
  if (WIFSIGNALED(Status)) {
    struct rlimit NoCore = {0, 0};
    setrlimit(RLIMIT_CORE, &NoCore);
    signal(WTERMSIG(Status), SIG_DFL);
    raise(WTERMSIG(Status));
  }
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 2;
}
