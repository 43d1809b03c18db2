// Through clang++, new- and delete-expressions reach the runtime: plain,
// array, nothrow, over-aligned and sized forms, and a new inside a try block
// stays an invoke.
//
// RUN: %clangxx -std=c++17 -fsized-deallocation -O0 -fpass-plugin=%plugin -S -emit-llvm -o - %s | %FileCheck %s
// RUN: %clangxx -std=c++17 -fsized-deallocation -O2 -fpass-plugin=%plugin -S -emit-llvm -o - %s | %FileCheck %s

#include <new>

void keep(void *);

struct alignas(64) Line {
  char Bytes[64];
};

// CHECK-LABEL: define {{.*}}@_Z6scalarv(
// CHECK:         call {{.*}}ptr @__massif_Znwm(i64 noundef 4)
// CHECK:         call void @__massif_ZdlPvm(ptr {{.*}}, i64 noundef 4)
void scalar() {
  int *P = new int(3);
  keep(P);
  delete P;
}

// CHECK-LABEL: define {{.*}}@_Z5arrayi(
// CHECK:         call {{.*}}ptr @__massif_Znam(i64
// CHECK:         call void @__massif_ZdaPv(ptr
void array(int N) {
  int *P = new int[N];
  keep(P);
  delete[] P;
}

// CHECK-LABEL: define {{.*}}@_Z7nothrowv(
// CHECK:         call {{.*}}ptr @__massif_ZnwmRKSt9nothrow_t(i64 noundef 8, ptr {{.*}}@_ZSt7nothrow)
void nothrow() { keep(new (std::nothrow) long(1)); }

// CHECK-LABEL: define {{.*}}@_Z7alignedv(
// CHECK:         call {{.*}}ptr @__massif_ZnwmSt11align_val_t(i64 noundef 64, i64 noundef 64)
// CHECK:         call void @__massif_ZdlPvmSt11align_val_t(ptr {{.*}}, i64 noundef 64, i64 noundef 64)
void aligned() {
  Line *L = new Line();
  keep(L);
  delete L;
}

// CHECK-LABEL: define {{.*}}@_Z7guardedv(
// CHECK:         invoke {{.*}}ptr @__massif_Znam(i64 noundef 16)
// CHECK-NEXT:      to label %{{.*}} unwind label %{{.*}}
void guarded() {
  try {
    keep(new long[2]);
  } catch (...) {
  }
}

// CHECK-NOT: call {{.*}}@_Zn{{[wa]}}m
// CHECK-NOT: call {{.*}}@_Zd{{[la]}}Pv
