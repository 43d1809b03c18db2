; The runtime's thread-local instruction counter is reached local-exec
; from code bound for an executable (no PIC level, or a PIE level) and
; initial-exec from -fPIC code, which may go into a shared library. On x86-64, local-exec code adds to the counter
; with one inline `addq` at its offset from %fs; elsewhere the add is a
; load and a store.
;
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/pie.ll \
; RUN:   | %FileCheck %s --check-prefix=EXE
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/nopic.ll \
; RUN:   | %FileCheck %s --check-prefix=EXE
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/pic.ll \
; RUN:   | %FileCheck %s --check-prefix=DSO
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -S %t/arm.ll \
; RUN:   | %FileCheck %s --check-prefix=ARM

; EXE-DAG: @__massif_thread_instructions = external thread_local(localexec) global i64, align 8
; DSO-DAG: @__massif_thread_instructions = external thread_local(initialexec) global i64, align 8
; ARM: @__massif_thread_instructions = external thread_local(localexec) global i64, align 8

; EXE-LABEL: define void @f(
; EXE:         call void asm sideeffect "addq $0, %fs:__massif_thread_instructions@tpoff", "re,~{flags},~{dirflag},~{fpsr}"(i64 {{.*}})
; EXE-NEXT:    call void @g()
; DSO-LABEL: define void @f(
; DSO-NOT:     addq
; DSO:         load i64
; DSO:         store i64
; DSO-NEXT:    call void @g()
; ARM-LABEL: define void @f(
; ARM-NOT:     asm
; ARM:         load i64
; ARM:         store i64
; ARM-NEXT:    call void @g()

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

;--- arm.ll
target triple = "aarch64-unknown-linux-gnu"
declare void @g()
define void @f() {
  call void @g()
  ret void
}
