; A module that already declares the counter (code that reads it through
; massif/abi.h) keeps its declaration, given the pass's TLS model (here,
; code for an executable: local-exec). A variable of that
; name that is not a thread-local i64 is not the runtime's counter: the
; module gets no counters rather than wrong ones. (The declared case reads
; the counter through llvm.threadlocal.address, which LLVM 14 lacks.)
;
; RUN: split-file %s %t
; RUN: %if !llvm-14 %{ %opt -load-pass-plugin %plugin -passes=massif-counters -S %t/declared.ll \
; RUN:   | %FileCheck %s --check-prefix=DECLARED %}
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -S %t/clash.ll \
; RUN:   | %FileCheck %s --check-prefix=CLASH

;--- declared.ll
target triple = "x86_64-unknown-linux-gnu"

; DECLARED: @__massif_thread_instructions = external thread_local(localexec) global i64, align 8
; DECLARED-NOT: @__massif_thread_instructions{{.*}} =
@__massif_thread_instructions = external thread_local global i64, align 8

define i64 @read() {
; DECLARED-LABEL: define i64 @read(
; DECLARED:         [[N:%.*]] = add i64 0, 6
; DECLARED-NEXT:    %p = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@__massif_thread_instructions)
; DECLARED-NEXT:    %v = load i64, ptr %p
; DECLARED-NEXT:    call void asm sideeffect "addq $0, %fs:__massif_thread_instructions@tpoff", {{.*}}(i64 [[N]])
; DECLARED-NEXT:    ret i64 %v
  %p = call ptr @llvm.threadlocal.address.p0(ptr @__massif_thread_instructions)
  %v = load i64, ptr %p
  ret i64 %v
}

declare ptr @llvm.threadlocal.address.p0(ptr)

;--- clash.ll
target triple = "x86_64-unknown-linux-gnu"

; CLASH: @__massif_thread_instructions = external global i32
; CLASH-NOT: __massif_counters_linked
@__massif_thread_instructions = external global i32

define i32 @f() {
; CLASH-LABEL: define i32 @f(
; CLASH-NEXT:    ret i32 0
; CLASH-NOT:     add i64
  ret i32 0
}
