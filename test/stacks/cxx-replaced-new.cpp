// A program that replaces the global operator new. Natively libstdc++'s
// own code (std::string's growth) then allocates through the program's
// operator new, whose frame Massif removes as an alloc-fn; Valgrind
// replaces the program's operator new with its own. Either way the stack
// starts in libstdc++'s frames, with the program's below them. (Whether
// the replacement ran is not the program's output: under Valgrind it does
// not.)
// RUN: %stacks --cxx %s %t -- --time-unit=B --detailed-freq=1 --threshold=0 --ignore-fn=call_init
// RUN: %FileCheck %s < %t/native.txt
#include <new>
#include <stdlib.h>
#include <string>

static unsigned long NumNews;

void *operator new(size_t N) {
  ++NumNews;
  if (void *P = malloc(N ? N : 1))
    return P;
  throw std::bad_alloc();
}
void operator delete(void *P) noexcept { free(P); }
void operator delete(void *P, size_t) noexcept { free(P); }

int main() {
  std::string S(40, 'x');
  for (int I = 0; I < 3; ++I)
    S += S;
  int *V = new int[30];
  delete[] V;
  return NumNews > 1000000; // never true; keeps the counter
}

// CHECK-NOT: : operator new(unsigned long) (
// CHECK:     std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_mutate(unsigned long, unsigned long, char const*, unsigned long) (in {{.*}}libstdc++.so.6{{.*}})
// CHECK-NEXT: std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_append(char const*, unsigned long) (in {{.*}}libstdc++.so.6{{.*}})
// CHECK-NEXT: main ({{.*}}cxx-replaced-new.cpp:28)
