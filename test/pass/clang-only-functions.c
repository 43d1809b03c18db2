// With clang, -massif-only-functions goes through -mllvm. Clang parses -mllvm
// before it loads -fpass-plugin libraries, so the plugin must also be loaded
// with -fplugin for its options to exist by then.
//
// RUN: %clang -O1 -fplugin=%plugin -fpass-plugin=%plugin -mllvm -massif-only-functions=wanted \
// RUN:   -S -emit-llvm -o - %s | %FileCheck %s

#include <stdlib.h>

void *keep(void *);

// CHECK-LABEL: define {{.*}}@wanted(
// CHECK:         call {{.*}}@__massif_malloc(
void *wanted(size_t N) { return keep(malloc(N)); }

// CHECK-LABEL: define {{.*}}@unwanted(
// CHECK:         call {{.*}}@malloc(
// CHECK-NOT:     __massif_malloc
// CHECK:         ret ptr
void *unwanted(size_t N) { return keep(malloc(N)); }
