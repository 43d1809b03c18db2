// At an exit (a return from main, _exit), before Massif writes its file,
// Valgrind has the program free what glibc keeps for the life of the
// process (here the NSS data of a user lookup): those frees are the last
// events of the profile, down to an empty heap. --run-libc-freeres=no
// keeps them. The runtime does the same.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1
// RUN: %conform --args=_exit %s %t.exit -- --time-unit=B --detailed-freq=1
// RUN: %conform %s %t.no -- --time-unit=B --detailed-freq=1 --run-libc-freeres=no
// RUN: %python %src_root/test/runtime/Inputs/last-snapshot.py %t/native/massif.out | %FileCheck %s
// RUN: %python %src_root/test/runtime/Inputs/last-snapshot.py %t.no/native/massif.out | %FileCheck %s --check-prefix=KEPT
// CHECK: mem_heap_B=0{{$}}
// KEPT: mem_heap_B={{[1-9]}}
#include <pwd.h>
#include <unistd.h>

int main(int argc, char **argv) {
  getpwnam("root");
  if (argc > 1)
    _exit(0);
  return 0;
}
