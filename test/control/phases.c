// The test program of test/control: a known first phase, then the monitor
// commands, then a second phase. Built with -DASK_ITSELF it asks for the
// commands itself (massif/massif.h); otherwise it announces itself in the
// file "ready" (its pid) and waits for the file "go", passing a safe point
// now and then (malloc_usable_size enters the allocator and changes
// nothing in the profile) while others send the commands. With the
// argument "block" it first sleeps 3 s without entering the allocator.
// It counts sleeps that a signal interrupted (EINTR) and prints the count:
// the channel must not interrupt it. Build with -pthread.
#include <massif/massif.h>

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *keep[64];

void *leaf(size_t n) { return malloc(n); }
void *mid(size_t n) { return leaf(n); }

// A thread allocates part of the first phase: natively its events, and the
// main thread's after it, reach the model through the event rings, which a
// command must apply first.
static void *helper(void *arg) {
  (void)arg;
  for (int i = 60; i < 64; i++)
    keep[i] = mid(500);
  free(keep[61]);
  keep[61] = 0;
  return 0;
}

static void phase1(void) {
#ifdef ONE_THREAD
  helper(0); // no thread stack in the address space (see control.py)
#else
  pthread_t t;
  if (pthread_create(&t, 0, helper, 0) == 0)
    pthread_join(t, 0);
#endif
  for (int i = 0; i < 30; i++)
    keep[i] = (i % 3) ? leaf(100 + 10 * i) : mid(2000);
  for (int i = 0; i < 30; i += 4) {
    free(keep[i]);
    keep[i] = 0;
  }
}

static void phase2(void) {
  for (int i = 30; i < 50; i++)
    keep[i] = mid(300);
  for (int i = 0; i < 64; i++)
    free(keep[i]);
}

static int interrupted;

static void nap(long ns) {
  struct timespec T = {0, ns};
  if (nanosleep(&T, 0) != 0 && errno == EINTR)
    ++interrupted;
}

int main(int argc, char **argv) {
  phase1();
#ifdef ASK_ITSELF
  (void)argc;
  (void)argv;
  int handled = massif_monitor_command("snapshot snap.out") +
                massif_monitor_command("detailed_snapshot det.out") +
                massif_monitor_command("all_snapshots all.out");
  if (handled != 3 && handled != 0)
    return 1; // all or (a plain build) none
#else
  char pid[32];
  int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
  int fd = open("ready.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (write(fd, pid, (size_t)len) != len)
    return 1;
  close(fd);
  rename("ready.tmp", "ready");
  if (argc > 1 && strcmp(argv[1], "block") == 0)
    for (int i = 0; i < 30; i++)
      nap(100 * 1000 * 1000);
  for (int i = 0; i < 20000 && access("go", F_OK) != 0; i++) {
    (void)malloc_usable_size(keep[1]);
    nap(2 * 1000 * 1000);
  }
#endif
  phase2();
  printf("done, %d interrupted\n", interrupted);
  return 7;
}
