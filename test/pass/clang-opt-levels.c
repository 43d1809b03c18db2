// Through clang, the plugin runs at every -O level, last in the pipeline:
// the allocations it redirects are those the uninstrumented build at the same
// level makes (at -O1 and above a malloc/free pair that never escapes is
// gone before the pass runs, exactly as without it).
//
// RUN: %clang -O0 -fpass-plugin=%plugin -S -emit-llvm -o - %s | %FileCheck %s --check-prefixes=CHECK,O0 --allow-deprecated-dag-overlap
// RUN: %clang -O1 -fpass-plugin=%plugin -S -emit-llvm -o - %s | %FileCheck %s --check-prefixes=CHECK,OPT --allow-deprecated-dag-overlap
// RUN: %clang -O2 -fpass-plugin=%plugin -S -emit-llvm -o - %s | %FileCheck %s --check-prefixes=CHECK,OPT --allow-deprecated-dag-overlap
// RUN: %clang -O3 -fpass-plugin=%plugin -S -emit-llvm -o - %s | %FileCheck %s --check-prefixes=CHECK,OPT --allow-deprecated-dag-overlap
// Without the plugin, the same program calls the library directly.
// RUN: %clang -O2 -S -emit-llvm -o - %s | %FileCheck %s --check-prefix=NATIVE

#include <stdlib.h>

// CHECK: @__massif_abi_version_1_ref = linkonce_odr hidden constant ptr @__massif_abi_version_1
// NATIVE-NOT: __massif

void *keep(void *);

void *escapes(size_t N) { return keep(malloc(N)); }
// CHECK-LABEL: define {{.*}}@escapes(
// CHECK-SAME:    #[[ESCAPES:[0-9]+]] {
// CHECK:         call {{.*}}ptr @__massif_malloc(i64
// CHECK-NOT:     @malloc(
// CHECK:         ret ptr
// NATIVE-LABEL:  define {{.*}}@escapes(
// NATIVE:        call {{.*}}ptr @malloc(i64

int elided(void) {
  int *P = malloc(sizeof *P);
  *P = 1;
  int R = *P;
  free(P);
  return R;
}
// CHECK-LABEL: define {{.*}}@elided(
// CHECK-SAME:    #[[ELIDED:[0-9]+]] {
// O0:            call {{.*}}ptr @__massif_malloc(i64
// O0:            call void @__massif_free(ptr
// OPT-NOT:       __massif
// OPT:           ret i32 1

// Every defined function keeps its frame pointer, leaf or not. (Clang 14
// also marks declarations, which have no code, "none". The two functions
// may share one attribute group, hence the overlapping DAG matches.)
// CHECK-DAG: attributes #[[ESCAPES]] = { {{.*}}"frame-pointer"="all"
// CHECK-DAG: attributes #[[ELIDED]] = { {{.*}}"frame-pointer"="all"
// CHECK:     !{i32 7, !"frame-pointer", i32 2}
