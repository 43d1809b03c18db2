/* Allocates and frees without pause in argv[1] threads (and main) until a
 * signal ends the process: SIGALRM from an interval timer, or SIGTERM that
 * main sends to the whole process. Most of the time some thread is inside
 * the allocator when the signal arrives. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static void churn(void) {
  void *keep[16] = {0};
  for (unsigned i = 0;; i++) {
    unsigned k = i % 16;
    free(keep[k]);
    keep[k] = malloc(16 + i % 200);
  }
}

static void *thread(void *arg) {
  (void)arg;
  churn();
  return NULL;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 0;
  const char *how = argc > 2 ? argv[2] : "alarm";
  for (int i = 0; i < threads; i++) {
    pthread_t t;
    pthread_create(&t, NULL, thread, NULL);
  }
  if (!strcmp(how, "alarm")) {
    struct itimerval when = {{0, 0}, {0, 30 * 1000}};
    setitimer(ITIMER_REAL, &when, NULL);
    churn();
  }
  struct timespec pause = {0, 30 * 1000 * 1000};
  nanosleep(&pause, NULL);
  kill(getpid(), SIGTERM);
  for (;;)
    pause.tv_sec = 1, nanosleep(&pause, NULL);
}
