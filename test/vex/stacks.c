// --stacks=yes on the VEX engine: every move of the stack pointer, signal
// frames included, counts as Massif counts it; the files must equal
// Valgrind's line for line, in bytes and in instructions. (One thread: how
// Valgrind interleaves threads depends on the host's scheduling, for
// Massif as for the VEX engine.)
// RUN: %vexconform %s %t.b -- --stacks=yes --time-unit=B --detailed-freq=1
// RUN: %vexconform %s %t.i -- --stacks=yes
// RUN: %vexconform %s %t.h -- --stacks=yes --heap=no --time-unit=B
#include <alloca.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static void *keep[8];

__attribute__((noinline)) static int deep(int n) {
  char frame[512];
  memset(frame, n, sizeof frame);
  if (n == 0) {
    keep[0] = malloc(3000);
    return frame[0];
  }
  return deep(n - 1) + frame[n % sizeof frame];
}

static void on_signal(int sig) {
  char frame[2048];
  memset(frame, sig, sizeof frame);
  keep[1] = malloc((size_t)frame[7] * 16);
}

__attribute__((noinline)) static void dynamic(size_t n) {
  char *p = alloca(n);
  memset(p, 1, n);
  keep[2] = malloc(n);
  deep(3);
}

int main(void) {
  deep(40);
  signal(SIGUSR1, on_signal);
  raise(SIGUSR1);
  dynamic(20000);
  deep(10);
  for (int i = 0; i < 8; i++)
    free(keep[i]);
  return 0;
}
