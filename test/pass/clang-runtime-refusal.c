// Compiling the runtime with the plugin stops with an ordinary compiler
// error, not a crash.
//
// RUN: not %clang -O2 -fpass-plugin=%plugin -c %s -o %t.o 2>&1 | %FileCheck %s
//
// CHECK: error: massif: refusing to instrument the massif runtime (__massif_free)
// CHECK-NOT: PLEASE submit

void free(void *);

void __massif_free(void *P) { free(P); }
