// fork from a process whose threads keep allocating, freeing, creating
// threads and exiting: every child must run as it would natively and write
// a whole profile. Three threads fork 25 times each while four others
// churn the heap and start short-lived threads. Each child allocates, frees
// and reallocates, installs a signal handler, starts a thread of its own,
// keeps one marker block and ends with exit or _exit, alternately. The
// runtime's locks and the rings of the threads that vanished in the child
// must be consistent there: a block whose free was being handed back to
// glibc at the instant of the fork was freed a second time by the child
// (glibc: "double free or corruption"). The checker counts the profiles
// (the parent's and one per child, the marker block in every child's last
// snapshot) and has ms_print read each.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O2 %s -o prog -lpthread
// RUN: env MASSIF_OPTIONS="--time-unit=B --detailed-freq=1" ./prog | %FileCheck %s
// RUN: %python %S/Inputs/fork-profiles.py . 75 %ms_print
// RUN: rm -f massif.out.*
// RUN: env MASSIF_OPTIONS="--time-unit=B --detailed-freq=1 --stacks=yes" ./prog | %FileCheck %s
// RUN: %python %S/Inputs/fork-profiles.py . 75 %ms_print
// RUN: rm -f massif.out.*
// RUN: env MASSIF_OPTIONS="--heap=no --detailed-freq=1 --stacks=yes" ./prog | %FileCheck %s
// CHECK: failed children: 0
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { Churners = 4, Forkers = 3, ForksEach = 25 };

static volatile int Stop;
static int Failed;
static pthread_mutex_t FailedLock = PTHREAD_MUTEX_INITIALIZER;

static void *shortLived(void *Arg) {
  void *P[16];
  for (int I = 0; I < 16; ++I)
    P[I] = malloc(24 + I * (size_t)Arg);
  for (int I = 0; I < 16; ++I)
    free(P[I]);
  return NULL;
}

static void *churn(void *Arg) {
  (void)Arg;
  void *P[64] = {0};
  for (unsigned I = 0; !Stop; ++I) {
    unsigned K = I % 64;
    free(P[K]);
    P[K] = malloc(16 + I % 300);
    if (I % 5000 == 0) {
      pthread_t T;
      if (pthread_create(&T, NULL, shortLived, (void *)(size_t)(I % 7)) == 0)
        pthread_join(T, NULL);
    }
  }
  for (int K = 0; K < 64; ++K)
    free(P[K]);
  return NULL;
}

static void onUsr1(int Sig) { (void)Sig; }

void *volatile Keep;

static void child(int N) {
  void *Q[100];
  for (int I = 0; I < 100; ++I)
    Q[I] = malloc(32 + I);
  for (int I = 0; I < 100; I += 2)
    Q[I] = realloc(Q[I], 200 + I);
  for (int I = 0; I < 100; ++I)
    free(Q[I]);
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  A.sa_handler = onUsr1;
  if (sigaction(SIGUSR1, &A, NULL) != 0)
    _exit(2);
  pthread_t T;
  if (pthread_create(&T, NULL, shortLived, (void *)3) != 0 ||
      pthread_join(T, NULL) != 0)
    _exit(3);
  Keep = malloc(123457); // the marker
  if (N % 2)
    _exit(0);
  exit(0);
}

static void *forker(void *Arg) {
  int Base = (int)(size_t)Arg * ForksEach;
  for (int N = 0; N < ForksEach; ++N) {
    pid_t Pid = fork();
    if (Pid == 0)
      child(Base + N);
    int Status = 0;
    if (Pid < 0 || waitpid(Pid, &Status, 0) != Pid || !WIFEXITED(Status) ||
        WEXITSTATUS(Status) != 0) {
      pthread_mutex_lock(&FailedLock);
      ++Failed;
      pthread_mutex_unlock(&FailedLock);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t C[Churners], F[Forkers];
  for (int I = 0; I < Churners; ++I)
    pthread_create(&C[I], NULL, churn, NULL);
  for (int I = 1; I < Forkers; ++I)
    pthread_create(&F[I], NULL, forker, (void *)(size_t)I);
  forker((void *)0);
  for (int I = 1; I < Forkers; ++I)
    pthread_join(F[I], NULL);
  Stop = 1;
  for (int I = 0; I < Churners; ++I)
    pthread_join(C[I], NULL);
  printf("failed children: %d\n", Failed);
  return 0;
}
