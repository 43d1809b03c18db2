// C++ programs: the pass turns new/delete into the __massif_Zn*/Zd* entry
// points, which call the real operators (so new_handler and bad_alloc
// behave as usual) and charge each block to its call site.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscxx -O0 %s -o prog
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --massif-out-file=out" ./prog > stdout
// RUN: %FileCheck %s --check-prefix=STDOUT < stdout
// RUN: %python %S/Inputs/last-snapshot.py out > last
// RUN: %FileCheck %s < last
#include <cstdio>
#include <new>

struct alignas(64) Wide {
  char Bytes[192];
};

static void *Keep[8];
static volatile size_t Huge = (size_t)1 << 62; // fails at run time
static int HandlerCalls;

static void handler() {
  ++HandlerCalls;
  std::set_new_handler(nullptr); // the next failure throws
}

int main() {
  Keep[0] = new int[25]; // CHECK-DAG: {{^ }}n0: 100 0x{{[0-9A-F]+}}: main ({{.*}}cxx-entry.cpp:[[@LINE]])
  Keep[1] = new Wide; // CHECK-DAG: {{^ }}n0: 192 0x{{[0-9A-F]+}}: main ({{.*}}cxx-entry.cpp:[[@LINE]])
  Keep[2] = new (std::nothrow) char[7]; // CHECK-DAG: {{^ }}n0: 7 0x{{[0-9A-F]+}}: main ({{.*}}cxx-entry.cpp:[[@LINE]])
  delete new long; // CHECK-DAG: {{^ }}n0: 0 0x{{[0-9A-F]+}}: main ({{.*}}cxx-entry.cpp:[[@LINE]])
  std::set_new_handler(handler);
  try {
    Keep[3] = new char[Huge];
  } catch (const std::bad_alloc &) {
    std::printf("bad_alloc after %d handler call(s)\n", HandlerCalls);
  }
  // STDOUT: bad_alloc after 1 handler call(s)
  Keep[4] = new (std::nothrow) char[Huge];
  std::printf("nothrow gave %s\n", Keep[4] ? "memory" : "null");
  // STDOUT: nothrow gave null
  Keep[5] = new char[3]; // CHECK-DAG: {{^ }}n0: 3 0x{{[0-9A-F]+}}: main ({{.*}}cxx-entry.cpp:[[@LINE]])
  delete[] new char[1];
  return 0;
}
