; A module that defines a __massif_ function is the runtime: every pass
; refuses it with an error (not a crash) and leaves it alone.
;
; RUN: not %opt -load-pass-plugin %plugin -passes=massif -S %s -o /dev/null 2>&1 | %FileCheck %s
; RUN: not %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s -o /dev/null 2>&1 | %FileCheck %s
; RUN: not %opt -load-pass-plugin %plugin -passes=massif-frame-pointers -S %s -o /dev/null 2>&1 | %FileCheck %s
; RUN: not %opt -load-pass-plugin %plugin -passes=massif-version -S %s -o /dev/null 2>&1 | %FileCheck %s

; CHECK: error: massif: refusing to instrument the massif runtime (__massif_malloc)
; CHECK-NOT: Stack dump
; CHECK-NOT: PLEASE submit

target triple = "x86_64-unknown-linux-gnu"

declare ptr @malloc(i64)

define ptr @__massif_malloc(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}
