; The combined pass adds counters only with -massif-count-instructions, and
; -massif-only-functions limits them like the allocation rewriting.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif -S %s \
; RUN:   | %FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin %plugin -passes=massif -massif-count-instructions -S %s \
; RUN:   | %FileCheck %s --check-prefixes=ON,ON-ALL
; RUN: %opt -load-pass-plugin %plugin -passes=massif -massif-count-instructions \
; RUN:   -massif-only-functions=counted -S %s | %FileCheck %s --check-prefixes=ON,ON-ONLY

target triple = "x86_64-unknown-linux-gnu"

; OFF-NOT: %fs:0x80
; OFF-NOT: __massif_counters_linked
; ON: @__massif_counters_linked = linkonce_odr constant i8 1

define i32 @counted(i32 %a) {
; OFF-LABEL: define i32 @counted(
; OFF-NEXT:    %x = add i32 %a, 1
; ON-LABEL:  define i32 @counted(
; ON:          [[N:%.*]] = add i64 0, 5
; ON-NEXT:     %x = add i32 %a, 1
; ON:          call void asm sideeffect "addq $0, %fs:0x80", {{.*}}(i64 [[N]])
; ON-NEXT:     ret i32 %x
  %x = add i32 %a, 1
  ret i32 %x
}

define i32 @maybe_counted(i32 %a) {
; OFF-LABEL:     define i32 @maybe_counted(
; OFF-NEXT:        %x = mul i32 %a, 3
; ON-LABEL:      define i32 @maybe_counted(
; ON-ALL:          add i64 0, 5
; ON-ALL-NEXT:     %x = mul i32 %a, 3
; ON-ONLY-NEXT:    %x = mul i32 %a, 3
  %x = mul i32 %a, 3
  ret i32 %x
}

; OFF-NOT: %fs:0x80
