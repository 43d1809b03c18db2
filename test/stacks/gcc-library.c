// Allocations inside a -O2 gcc library built without frame pointers, and in
// the instrumented program's callbacks the library calls (directly, and
// through libc's qsort): the stack must cross the library's and libc's
// frames (DWARF CFI) and come back to the program's (frame pointers), with
// every frame Massif shows.
// RUN: %stacks --lib='Inputs/gcclib.c:gcclib:gcc:-O2 -g -gdwarf-4' %s %t -- --time-unit=B --detailed-freq=2 --threshold=0.2
// RUN: %FileCheck %s < %t/native.txt
// RUN: %FileCheck %s --check-prefix=QSORT < %t/native.txt
// RUN: %FileCheck %s --check-prefix=STRDUP < %t/native.txt
// Cut at the library's wrapper, as Massif does for a named alloc-fn.
// RUN: %stacks --lib='Inputs/gcclib.c:gcclib:gcc:-O2 -g -gdwarf-4' %s %t.w -- --time-unit=B --detailed-freq=2 --alloc-fn=gl_wrapper
// RUN: %FileCheck %s --check-prefix=WRAP < %t.w/native.txt
// No debug information in the library: "function (in object)".
// RUN: %stacks --lib=Inputs/gcclib.c:gcclib:gcc:-O2 %s %t.n -- --time-unit=B --detailed-freq=2
// RUN: %FileCheck %s --check-prefix=NODEBUG < %t.n/native.txt
// The same code as a static library linked into the instrumented
// executable: its functions lie among frame-pointer code but keep none.
// RUN: %stacks --archive='Inputs/gcclib.c:gcclib:gcc:-O2 -g -gdwarf-4' %s %t.a -- --time-unit=B --detailed-freq=2 --threshold=0.2
// RUN: %FileCheck %s < %t.a/native.txt
// RUN: %FileCheck %s --check-prefix=QSORT < %t.a/native.txt
// Stripped library: "??? (in object)".
// RUN: %stacks --lib='Inputs/gcclib.c:gcclib:gcc:-O2 -s' %s %t.s -- --time-unit=B --detailed-freq=2
// RUN: %FileCheck %s --check-prefix=STRIPPED < %t.s/native.txt
#include <stdlib.h>

void gl_collect(void *(*cb)(int), int n);
void gl_sort(int *v, int n, int (*cmp)(const void *, const void *));
void gl_release(void);
void *gl_wrapper(size_t n);

static void *kept[64];
static int num_kept;

static void *record(int n) { return kept[num_kept++] = malloc((size_t)n); }
static void *callback(int n) { return record(n); }

static int compare(const void *a, const void *b) {
  if (num_kept < 64)
    record(8);
  return *(const int *)a - *(const int *)b;
}

static int values[8] = {5, 3, 7, 1, 8, 2, 6, 4};

int main(void) {
  gl_collect(callback, 6);
  void *w = gl_wrapper(300);
  gl_sort(values, 8, compare);
  gl_release();
  free(w);
  for (int i = 0; i < num_kept; i++)
    free(kept[i]);
  return 0;
}

// CHECK:      record ({{.*}}gcc-library.c:34)
// CHECK-NEXT: callback ({{.*}}gcc-library.c:35)
// CHECK-NEXT: gl_visit ({{.*}}gcclib.c:29)
// CHECK-NEXT: gl_collect ({{.*}}gcclib.c:36)
// CHECK-NEXT: main ({{.*}}gcc-library.c:46)
// QSORT:      compare ({{.*}}gcc-library.c:39)
// QSORT-NEXT: msort_with_tmp.part.0 (msort.c:64)
// QSORT:      qsort_r (msort.c:296)
// QSORT-NEXT: gl_sort ({{.*}}gcclib.c:44)
// QSORT-NEXT: main ({{.*}}gcc-library.c:48)
// STRDUP:      strdup (strdup.c:42)
// STRDUP-NEXT: gl_copy_name ({{.*}}gcclib.c:18)
// STRDUP-NEXT: gl_visit ({{.*}}gcclib.c:28)
// WRAP:       main ({{.*}}gcc-library.c:47)
// NODEBUG:    gl_visit (in {{.*}}libgcclib.so)
// NODEBUG-NEXT: gl_collect (in {{.*}}libgcclib.so)
// STRIPPED:   ??? (in {{.*}}libgcclib.so)
