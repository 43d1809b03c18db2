// An uncaught C++ exception: std::terminate calls abort, the process dies
// of SIGABRT and the profile is written, with the exception object that
// __cxa_allocate_exception took from the heap.
// RUN: %conform --cxx %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
#include <cstdlib>
#include <stdexcept>

static void *keep[4];

[[noreturn]] __attribute__((noinline)) void fail() {
  throw std::runtime_error("no");
}

int main() {
  keep[0] = std::malloc(1000);
  keep[1] = new int[10];
  std::free(keep[0]);
  fail();
}
