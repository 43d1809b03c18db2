; The runtime's thread-locals (the instruction counter, the stack-probe
; flag) are reached local-exec from code bound for an executable (no PIC
; level, or a PIE level) and initial-exec from -fPIC code, which may go
; into a shared library.
;
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/pie.ll \
; RUN:   | %FileCheck %s --check-prefix=EXE
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/nopic.ll \
; RUN:   | %FileCheck %s --check-prefix=EXE
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/pic.ll \
; RUN:   | %FileCheck %s --check-prefix=DSO

; EXE-DAG: @__massif_thread_instructions = external thread_local(localexec) global i64, align 8
; EXE-DAG: @__massif_stack_probes_on = external thread_local(localexec) global i8, align 1
; DSO-DAG: @__massif_thread_instructions = external thread_local(initialexec) global i64, align 8
; DSO-DAG: @__massif_stack_probes_on = external thread_local(initialexec) global i8, align 1

;--- pie.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @g()
define void @f() {
  call void @g()
  ret void
}
!llvm.module.flags = !{!0, !1}
!0 = !{i32 7, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}

;--- nopic.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @g()
define void @f() {
  call void @g()
  ret void
}

;--- pic.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @g()
define void @f() {
  call void @g()
  ret void
}
!llvm.module.flags = !{!0}
!0 = !{i32 7, !"PIC Level", i32 2}
