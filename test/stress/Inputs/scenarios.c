// What real programs do around a heap profiler's runtime, one scenario per
// run, for test/stress/stress.py. Every scenario keeps threads allocating
// while it forks, execs, exits, signals or unloads, and checks what the
// processes it started did: it exits non-zero, naming the child, when one
// ends otherwise than the scenario says it must. The harness checks the
// rest (that the run ends at all, and every profile it left).
//
//   scenarios NAME N [PLUGIN]    N: how many children (or rounds)
//
// fork-exit     threads churn while the main thread forks N children that
//               allocate a little and call _exit (or exit, alternately)
// threads-fork  threads start and end all the time while two other threads
//               fork; each child starts a thread of its own and exits
// exit-thread   a thread calls exit(3) while the others allocate
// exec          children exec this program again, which allocates and
//               exits; at the end the parent, still threaded, execs too
// signal-alloc  children churn in threads and a handler allocates; the
//               parent signals them (SIGUSR2, then a fatal SIGTERM)
// signal-write  children call _exit at once; SIGTERM or SIGINT lands
//               while they write their profile
// dlclose       threads dlopen and dlclose PLUGIN while the main thread
//               forks children that allocate and _exit
// fork-again    each child forks a grandchild, with threads on both sides
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int Stop;
// Where allocations go so that the optimiser keeps them (free(malloc(n))
// alone may be removed).
static void *volatile Sink;

static void allocFree(size_t SizeB) {
  Sink = malloc(SizeB);
  free(Sink);
}
static const char *Self;
static const char *Plugin;

static void die(const char *What, int N) {
  fprintf(stderr, "scenarios: %s (%d)\n", What, N);
  exit(99);
}

//===-- Background allocation ---------------------------------------------===//

static void *churn(void *Arg) {
  unsigned Seed = (unsigned)(size_t)Arg;
  void *P[32] = {0};
  for (unsigned I = 0; !Stop; ++I) {
    unsigned K = rand_r(&Seed) % 32;
    if (K % 7 == 0 && P[K]) {
      void *Q = realloc(P[K], 64 + I % 500);
      if (Q)
        P[K] = Q;
      continue;
    }
    free(P[K]);
    P[K] = malloc(16 + rand_r(&Seed) % 400);
  }
  for (int K = 0; K < 32; ++K)
    free(P[K]);
  return NULL;
}

enum { MaxChurn = 8 };
static pthread_t Churners[MaxChurn];
static int NumChurners;

static void startChurn(int N) {
  for (NumChurners = 0; NumChurners < N; ++NumChurners)
    if (pthread_create(&Churners[NumChurners], NULL, churn,
                       (void *)(size_t)(NumChurners + 1)) != 0)
      die("pthread_create", NumChurners);
}

static void stopChurn(void) {
  Stop = 1;
  for (int I = 0; I < NumChurners; ++I)
    pthread_join(Churners[I], NULL);
  Stop = 0;
}

static void *allocateOnce(void *Arg) {
  void *P = malloc(100 + (size_t)Arg);
  allocFree(33);
  return P;
}

static void runThread(void) {
  pthread_t T;
  void *P;
  if (pthread_create(&T, NULL, allocateOnce, (void *)7) != 0)
    _exit(98);
  pthread_join(T, &P);
  free(P);
}

static void sleepMs(unsigned Ms) {
  struct timespec T = {Ms / 1000, (long)(Ms % 1000) * 1000000};
  while (nanosleep(&T, &T) != 0)
    ;
}

//===-- Children ----------------------------------------------------------===//

/// Waits for Pid; whether it ended as Want says: an exit status (>= 0) or
/// death by signal -Want.
static int endedAs(pid_t Pid, int Want, int Status) {
  if (Want >= 0)
    return WIFEXITED(Status) && WEXITSTATUS(Status) == Want;
  return WIFSIGNALED(Status) && WTERMSIG(Status) == -Want;
}

static void expectChild(pid_t Pid, int Want, int Or, const char *What) {
  int Status;
  if (Pid < 0)
    die("fork failed", 0);
  while (waitpid(Pid, &Status, 0) < 0)
    ;
  if (!endedAs(Pid, Want, Status) && !endedAs(Pid, Or, Status)) {
    fprintf(stderr, "scenarios: %s: child %d ended with status 0x%x\n", What,
            (int)Pid, Status);
    exit(99);
  }
}

/// A child's work: allocate, and end with exit or _exit, in turn, or with
/// _exit only where another thread may be inside dlopen or dlclose at the
/// fork (glibc leaves the child its loader's and exit handlers' locks
/// then: a child that calls exit or dlopen may wait for ever, with or
/// without a profiler).
static void smallChild(int I, int ExitToo) {
  Sink = malloc(123457);
  allocFree(40 + (size_t)I);
  if (ExitToo && I % 2)
    exit(0);
  _exit(0);
}

//===-- Scenarios ---------------------------------------------------------===//

static int forkExit(int N) {
  startChurn(4);
  for (int I = 0; I < N; ++I) {
    pid_t C = fork();
    if (C == 0)
      smallChild(I, 1);
    expectChild(C, 0, 0, "fork-exit");
  }
  stopChurn();
  return 0;
}

static void *spawner(void *Arg) {
  (void)Arg;
  while (!Stop) {
    pthread_t T[3];
    for (int I = 0; I < 3; ++I)
      if (pthread_create(&T[I], NULL, allocateOnce, (void *)(size_t)I) != 0)
        die("pthread_create", I);
    for (int I = 0; I < 3; ++I) {
      void *P;
      pthread_join(T[I], &P);
      free(P);
    }
  }
  return NULL;
}

static void *forker(void *Arg) {
  int N = (int)(size_t)Arg;
  for (int I = 0; I < N; ++I) {
    pid_t C = fork();
    if (C == 0) {
      runThread();
      smallChild(I, 1);
    }
    expectChild(C, 0, 0, "threads-fork");
  }
  return NULL;
}

static int threadsFork(int N) {
  startChurn(2);
  pthread_t S, F[2];
  pthread_create(&S, NULL, spawner, NULL);
  for (int I = 0; I < 2; ++I)
    pthread_create(&F[I], NULL, forker, (void *)(size_t)((N + 1) / 2));
  for (int I = 0; I < 2; ++I)
    pthread_join(F[I], NULL);
  Stop = 1;
  pthread_join(S, NULL);
  stopChurn();
  return 0;
}

static void *exitSoon(void *Arg) {
  sleepMs((unsigned)(size_t)Arg);
  allocFree(1000);
  exit(3);
}

static int exitThread(int N) {
  startChurn(4);
  pthread_t T;
  pthread_create(&T, NULL, exitSoon, (void *)(size_t)(1 + N % 20));
  for (;;)
    allocFree(64);
}

static int execTarget(void) {
  void *P = malloc(5000);
  runThread();
  free(P);
  return 0;
}

static int execScenario(int N) {
  startChurn(3);
  for (int I = 0; I < N; ++I) {
    pid_t C = fork();
    if (C == 0) {
      Sink = malloc(77);
      execl(Self, Self, "exec-target", (char *)NULL);
      _exit(97);
    }
    expectChild(C, 0, 0, "exec");
  }
  // The parent execs with its threads still running.
  execl(Self, Self, "exec-target", (char *)NULL);
  die("execl", 0);
  return 1;
}

static void onUsr2(int Sig) {
  (void)Sig;
  // Not async-signal-safe, and real programs do it all the same.
  allocFree(48);
}

static int signalAlloc(int N) {
  unsigned Seed = (unsigned)getpid();
  signal(SIGUSR2, onUsr2); // the children's, before they run
  for (int I = 0; I < N; ++I) {
    pid_t C = fork();
    if (C == 0) {
      startChurn(2);
      for (;;)
        allocFree(200);
    }
    sleepMs(rand_r(&Seed) % 15);
    for (int K = 0; K < 5; ++K)
      kill(C, SIGUSR2);
    sleepMs(rand_r(&Seed) % 5);
    kill(C, SIGTERM);
    expectChild(C, -SIGTERM, -SIGTERM, "signal-alloc");
  }
  return 0;
}

static int signalWrite(int N) {
  unsigned Seed = (unsigned)getpid();
  for (int I = 0; I < N; ++I) {
    pid_t C = fork();
    if (C == 0) {
      void *P[50];
      for (int K = 0; K < 50; ++K)
        P[K] = malloc(100 + K);
      (void)P;
      _exit(0);
    }
    int Sig = I % 2 ? SIGINT : SIGTERM;
    sleepMs(rand_r(&Seed) % 40);
    kill(C, Sig);
    expectChild(C, 0, -Sig, "signal-write");
  }
  return 0;
}

static void loadUnload(void) {
  void *H = dlopen(Plugin, RTLD_NOW | RTLD_LOCAL);
  if (!H)
    die(dlerror(), 0);
  void *(*Make)(int) = (void *(*)(int))dlsym(H, "plugin_make");
  if (!Make)
    die("plugin_make", 0);
  free(Make(10));
  dlclose(H);
}

static void *loader(void *Arg) {
  (void)Arg;
  while (!Stop)
    loadUnload();
  return NULL;
}

static int dlcloseScenario(int N) {
  if (!Plugin)
    die("dlclose needs the plugin's path", 0);
  startChurn(2);
  pthread_t L[2];
  for (int I = 0; I < 2; ++I)
    pthread_create(&L[I], NULL, loader, NULL);
  for (int I = 0; I < N; ++I) {
    pid_t C = fork();
    if (C == 0)
      smallChild(I, 0);
    expectChild(C, 0, 0, "dlclose");
  }
  Stop = 1;
  for (int I = 0; I < 2; ++I)
    pthread_join(L[I], NULL);
  Stop = 0;
  stopChurn();
  return 0;
}

static int forkAgain(int N) {
  startChurn(2);
  for (int I = 0; I < N; ++I) {
    pid_t C = fork();
    if (C == 0) {
      NumChurners = 0; // the parent's threads are not here
      startChurn(1);
      pid_t G = fork();
      if (G == 0) {
        runThread();
        smallChild(I, 1);
      }
      expectChild(G, 0, 0, "fork-again (grandchild)");
      stopChurn();
      smallChild(I, 1);
    }
    expectChild(C, 0, 0, "fork-again");
  }
  stopChurn();
  return 0;
}

int main(int Argc, char **Argv) {
  Self = Argv[0];
  if (Argc >= 2 && strcmp(Argv[1], "exec-target") == 0)
    return execTarget();
  if (Argc < 3) {
    fprintf(stderr, "usage: scenarios NAME N [PLUGIN]\n");
    return 2;
  }
  int N = atoi(Argv[2]);
  Plugin = Argc > 3 ? Argv[3] : NULL;
  static const struct {
    const char *Name;
    int (*Run)(int);
  } All[] = {{"fork-exit", forkExit},       {"threads-fork", threadsFork},
             {"exit-thread", exitThread},   {"exec", execScenario},
             {"signal-alloc", signalAlloc}, {"signal-write", signalWrite},
             {"dlclose", dlcloseScenario},  {"fork-again", forkAgain}};
  for (size_t I = 0; I < sizeof(All) / sizeof(All[0]); ++I)
    if (strcmp(Argv[1], All[I].Name) == 0)
      return All[I].Run(N);
  fprintf(stderr, "scenarios: no scenario '%s'\n", Argv[1]);
  return 2;
}
