; Every operator new / new[] form in massif/abi.h (plain, nothrow, aligned,
; aligned nothrow) is redirected to its __massif_ entry point.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

%"struct.std::nothrow_t" = type { i8 }
@_ZSt7nothrow = external global %"struct.std::nothrow_t", align 1

declare ptr @_Znwm(i64)
declare ptr @_Znam(i64)
declare ptr @_ZnwmRKSt9nothrow_t(i64, ptr)
declare ptr @_ZnamRKSt9nothrow_t(i64, ptr)
declare ptr @_ZnwmSt11align_val_t(i64, i64)
declare ptr @_ZnamSt11align_val_t(i64, i64)
declare ptr @_ZnwmSt11align_val_tRKSt9nothrow_t(i64, i64, ptr)
declare ptr @_ZnamSt11align_val_tRKSt9nothrow_t(i64, i64, ptr)
declare void @sink(ptr)

define void @plain(i64 %n) {
; CHECK-LABEL: define void @plain(
; CHECK-NEXT:    [[A:%.*]] = call ptr @__massif_Znwm(i64 %n)
; CHECK-NEXT:    call void @sink(ptr [[A]])
; CHECK-NEXT:    [[B:%.*]] = call ptr @__massif_Znam(i64 %n)
; CHECK-NEXT:    call void @sink(ptr [[B]])
; CHECK-NEXT:    ret void
  %a = call ptr @_Znwm(i64 %n)
  call void @sink(ptr %a)
  %b = call ptr @_Znam(i64 %n)
  call void @sink(ptr %b)
  ret void
}

define void @nothrow(i64 %n) {
; CHECK-LABEL: define void @nothrow(
; CHECK-NEXT:    [[A:%.*]] = call ptr @__massif_ZnwmRKSt9nothrow_t(i64 %n, ptr @_ZSt7nothrow)
; CHECK-NEXT:    call void @sink(ptr [[A]])
; CHECK-NEXT:    [[B:%.*]] = call ptr @__massif_ZnamRKSt9nothrow_t(i64 %n, ptr @_ZSt7nothrow)
; CHECK-NEXT:    call void @sink(ptr [[B]])
; CHECK-NEXT:    ret void
  %a = call ptr @_ZnwmRKSt9nothrow_t(i64 %n, ptr @_ZSt7nothrow)
  call void @sink(ptr %a)
  %b = call ptr @_ZnamRKSt9nothrow_t(i64 %n, ptr @_ZSt7nothrow)
  call void @sink(ptr %b)
  ret void
}

define void @aligned(i64 %n) {
; CHECK-LABEL: define void @aligned(
; CHECK-NEXT:    [[A:%.*]] = call ptr @__massif_ZnwmSt11align_val_t(i64 %n, i64 64)
; CHECK-NEXT:    call void @sink(ptr [[A]])
; CHECK-NEXT:    [[B:%.*]] = call ptr @__massif_ZnamSt11align_val_t(i64 %n, i64 64)
; CHECK-NEXT:    call void @sink(ptr [[B]])
; CHECK-NEXT:    [[C:%.*]] = call ptr @__massif_ZnwmSt11align_val_tRKSt9nothrow_t(i64 %n, i64 32, ptr @_ZSt7nothrow)
; CHECK-NEXT:    call void @sink(ptr [[C]])
; CHECK-NEXT:    [[D:%.*]] = call ptr @__massif_ZnamSt11align_val_tRKSt9nothrow_t(i64 %n, i64 32, ptr @_ZSt7nothrow)
; CHECK-NEXT:    call void @sink(ptr [[D]])
; CHECK-NEXT:    ret void
  %a = call ptr @_ZnwmSt11align_val_t(i64 %n, i64 64)
  call void @sink(ptr %a)
  %b = call ptr @_ZnamSt11align_val_t(i64 %n, i64 64)
  call void @sink(ptr %b)
  %c = call ptr @_ZnwmSt11align_val_tRKSt9nothrow_t(i64 %n, i64 32, ptr @_ZSt7nothrow)
  call void @sink(ptr %c)
  %d = call ptr @_ZnamSt11align_val_tRKSt9nothrow_t(i64 %n, i64 32, ptr @_ZSt7nothrow)
  call void @sink(ptr %d)
  ret void
}

; CHECK-NOT: call ptr @_Zn
