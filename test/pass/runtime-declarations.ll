; Declaring or calling __massif_ functions (a program using the runtime's
; API, or a module the pass already ran on) is not being the runtime: the
; module is instrumented normally, and existing declarations are reused.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK: @__massif_abi_version_1 = external constant i32
; CHECK: @__massif_abi_version_1_ref = linkonce_odr hidden constant ptr @__massif_abi_version_1

@__massif_abi_version_1 = external constant i32

declare ptr @malloc(i64)
declare ptr @__massif_malloc(i64)

define ptr @user(i64 %n) {
; CHECK-LABEL: define ptr @user(
; CHECK-NEXT:    [[A:%.*]] = call ptr @__massif_malloc(i64 %n)
; CHECK-NEXT:    [[I:%.*]] = ptrtoint ptr [[A]] to i64
; CHECK-NEXT:    [[B:%.*]] = call ptr @__massif_malloc(i64 [[I]])
; CHECK-NEXT:    ret ptr [[B]]
  %a = call ptr @__massif_malloc(i64 %n)
  %i = ptrtoint ptr %a to i64
  %b = call ptr @malloc(i64 %i)
  ret ptr %b
}

; CHECK-NOT: @__massif_malloc.
