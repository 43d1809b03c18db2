; Every defined function gets "frame-pointer"="all", whatever it had, so the
; runtime's frame-pointer walk works through all instrumented frames; the
; module flag covers functions code generation adds later. Declarations are
; not touched.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-frame-pointers -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @external() #2
; CHECK: declare void @external() #[[DECL:[0-9]+]]

define void @no_attribute() {
; CHECK-LABEL: define void @no_attribute()
; CHECK-SAME:  #[[FP:[0-9]+]] {
  call void @external()
  ret void
}

define void @omitted() #0 {
; CHECK-LABEL: define void @omitted()
; CHECK-SAME:  #[[FP_OMITTED:[0-9]+]] {
  ret void
}

define void @non_leaf() #1 {
; CHECK-LABEL: define void @non_leaf()
; CHECK-SAME:  #[[FP_NONLEAF:[0-9]+]] {
  call void @external()
  ret void
}

; CHECK-DAG: attributes #[[FP]] = { "frame-pointer"="all" }
; CHECK-DAG: attributes #[[FP_OMITTED]] = { nounwind "frame-pointer"="all" }
; CHECK-DAG: attributes #[[FP_NONLEAF]] = { noinline "frame-pointer"="all" }
; CHECK-DAG: attributes #[[DECL]] = { "frame-pointer"="none" }
; CHECK-DAG: !{i32 7, !"frame-pointer", i32 2}
; CHECK-NOT: "frame-pointer"="non-leaf"

attributes #0 = { nounwind "frame-pointer"="none" }
attributes #1 = { noinline "frame-pointer"="non-leaf" }
attributes #2 = { "frame-pointer"="none" }

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"frame-pointer", i32 0}
