; Direct calls to each C allocation function listed in massif/abi.h become
; calls to its __massif_ entry point, same arguments, same result; the
; declarations of the entry points have the library functions' prototypes.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare ptr @reallocarray(ptr, i64, i64)
declare void @free(ptr)
declare ptr @memalign(i64, i64)
declare i32 @posix_memalign(ptr, i64, i64)
declare ptr @aligned_alloc(i64, i64)
declare ptr @valloc(i64)
declare ptr @pvalloc(i64)

define ptr @use_malloc(i64 %n) {
; CHECK-LABEL: define ptr @use_malloc(
; CHECK-NEXT:    [[P:%.*]] = call ptr @__massif_malloc(i64 %n)
; CHECK-NEXT:    ret ptr [[P]]
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

define ptr @use_calloc(i64 %n) {
; CHECK-LABEL: define ptr @use_calloc(
; CHECK-NEXT:    [[P:%.*]] = call ptr @__massif_calloc(i64 %n, i64 8)
; CHECK-NEXT:    ret ptr [[P]]
  %p = call ptr @calloc(i64 %n, i64 8)
  ret ptr %p
}

define ptr @use_realloc(ptr %old, i64 %n) {
; CHECK-LABEL: define ptr @use_realloc(
; CHECK-NEXT:    [[P:%.*]] = call ptr @__massif_realloc(ptr %old, i64 %n)
; CHECK-NEXT:    [[Q:%.*]] = call ptr @__massif_reallocarray(ptr [[P]], i64 %n, i64 4)
; CHECK-NEXT:    ret ptr [[Q]]
  %p = call ptr @realloc(ptr %old, i64 %n)
  %q = call ptr @reallocarray(ptr %p, i64 %n, i64 4)
  ret ptr %q
}

define void @use_free(ptr %p) {
; CHECK-LABEL: define void @use_free(
; CHECK-NEXT:    call void @__massif_free(ptr %p)
; CHECK-NOT:     call void @free
; CHECK:         ret void
  call void @free(ptr %p)
  ret void
}

define i32 @use_aligned(ptr %out, i64 %n) {
; CHECK-LABEL: define i32 @use_aligned(
; CHECK-NEXT:    [[A:%.*]] = call ptr @__massif_memalign(i64 64, i64 %n)
; CHECK-NEXT:    [[B:%.*]] = call ptr @__massif_aligned_alloc(i64 32, i64 %n)
; CHECK-NEXT:    [[C:%.*]] = call ptr @__massif_valloc(i64 %n)
; CHECK-NEXT:    [[D:%.*]] = call ptr @__massif_pvalloc(i64 %n)
; CHECK-NEXT:    [[R:%.*]] = call i32 @__massif_posix_memalign(ptr %out, i64 16, i64 %n)
; CHECK-NEXT:    ret i32 [[R]]
  %a = call ptr @memalign(i64 64, i64 %n)
  %b = call ptr @aligned_alloc(i64 32, i64 %n)
  %c = call ptr @valloc(i64 %n)
  %d = call ptr @pvalloc(i64 %n)
  %r = call i32 @posix_memalign(ptr %out, i64 16, i64 %n)
  ret i32 %r
}

; Each entry point is declared once, with its library function's prototype.
; CHECK-DAG: declare ptr @__massif_malloc(i64)
; CHECK-DAG: declare ptr @__massif_calloc(i64, i64)
; CHECK-DAG: declare ptr @__massif_realloc(ptr, i64)
; CHECK-DAG: declare ptr @__massif_reallocarray(ptr, i64, i64)
; CHECK-DAG: declare void @__massif_free(ptr)
; CHECK-DAG: declare ptr @__massif_memalign(i64, i64)
; CHECK-DAG: declare i32 @__massif_posix_memalign(ptr, i64, i64)
; CHECK-DAG: declare ptr @__massif_aligned_alloc(i64, i64)
; CHECK-DAG: declare ptr @__massif_valloc(i64)
; CHECK-DAG: declare ptr @__massif_pvalloc(i64)
