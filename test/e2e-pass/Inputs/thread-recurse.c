// Two threads recursing one after the other, then the main thread: each
// thread's stack starts at zero, and all threads' stacks are summed.
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) int down(int N, volatile char *Prev) {
  volatile char Buf[300];
  Buf[0] = (char)N;
  if (N == 0)
    return Buf[0] + Prev[0];
  return down(N - 1, Buf) + Buf[0];
}

static void *run(void *Arg) {
  return (void *)(long)down((int)(long)Arg, "t");
}

int main(void) {
  pthread_t A, B;
  void *RA, *RB;
  pthread_create(&A, 0, run, (void *)150L);
  pthread_join(A, &RA);
  pthread_create(&B, 0, run, (void *)60L);
  pthread_join(B, &RB);
  printf("%d\n", (int)(long)RA + (int)(long)RB + down(40, "m"));
  return 0;
}
