; An instrumented module references the runtime's ABI version symbol through
; a hidden link-once constant kept by @llvm.used, so it cannot link against a
; missing or mismatched runtime. Running the pass twice adds it once.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-version -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin %plugin -passes=massif-version,massif-version -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK:      $__massif_abi_version_1_ref = comdat any
; CHECK-NOT:  comdat any
; CHECK:      @existing = global i32 0
; CHECK-NEXT: @__massif_abi_version_1 = external constant i32
; CHECK-NEXT: @__massif_abi_version_1_ref = linkonce_odr hidden constant ptr @__massif_abi_version_1, comdat
; CHECK-NEXT: @llvm.used = appending global [2 x ptr] [ptr @existing, ptr @__massif_abi_version_1_ref], section "llvm.metadata"
; CHECK-NOT:  @__massif_abi_version_1_ref =

@existing = global i32 0
@llvm.used = appending global [1 x ptr] [ptr @existing], section "llvm.metadata"

define i32 @main() {
; CHECK-LABEL: define i32 @main(
; CHECK-NEXT:    ret i32 0
  ret i32 0
}
