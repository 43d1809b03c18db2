// C++ through the standard library: container growth inside libstdc++
// (std::string's buffer is grown by libstdc++.so's own code, which calls
// its own operator new), templates, lambdas, virtual calls, class and
// placement operator new overloads, and the names Massif gives them.
// The libstdc++ start-up pool is ignored as in Massif's own tests.
// RUN: %stacks --cxx %s %t -- --time-unit=B --detailed-freq=1 --threshold=0 --ignore-fn=call_init
// RUN: %FileCheck %s < %t/native.txt
// Overloaded operators written in full as alloc-fns remove their frames.
// RUN: %stacks --cxx %s %t.a -- --time-unit=B --detailed-freq=1 --threshold=0 --ignore-fn=call_init '--alloc-fn=Pooled::operator new(unsigned long)' '--alloc-fn=operator new(unsigned long, (anonymous namespace)::Arena&)'
// RUN: %FileCheck %s --check-prefix=ALLOCFN < %t.a/native.txt
// RUN: %FileCheck %s --check-prefix=ALLOCFN-MAIN < %t.a/native.txt
#include <map>
#include <memory>
#include <new>
#include <stdlib.h>
#include <string>
#include <vector>

namespace {
struct Arena {
  char Name[8];
};
struct Blob {
  char Bytes[200];
};
} // namespace

void *operator new(size_t N, Arena &) { return malloc(N); }

struct Pooled {
  static void *operator new(size_t N) { return ::operator new(N); }
  static void operator delete(void *P) { ::operator delete(P); }
  long Data[12];
};

struct Shape {
  virtual ~Shape() = default;
  virtual std::vector<int> *grow(int N) = 0;
};

struct Square : Shape {
  std::vector<int> *grow(int N) override {
    auto *V = new std::vector<int>;
    for (int I = 0; I < N; ++I)
      V->push_back(I);
    return V;
  }
};

template <typename T, int N> struct Buffer {
  T *make() { return new T[N]; }
};

template <typename K> std::map<K, std::string> *table(int N) {
  auto *M = new std::map<K, std::string>;
  for (int I = 0; I < N; ++I)
    (*M)[K(I)] = std::string(40, 'x');
  return M;
}

int main() {
  std::string S = "a string longer than the small buffer";
  for (int I = 0; I < 4; ++I)
    S += S;
  std::unique_ptr<Shape> Sh(new Square);
  std::vector<int> *V = Sh->grow(100);
  auto Lambda = [](int N) { return new char[N]; };
  char *C = Lambda(500);
  Buffer<double, 30> B;
  double *D = B.make();
  std::map<int, std::string> *M = table<int>(3);
  Pooled *P = new Pooled;
  Arena A;
  Blob *Q = new (A) Blob;
  free(Q);
  delete P;
  delete M;
  delete[] D;
  delete[] C;
  delete V;
  return (int)S.size() & 1;
}

// The string's growth: libstdc++'s own code (no debug information here).
// CHECK:      std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_mutate(unsigned long, unsigned long, char const*, unsigned long) (in {{.*}}libstdc++.so.6{{.*}})
// CHECK-NEXT: std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_append(char const*, unsigned long) (in {{.*}}libstdc++.so.6{{.*}})
// CHECK-NEXT: main ({{.*}}cxx.cpp:64)
// CHECK-DAG: Square::grow(int) ({{.*}}cxx.cpp:45)
// CHECK-DAG: std::vector<int, std::allocator<int> >::push_back(int const&) (stl_vector.h:
// CHECK-DAG: main::$_0::operator()(int) const ({{.*}}cxx.cpp:67)
// CHECK-DAG: Buffer<double, 30>::make() ({{.*}}cxx.cpp:51)
// CHECK-DAG: std::map<int, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, std::less<int>, std::allocator<std::pair<int const, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > > > >* table<int>(int) ({{.*}}cxx.cpp:
// CHECK-DAG: Pooled::operator new(unsigned long) ({{.*}}cxx.cpp:31)
// CHECK-DAG: operator new(unsigned long, (anonymous namespace)::Arena&) ({{.*}}cxx.cpp:28)
// ALLOCFN-NOT: : Pooled::operator new
// ALLOCFN-NOT: : operator new(unsigned long, (anonymous namespace)::Arena&)
// ALLOCFN-MAIN: main ({{.*}}cxx.cpp:72)
// Demangled names as ignore-fns: a template's, a member's, a lambda's. Only
// the first named frame above the allocator decides: the vector that
// Square::grow grows is allocated by the standard library's allocator.
// RUN: %stacks --cxx %s %t.i -- --time-unit=B --detailed-freq=1 --threshold=0 --ignore-fn=call_init '--ignore-fn=Buffer<double, 30>::make()' '--ignore-fn=Square::grow(int)' '--ignore-fn=main::$_0::operator()(int) const'
// RUN: %FileCheck %s --check-prefix=IGNORED < %t.i/native.txt
// IGNORED-NOT: : Buffer<double, 30>::make()
// IGNORED-NOT: : main::$_0::operator()(int) const
// IGNORED-NOT: : Square::grow(int) ({{.*}}cxx.cpp:43)
// IGNORED: Pooled::operator new(unsigned long)
// IGNORED-NOT: : Buffer<double, 30>::make()
// IGNORED-NOT: : main::$_0::operator()(int) const
// IGNORED-NOT: : Square::grow(int) ({{.*}}cxx.cpp:43)
