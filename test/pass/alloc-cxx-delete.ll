; Every operator delete / delete[] form in massif/abi.h (plain, sized,
; nothrow, aligned, sized aligned, aligned nothrow) is redirected to its
; __massif_ entry point.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

%"struct.std::nothrow_t" = type { i8 }
@_ZSt7nothrow = external global %"struct.std::nothrow_t", align 1

declare void @_ZdlPv(ptr)
declare void @_ZdaPv(ptr)
declare void @_ZdlPvm(ptr, i64)
declare void @_ZdaPvm(ptr, i64)
declare void @_ZdlPvRKSt9nothrow_t(ptr, ptr)
declare void @_ZdaPvRKSt9nothrow_t(ptr, ptr)
declare void @_ZdlPvSt11align_val_t(ptr, i64)
declare void @_ZdaPvSt11align_val_t(ptr, i64)
declare void @_ZdlPvmSt11align_val_t(ptr, i64, i64)
declare void @_ZdaPvmSt11align_val_t(ptr, i64, i64)
declare void @_ZdlPvSt11align_val_tRKSt9nothrow_t(ptr, i64, ptr)
declare void @_ZdaPvSt11align_val_tRKSt9nothrow_t(ptr, i64, ptr)

define void @plain_and_sized(ptr %p) {
; CHECK-LABEL: define void @plain_and_sized(
; CHECK-NEXT:    call void @__massif_ZdlPv(ptr %p)
; CHECK-NEXT:    call void @__massif_ZdaPv(ptr %p)
; CHECK-NEXT:    call void @__massif_ZdlPvm(ptr %p, i64 24)
; CHECK-NEXT:    call void @__massif_ZdaPvm(ptr %p, i64 48)
; CHECK-NEXT:    ret void
  call void @_ZdlPv(ptr %p)
  call void @_ZdaPv(ptr %p)
  call void @_ZdlPvm(ptr %p, i64 24)
  call void @_ZdaPvm(ptr %p, i64 48)
  ret void
}

define void @nothrow(ptr %p) {
; CHECK-LABEL: define void @nothrow(
; CHECK-NEXT:    call void @__massif_ZdlPvRKSt9nothrow_t(ptr %p, ptr @_ZSt7nothrow)
; CHECK-NEXT:    call void @__massif_ZdaPvRKSt9nothrow_t(ptr %p, ptr @_ZSt7nothrow)
; CHECK-NEXT:    ret void
  call void @_ZdlPvRKSt9nothrow_t(ptr %p, ptr @_ZSt7nothrow)
  call void @_ZdaPvRKSt9nothrow_t(ptr %p, ptr @_ZSt7nothrow)
  ret void
}

define void @aligned(ptr %p) {
; CHECK-LABEL: define void @aligned(
; CHECK-NEXT:    call void @__massif_ZdlPvSt11align_val_t(ptr %p, i64 64)
; CHECK-NEXT:    call void @__massif_ZdaPvSt11align_val_t(ptr %p, i64 64)
; CHECK-NEXT:    call void @__massif_ZdlPvmSt11align_val_t(ptr %p, i64 128, i64 64)
; CHECK-NEXT:    call void @__massif_ZdaPvmSt11align_val_t(ptr %p, i64 256, i64 64)
; CHECK-NEXT:    call void @__massif_ZdlPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 32, ptr @_ZSt7nothrow)
; CHECK-NEXT:    call void @__massif_ZdaPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 32, ptr @_ZSt7nothrow)
; CHECK-NEXT:    ret void
  call void @_ZdlPvSt11align_val_t(ptr %p, i64 64)
  call void @_ZdaPvSt11align_val_t(ptr %p, i64 64)
  call void @_ZdlPvmSt11align_val_t(ptr %p, i64 128, i64 64)
  call void @_ZdaPvmSt11align_val_t(ptr %p, i64 256, i64 64)
  call void @_ZdlPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 32, ptr @_ZSt7nothrow)
  call void @_ZdaPvSt11align_val_tRKSt9nothrow_t(ptr %p, i64 32, ptr @_ZSt7nothrow)
  ret void
}

; CHECK-NOT: call void @_Zd
