; The thread's instruction counter is a word at a fixed offset from the
; thread pointer (the thread area of massif/abi.h), not a TLS variable: a
; program without TLS of its own keeps its native TLS modules, so every
; thread's DTV has its native size. The same `addq` reaches it from code
; bound for an executable (no PIC level, or a PIE level) and from -fPIC
; code, which may go into a shared library. The area is glibc's on x86-64:
; elsewhere the pass adds no counters (and no marker, so the runtime's
; clock falls back to milliseconds).
;
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/pie.ll \
; RUN:   | %FileCheck %s --check-prefix=X86
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/nopic.ll \
; RUN:   | %FileCheck %s --check-prefix=X86
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters,massif-stack-probes -S %t/pic.ll \
; RUN:   | %FileCheck %s --check-prefix=X86
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -S %t/arm.ll \
; RUN:   | %FileCheck %s --check-prefix=ARM

; X86-NOT:     thread_local
; X86:       @__massif_counters_linked = linkonce_odr constant i8 1
; X86-NOT:     thread_local
; X86-LABEL: define void @f(
; X86:         call void asm sideeffect "addq $0, %fs:0x80", "re,~{flags},~{dirflag},~{fpsr}"(i64 {{.*}})
; X86-NEXT:    call void @g()

; ARM-NOT:     __massif_counters_linked
; ARM-LABEL: define void @f(
; ARM-NEXT:    call void @g()
; ARM-NEXT:    ret void
; ARM-NOT:     __massif_counters_linked

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
