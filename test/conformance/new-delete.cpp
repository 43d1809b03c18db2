// C++ operator new/delete forms: plain, array, nothrow, sized, aligned
// (with and without nothrow and size). The libstdc++ start-up pool is
// ignored as Massif's own tests ignore it.
// RUN: %conform --cxx %s %t -- --time-unit=B --detailed-freq=1 --ignore-fn=call_init
// With the pool counted: allocated before main, freed at exit by
// libstdc++'s freeres (--run-cxx-freeres, on by default).
// RUN: %conform --cxx %s %t.pool -- --time-unit=B --detailed-freq=1
#include <new>

struct Widget {
  char Bytes[72];
};

struct alignas(64) Wide {
  char Bytes[100];
};

int main() {
  Widget *W = new Widget;
  int *Arr = new int[100];
  char *N = new (std::nothrow) char[300];
  Widget *Ws = new Widget[3];
  delete[] Ws;
  delete[] N;
  delete[] Arr;
  delete W;
  long *L = new long(5);
  ::operator delete(L, sizeof(long));
  Wide *Aligned = new Wide;
  Wide *Many = new Wide[3];
  Wide *Quiet = new (std::nothrow) Wide;
  void *Raw = ::operator new(256, std::align_val_t(128), std::nothrow);
  delete Aligned;
  delete[] Many;
  ::operator delete(Quiet, std::align_val_t(alignof(Wide)), std::nothrow);
  ::operator delete(Raw, 256, std::align_val_t(128));
  char *NoThrow = new (std::nothrow) char[40];
  ::operator delete[](NoThrow, std::nothrow);
  return 0;
}
