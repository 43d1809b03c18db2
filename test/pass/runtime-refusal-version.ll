; Defining the ABI version symbol also marks a module as the runtime.
;
; RUN: not %opt -load-pass-plugin %plugin -passes=massif -S %s -o /dev/null 2>&1 | %FileCheck %s

; CHECK: error: massif: refusing to instrument the massif runtime (__massif_abi_version_1)

target triple = "x86_64-unknown-linux-gnu"

@__massif_abi_version_1 = constant i32 1

declare ptr @malloc(i64)

define ptr @helper(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}
