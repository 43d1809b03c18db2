// Allocations before main, from a C++ program's start-up: global objects'
// constructors (a std::string longer than its small buffer, a std::vector,
// a class whose constructor calls malloc), a constructor function, an entry
// of .preinit_array, and libstdc++'s own constructor (its exception pool).
//
// Massif's below-main rule (VG_(get_fnname_kind)) compares whole names:
// glibc's __libc_start_main@@GLIBC_2.34, which runs the program's
// constructors (call_init, inlined in it), is a normal function, and
// _start below it ends the stack as "(below main)".
//
// .preinit_array and the libraries' constructors run from ld.so's
// _dl_init, called by its start code (_dl_start_user), which has no
// call-frame information and no symbol: "??? (in ld-linux-x86-64.so.2)".
// Below it Valgrind's walk falls back to reading the stack word by word as
// return addresses (m_stacktrace.c's last resort), which there are argc and
// the argv pointers, up to argv's null: one "???" for argc - 1 and one per
// argument when the program has arguments, none with argc = 1.
// RUN: %conform --cxx --ms-print-args=--threshold=0 %s %t -- --time-unit=B --threshold=0
// RUN: %FileCheck %s < %t/report.txt
// RUN: %FileCheck %s --check-prefix=PRE < %t/report.txt
// RUN: %conform --cxx --ms-print-args=--threshold=0 --args="one two" %s %t.a -- --time-unit=B --threshold=0 --detailed-freq=1
// RUN: %FileCheck %s --check-prefix=ARGS < %t.a/report.txt
// RUN: %conform --cxx %s %t.d -- --time-unit=B --detailed-freq=1
// RUN: %conform --cxx --cflags=-O2 --args="x" %s %t.o -- --time-unit=B --threshold=0 --detailed-freq=2
// RUN: %conform --cxx %s %t.s -- --time-unit=B --threshold=0 --show-below-main=yes --depth=12
// RUN: %conform --cxx --ms-print-args=--threshold=0 %s %t.f -- --time-unit=B --threshold=0 --alloc-fn='make_block(unsigned long)'
// RUN: %FileCheck %s --check-prefix=ALLOC < %t.f/report.txt
// CHECK: __cxx_global_var_init{{.*}} ({{.*}}global-ctors.cpp:[[#]])
// CHECK-NEXT: _GLOBAL__sub_I_global_ctors.cpp ({{.*}}global-ctors.cpp:0)
// CHECK-NEXT: call_init (libc-start.c:[[#]])
// CHECK-NEXT: __libc_start_main@@GLIBC_2.34 (libc-start.c:[[#]])
// CHECK-NEXT: (below main) (in <dir>/prog)
// PRE: early(int, char**, char**) ({{.*}}global-ctors.cpp:[[#]])
// PRE-NEXT: _dl_init (dl-init.c:[[#]])
// PRE-NEXT: ??? (in {{.*}}ld-linux-x86-64.so.2)
// PRE-NOT: 0x........: ???{{$}}
// ALLOC: {{^}}->{{.*}}: Table::Table() ({{.*}}global-ctors.cpp:[[#]])
// ARGS: early(int, char**, char**) ({{.*}}global-ctors.cpp:[[#]])
// ARGS-NEXT: _dl_init (dl-init.c:[[#]])
// ARGS-NEXT: ??? (in {{.*}}ld-linux-x86-64.so.2)
// ARGS-NEXT: 0x........: ???{{$}}
// ARGS-NEXT: 0x........: ???{{$}}
// ARGS-NEXT: 0x........: ???{{$}}
// ARGS-NEXT: 0x........: ???{{$}}
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

__attribute__((noinline)) void *make_block(size_t n) { return malloc(n); }

struct Table {
  char *Buf;
  Table() {
    Buf = static_cast<char *>(make_block(300));
    memset(Buf, 1, 300);
  }
};

std::string Name("a global string longer than the small-string buffer");
std::vector<int> Numbers(100, 7);
Table TheTable;

static void *Kept[3];

__attribute__((constructor)) static void setup() {
  Kept[0] = calloc(5, 40);
}

static void early(int, char **, char **) { Kept[1] = malloc(123); }
__attribute__((section(".preinit_array"), used)) static void (*PreInit)(
    int, char **, char **) = early;

int main(int argc, char **) {
  Kept[2] = malloc(10 + argc);
  free(Kept[0]);
  return Name.size() + Numbers[3] + TheTable.Buf[7] > 0 ? 0 : 1;
}
