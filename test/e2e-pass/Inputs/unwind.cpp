// Frames left without their exit probe: longjmp out of a deep recursion,
// and an exception thrown through one. The next probes report the real
// stack pointer, so afterwards the stack is back to main's size.
#include <csetjmp>
#include <cstdio>
#include <cstdlib>

static std::jmp_buf Env;

__attribute__((noinline)) int jumpDown(int N) {
  volatile char Buf[256];
  Buf[0] = (char)N;
  if (N == 0)
    std::longjmp(Env, 1);
  return jumpDown(N - 1) + Buf[0];
}

__attribute__((noinline)) int throwDown(int N) {
  volatile char Buf[256];
  Buf[0] = (char)N;
  if (N == 0)
    throw N;
  return throwDown(N - 1) + Buf[0];
}

__attribute__((noinline)) void *allocate(std::size_t N) {
  return std::malloc(N);
}

int main() {
  if (!setjmp(Env))
    jumpDown(100);
  void *volatile A = allocate(1000); // snapshot: stack back to main's
  try {
    throwDown(100);
  } catch (int) {
  }
  void *volatile B = allocate(2000); // snapshot: stack back to main's
  std::free(A);
  std::free(B);
  std::printf("done\n");
  return 0;
}
