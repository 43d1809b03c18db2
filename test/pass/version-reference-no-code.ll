; A module that defines no function runs no instrumented code and needs no
; runtime: it gets no version reference.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-version -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK-NOT: __massif_abi_version_1
; CHECK-NOT: llvm.used
; CHECK:     @table = constant [2 x i32] [i32 1, i32 2]
; CHECK-NOT: __massif_abi_version_1
; CHECK-NOT: llvm.used
; CHECK:     declare ptr @malloc(i64)
; CHECK-NOT: __massif_abi_version_1

@table = constant [2 x i32] [i32 1, i32 2]
declare ptr @malloc(i64)
