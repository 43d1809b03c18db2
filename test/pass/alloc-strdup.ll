; strdup and strndup allocate too: they are redirected like malloc.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare ptr @strdup(ptr)
declare ptr @strndup(ptr, i64)
declare i64 @strlen(ptr)

define ptr @copy(ptr %s) {
; CHECK-LABEL: define ptr @copy(
; CHECK-NEXT:    [[P:%.*]] = call ptr @__massif_strdup(ptr %s)
; CHECK-NEXT:    ret ptr [[P]]
  %p = call ptr @strdup(ptr %s)
  ret ptr %p
}

define ptr @copy_prefix(ptr %s, i64 %n) {
; CHECK-LABEL: define ptr @copy_prefix(
; CHECK-NEXT:    [[L:%.*]] = call i64 @strlen(ptr %s)
; CHECK-NEXT:    [[P:%.*]] = call ptr @__massif_strndup(ptr %s, i64 %n)
; CHECK-NEXT:    ret ptr [[P]]
  %l = call i64 @strlen(ptr %s)
  %p = call ptr @strndup(ptr %s, i64 %n)
  ret ptr %p
}

; CHECK-DAG: declare ptr @__massif_strdup(ptr)
; CHECK-DAG: declare ptr @__massif_strndup(ptr, i64)
; Non-allocating string functions are not touched.
; CHECK-NOT: @__massif_strlen
