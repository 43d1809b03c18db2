; A module that defines its own allocator function (a custom malloc) calls
; that, not libc's: its calls are left alone. Only declarations, resolved by
; the linker to the real library, are redirected.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@arena = internal global [4096 x i8] zeroinitializer

define ptr @malloc(i64 %n) {
  ret ptr @arena
}

declare void @free(ptr)

define void @user(i64 %n) {
; CHECK-LABEL: define void @user(
; CHECK-NEXT:    [[P:%.*]] = call ptr @malloc(i64 %n)
; CHECK-NEXT:    call void @__massif_free(ptr [[P]])
; CHECK-NEXT:    ret void
  %p = call ptr @malloc(i64 %n)
  call void @free(ptr %p)
  ret void
}

; CHECK-NOT: @__massif_malloc
