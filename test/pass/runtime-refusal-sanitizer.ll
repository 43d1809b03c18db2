; Code built with a sanitizer that replaces malloc (its functions carry
; sanitize_address, sanitize_hwaddress, sanitize_memory or sanitize_thread)
; is refused with an error naming the sanitizer, and left untouched; the
; sanitizer's runtime and massif's cannot share the allocator.
;
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin %plugin -passes=massif -S %t/asan.ll -o %t/asan.out 2>&1 \
; RUN:   | %FileCheck %s --check-prefix=ASAN
; RUN: not %opt -load-pass-plugin %plugin -passes=massif-alloc -S %t/tsan.ll 2>&1 \
; RUN:   | %FileCheck %s --check-prefix=TSAN
; RUN: not %opt -load-pass-plugin %plugin -passes=massif-counters -S %t/msan.ll 2>&1 \
; RUN:   | %FileCheck %s --check-prefix=MSAN
; RUN: not %opt -load-pass-plugin %plugin -passes=massif-stack-probes -S %t/hwasan.ll 2>&1 \
; RUN:   | %FileCheck %s --check-prefix=HWASAN

; ASAN: error: massif: cannot profile code built with -fsanitize=address: the sanitizer replaces malloc and free, and so does massif
; TSAN: error: massif: cannot profile code built with -fsanitize=thread
; MSAN: error: massif: cannot profile code built with -fsanitize=memory
; HWASAN: error: massif: cannot profile code built with -fsanitize=hwaddress

;--- asan.ll
target triple = "x86_64-unknown-linux-gnu"
declare ptr @malloc(i64)
define ptr @f() sanitize_address {
  %p = call ptr @malloc(i64 8)
  ret ptr %p
}

;--- tsan.ll
target triple = "x86_64-unknown-linux-gnu"
declare ptr @malloc(i64)
define ptr @f() sanitize_thread {
  %p = call ptr @malloc(i64 8)
  ret ptr %p
}

;--- msan.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f() sanitize_memory {
  ret void
}

;--- hwasan.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f() sanitize_hwaddress {
  ret void
}
