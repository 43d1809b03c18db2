; The combined pass adds stack probes only with -massif-stack-probes, once
; (the marker says a module has them), after the counters (whose counts do
; not include the probes, and whose flushes do not make a leaf a caller),
; only in the functions -massif-only-functions names, and only for x86-64.
;
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin %plugin -passes=massif -S %t/x86.ll \
; RUN:   | %FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin %plugin -passes=massif -massif-stack-probes \
; RUN:   -massif-count-instructions -S %t/x86.ll -o %t/once.ll
; RUN: %FileCheck %s --check-prefixes=ON,ON-ALL < %t/once.ll
; RUN: %opt -load-pass-plugin %plugin -passes=massif,massif -massif-stack-probes \
; RUN:   -massif-count-instructions -S %t/x86.ll -o %t/twice.ll
; RUN: diff %t/once.ll %t/twice.ll
; RUN: %opt -load-pass-plugin %plugin -passes=massif -massif-stack-probes \
; RUN:   -massif-count-instructions -massif-only-functions=probed -S %t/x86.ll \
; RUN:   | %FileCheck %s --check-prefixes=ON,ON-ONLY
; RUN: %opt -load-pass-plugin %plugin -passes=massif -massif-stack-probes -S %t/arm.ll \
; RUN:   | %FileCheck %s --check-prefix=ARM

; OFF-NOT: __massif_stack
; ON: @__massif_stack_probes_linked = linkonce_odr constant i8 1
; ARM-NOT: __massif_stack

;--- x86.ll
target triple = "x86_64-unknown-linux-gnu"

declare void @g()

define i32 @probed(i32 %a) {
; ON-LABEL: define i32 @probed(
; ON:         __massif_stack_sled_enter_slot - .
; ON:         [[N:%.*]] = add i64 0, 6
; ON:         call void asm sideeffect "addq {{.*}}(i64 [[N]])
; ON-NOT:     add i64
; ON:         __massif_stack_sled_leave_slot - .
; ON-NEXT:    ret i32 %x
  %x = add i32 %a, 1
  call void @g()
  ret i32 %x
}

define i32 @maybe_probed(i32 %a) {
; ON-LABEL:    define i32 @maybe_probed(
; ON-ALL:        __massif_stack_sled_enter_slot - .
; ON-ONLY-NOT:   __massif_stack_sled_enter_slot - .
; ON:            ret i32 %x
  %x = mul i32 %a, 3
  call void @g()
  ret i32 %x
}

; OFF-NOT: __massif_stack

; A small leaf stays unprobed after the counters, whose flush before its
; return is inline assembly, not a call.
define i32 @leaf(i32 %a) {
; ON-LABEL:   define i32 @leaf(
; ON-NOT:       __massif_stack_sled
; ON-ALL:       call void asm sideeffect "addq
; ON-NOT:       __massif_stack_sled
; ON:           ret i32 %x
  %x = mul i32 %a, 5
  ret i32 %x
}

;--- arm.ll
target triple = "aarch64-unknown-linux-gnu"

define i32 @f(i32 %a) {
  ret i32 %a
}
