// The model's thread (runtime/native/record/Applier.h): by default and
// with MASSIF_MODEL_THREAD=no there is none; with =yes it applies the
// program's events from the first one; with =auto once the program has
// made 16,384. The profiles are the same either way, byte for byte:
// mallocs, frees, reallocs that grow and shrink, calloc,
// malloc_usable_size (answered from the model at once), a forked child
// (which applies its events itself), and a thread (after which the
// program's threads apply their rings). The program counts its tasks at
// each step: the model's thread is a thread of the process that glibc does
// not know. With =auto the thread also stops when it waits for a core more
// than it runs (the machine's load decides whether that run still has it
// at "before"); with "starved" the program runs alone on one core while
// the model's thread shares another with three spinning children, and the
// thread stops; the profile is still the same. The starved program makes
// two million calls (about a quarter of a second here), ten times the two
// windows of about 20 ms the thread needs to see that it is starved, so a
// faster machine still sees it stop. A value that is none of the three
// warns and leaves the thread off.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O1 %s -o prog -lpthread
// RUN: env MASSIF_MODEL_THREAD=yes MASSIF_OPTIONS="--time-unit=B --detailed-freq=2 --massif-out-file=yes.%%p" ./prog > yes.log
// RUN: env MASSIF_MODEL_THREAD=no MASSIF_OPTIONS="--time-unit=B --detailed-freq=2 --massif-out-file=no.%%p" ./prog > no.log
// RUN: env MASSIF_MODEL_THREAD=auto MASSIF_OPTIONS="--time-unit=B --detailed-freq=2 --massif-out-file=auto.%%p" ./prog > auto.log
// RUN: env MASSIF_OPTIONS="--time-unit=B --detailed-freq=2 --massif-out-file=default.%%p" ./prog > default.log
// RUN: env MASSIF_MODEL_THREAD=maybe MASSIF_OPTIONS="--time-unit=B --detailed-freq=2 --massif-out-file=bad.%%p" ./prog > bad.log 2> bad.err
// RUN: %FileCheck %s --check-prefix=YES < yes.log
// RUN: %FileCheck %s --check-prefix=NO < no.log
// RUN: %FileCheck %s --check-prefix=AUTO < auto.log
// RUN: %FileCheck %s --check-prefix=NO < default.log
// RUN: %FileCheck %s --check-prefix=NO < bad.log
// RUN: %FileCheck %s --check-prefix=BAD < bad.err
// RUN: %python %S/Inputs/same-profiles.py yes no auto default bad
// RUN: env MASSIF_MODEL_THREAD=auto MASSIF_OPTIONS="--time-unit=B --detailed-freq=2 --massif-out-file=sauto.%%p" ./prog starved > starved.log
// RUN: env MASSIF_MODEL_THREAD=no MASSIF_OPTIONS="--time-unit=B --detailed-freq=2 --massif-out-file=sno.%%p" ./prog starved
// RUN: %FileCheck %s --check-prefix=STARVED < starved.log
// RUN: %python %S/Inputs/same-profiles.py sauto sno
// BAD: massif: warning: MASSIF_MODEL_THREAD=maybe is not yes, auto or no; the program's thread applies its events itself
// YES: before: 2 tasks
// YES-NEXT: child: 1 task
// YES-NEXT: after the thread: 1 task
// NO: before: 1 task
// NO-NEXT: child: 1 task
// NO-NEXT: after the thread: 1 task
// AUTO: before: {{[12]}} task
// AUTO-NEXT: child: 1 task
// AUTO-NEXT: after the thread: 1 task
// STARVED: every core busy: 1 task
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile Keep[256];

/// The process's threads (the 20th field of /proc/self/stat), read
/// without allocating, so that the profiles stay the same.
static int tasks(void) {
  char Buf[1024];
  int Fd = open("/proc/self/stat", O_RDONLY);
  ssize_t N = read(Fd, Buf, sizeof(Buf) - 1);
  close(Fd);
  Buf[N > 0 ? N : 0] = 0;
  char *P = strrchr(Buf, ')');
  for (int Field = 2; P && Field < 20; ++Field)
    P = strchr(P + 1, ' ');
  return P ? atoi(P + 1) : -1;
}

/// Prints how many tasks the process has; waits up to 200 ms for it to
/// have no more than Most, as the model's thread ends at its next look at
/// the rings.
static void say(const char *When, int Most) {
  int N = tasks();
  for (int Waited = 0; N > Most && Waited < 200; ++Waited) {
    usleep(1000);
    N = tasks();
  }
  printf("%s: %d task%s\n", When, N, N == 1 ? "" : "s");
  fflush(stdout);
}

__attribute__((noinline)) static void churn(unsigned Rounds, unsigned Seed) {
  size_t Usable = 0;
  for (unsigned I = 0; I < Rounds; ++I) {
    Seed = Seed * 1103515245u + 12345u;
    unsigned K = (Seed >> 8) % 256;
    switch ((Seed >> 20) % 5) {
    case 0:
      free(Keep[K]);
      Keep[K] = malloc(16 + (Seed >> 4) % 700);
      break;
    case 1:
      Keep[K] = realloc(Keep[K], 8 + (Seed >> 3) % 3000);
      break;
    case 2:
      free(Keep[K]);
      Keep[K] = calloc(1 + (Seed >> 5) % 40, 12);
      break;
    case 3:
      if (Keep[K])
        Usable += malloc_usable_size(Keep[K]);
      break;
    default:
      free(Keep[K]);
      Keep[K] = NULL;
    }
  }
  if (Usable == 1)
    puts("unlikely");
}

static void *worker(void *Arg) {
  churn(2000, (unsigned)(size_t)Arg);
  return NULL;
}

/// The one task of the process that is not the calling thread (the
/// model's thread), read with getdents64 so that nothing is allocated.
static pid_t otherTask(void) {
  char Buf[4096];
  pid_t Self = (pid_t)syscall(SYS_gettid), Other = 0;
  int Fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY);
  long N;
  while ((N = syscall(SYS_getdents64, Fd, Buf, sizeof(Buf))) > 0)
    for (long Off = 0; Off < N;) {
      struct {
        unsigned long long Ino;
        long long Off;
        unsigned short Len;
        unsigned char Type;
        char Name[];
      } *D = (void *)(Buf + Off);
      pid_t T = (pid_t)atoi(D->Name);
      if (T > 0 && T != Self)
        Other = T;
      Off += D->Len;
    }
  close(Fd);
  return Other;
}

static void pin(pid_t Task, int Cpu) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  sched_setaffinity(Task, sizeof(Set), &Set);
}

/// Allocates on a core of its own while the model's thread shares another
/// with three spinning children: it waits for its core more than it runs.
static void starved(void) {
  cpu_set_t Set;
  sched_getaffinity(0, sizeof(Set), &Set);
  int Cpus[2], N = 0;
  for (int C = 0; C < CPU_SETSIZE && N < 2; ++C)
    if (CPU_ISSET(C, &Set))
      Cpus[N++] = C;
  pid_t Hogs[3] = {0, 0, 0};
  if (N == 2) {
    pin(0, Cpus[1]);
    for (int I = 0; I < 3; ++I)
      if ((Hogs[I] = fork()) == 0) {
        pin(0, Cpus[0]);
        for (;;)
          __asm__ volatile("");
      }
    pid_t Model = otherTask();
    if (Model > 0)
      pin(Model, Cpus[0]);
  }
  churn(2000000, 5);
  say("every core busy", 1);
  for (int I = 0; I < 3; ++I)
    if (Hogs[I] > 0) {
      kill(Hogs[I], SIGKILL);
      waitpid(Hogs[I], NULL, 0);
    }
}

int main(int argc, char **argv) {
  churn(20000, 1);
  if (argc > 1 && strcmp(argv[1], "starved") == 0) {
    starved();
    for (int K = 0; K < 256; ++K)
      free(Keep[K]);
    return 0;
  }
  say("before", 2);
  pid_t C = fork();
  if (C == 0) {
    say("child", 1);
    churn(20000, 2);
    exit(0);
  }
  waitpid(C, NULL, 0);
  pthread_t T;
  pthread_create(&T, NULL, worker, (void *)3);
  pthread_join(T, NULL);
  churn(5000, 4);
  say("after the thread", 1);
  for (int K = 0; K < 256; ++K)
    free(Keep[K]);
  return 0;
}
