; A function with an allocator's name but not its prototype (wrong width,
; wrong result, varargs), or a call that reinterprets the callee's
; prototype, is not what the runtime implements: the call is left alone.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare ptr @malloc(i32)
declare i64 @free(ptr)
declare ptr @calloc(...)
declare void @_Znwm(i64)
declare ptr @strdup(ptr)
declare ptr @valloc(i64)

define void @wrong_prototypes(ptr %p) {
; CHECK-LABEL: define void @wrong_prototypes(
; CHECK-NEXT:    [[A:%.*]] = call ptr @malloc(i32 8)
; CHECK-NEXT:    [[B:%.*]] = call i64 @free(ptr %p)
; CHECK-NEXT:    [[C:%.*]] = call ptr (...) @calloc(i64 1, i64 8)
; CHECK-NEXT:    call void @_Znwm(i64 8)
; CHECK-NEXT:    ret void
  %a = call ptr @malloc(i32 8)
  %b = call i64 @free(ptr %p)
  %c = call ptr (...) @calloc(i64 1, i64 8)
  call void @_Znwm(i64 8)
  ret void
}

define void @reinterpreted_call(ptr %s) {
; CHECK-LABEL: define void @reinterpreted_call(
; CHECK-NEXT:    [[A:%.*]] = call ptr @strdup(ptr %s, i64 3)
; CHECK-NEXT:    [[B:%.*]] = call ptr @__massif_valloc(i64 64)
; CHECK-NEXT:    ret void
  %a = call ptr @strdup(ptr %s, i64 3)
  %b = call ptr @valloc(i64 64)
  ret void
}

; The well-formed valloc call above is rewritten; the mismatched functions
; get no entry point.
; CHECK: declare ptr @__massif_valloc(i64)
; CHECK-NOT: declare {{.*}}@__massif_malloc
; CHECK-NOT: declare {{.*}}@__massif_free
; CHECK-NOT: declare {{.*}}@__massif_calloc
; CHECK-NOT: declare {{.*}}@__massif_Znwm
; CHECK-NOT: declare {{.*}}@__massif_strdup
