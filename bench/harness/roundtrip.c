/* roundtrip.c - how long a cache line takes to go between two cores.
 *
 * Part of massif-native, under the MIT licence.
 *
 * Two threads hand one cache line back and forth, each waiting for the
 * other's store; the time of one exchange (there and back) is printed in
 * nanoseconds, the best of five batches:
 *
 *     roundtrip   ->   "<ns>"
 *
 * On the 2-vCPU virtual machine the bench runs on, the figure moves
 * between about 80-190 ns and 400-500 ns from minute to minute (the host
 * places the two vCPUs on cores that share a cache or not), and with it
 * the cost of the model's thread, which reads every event the program's
 * thread writes (docs/BENCHMARKS.md, Known limits).
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

enum { Exchanges = 20000, Batches = 5 };

static volatile long Turn __attribute__((aligned(64)));

static void *answer(void *Arg) {
  (void)Arg;
  for (long I = 0; I < (long)Exchanges * Batches; ++I) {
    while (Turn != 2 * I + 1)
      ;
    Turn = 2 * I + 2;
  }
  return NULL;
}

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e9 + T.tv_nsec;
}

int main(void) {
  pthread_t Other;
  if (pthread_create(&Other, NULL, answer, NULL) != 0)
    return 1;
  double Best = 0;
  for (long B = 0; B < Batches; ++B) {
    double Start = now();
    for (long I = B * Exchanges; I < (B + 1) * Exchanges; ++I) {
      Turn = 2 * I + 1;
      while (Turn != 2 * I + 2)
        ;
    }
    double Ns = (now() - Start) / Exchanges;
    if (B == 0 || Ns < Best)
      Best = Ns;
  }
  pthread_join(Other, NULL);
  printf("%.0f\n", Best);
  return 0;
}
