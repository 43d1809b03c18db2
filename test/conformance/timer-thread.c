// Threads glibc starts itself, not through the program's pthread_create:
// a SIGEV_THREAD timer's helper thread and the thread each expiry runs
// the notification in. A thread started and joined first leaves its stack
// in glibc's cache, and the timer's threads reuse it, with the state the
// first thread's end left beside its thread control block; their
// allocations, and the DTVs glibc allocates for them, must be in the
// profile as in Massif's. (Main ends as soon as the notification has run,
// and the notifying thread never ends, so that neither races with the
// other's last events.) Stacks are cut at two frames: Valgrind ends the
// timer helper's, whose stack is glibc's minimum, at start_thread, where
// every other thread's ends at clone.
// RUN: %conform --cflags="-O0 -pthread" %s %t -- --time-unit=B --detailed-freq=1 --depth=2
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

static sem_t Fired, Never;
static void *Kept[2];

__attribute__((noinline)) static void *first(void *Arg) {
  Kept[0] = malloc(100);
  free(malloc(2000)); // through the thread's ring, retired at its end
  return Arg;
}

__attribute__((noinline)) static void notify(union sigval V) {
  Kept[1] = malloc(300);
  free(malloc(4000));
  (void)V;
  sem_post(&Fired);
  sem_wait(&Never);
}

int main(void) {
  sem_init(&Fired, 0, 0);
  sem_init(&Never, 0, 0);
  pthread_t T;
  if (pthread_create(&T, NULL, first, NULL) != 0 || pthread_join(T, NULL))
    return 1;
  struct sigevent Ev = {0};
  Ev.sigev_notify = SIGEV_THREAD;
  Ev.sigev_notify_function = notify;
  timer_t Timer;
  if (timer_create(CLOCK_MONOTONIC, &Ev, &Timer) != 0)
    return 1;
  struct itimerspec Spec = {{0, 0}, {0, 1000000}};
  timer_settime(Timer, 0, &Spec, NULL);
  sem_wait(&Fired);
  return 0;
}
