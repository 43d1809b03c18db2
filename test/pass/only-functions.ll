; -massif-only-functions limits allocation rewriting to the named functions
; (IR names). Frame pointers are still forced everywhere: an unlisted frame
; in the middle of the stack would break the runtime's frame-pointer walk.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif -massif-only-functions=second -S %s \
; RUN:   | %FileCheck %s --check-prefixes=CHECK,SECOND
; RUN: %opt -load-pass-plugin %plugin -passes=massif '-massif-only-functions=first, _Z5thirdv' -S %s \
; RUN:   | %FileCheck %s --check-prefixes=CHECK,FIRST-THIRD
; RUN: %opt -load-pass-plugin %plugin -passes=massif -massif-only-functions= -S %s \
; RUN:   | %FileCheck %s --check-prefixes=CHECK,ALL

target triple = "x86_64-unknown-linux-gnu"

declare ptr @malloc(i64)
declare void @free(ptr)

define ptr @first(i64 %n) {
; CHECK-LABEL: define ptr @first(
; SECOND-NEXT:      call ptr @malloc(i64 %n)
; FIRST-THIRD-NEXT: call ptr @__massif_malloc(i64 %n)
; ALL-NEXT:         call ptr @__massif_malloc(i64 %n)
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

define void @second(ptr %p) {
; CHECK-LABEL: define void @second(
; SECOND-NEXT:      call void @__massif_free(ptr %p)
; FIRST-THIRD-NEXT: call void @free(ptr %p)
; ALL-NEXT:         call void @__massif_free(ptr %p)
  call void @free(ptr %p)
  ret void
}

define ptr @_Z5thirdv() {
; CHECK-LABEL: define ptr @_Z5thirdv(
; SECOND-NEXT:      call ptr @malloc(i64 1)
; FIRST-THIRD-NEXT: call ptr @__massif_malloc(i64 1)
; ALL-NEXT:         call ptr @__massif_malloc(i64 1)
  %p = call ptr @malloc(i64 1)
  ret ptr %p
}

; CHECK-NOT: attributes #{{[0-9]+}} = { {{.*}}"frame-pointer"="none"
; CHECK:     attributes #{{[0-9]+}} = { "frame-pointer"="all" }
; CHECK-NOT: attributes #{{[0-9]+}} = {
