; The combined pass does all its parts, and running it on its own output
; changes nothing (a module built twice through the plugin, or a module that
; was already instrumented, stays as it is).
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif -S %s -o %t.once
; RUN: %opt -load-pass-plugin %plugin -passes=massif,massif -S %s -o %t.twice
; RUN: diff %t.once %t.twice
; RUN: %FileCheck %s < %t.once
; RUN: %opt -load-pass-plugin %plugin -passes=massif -massif-count-instructions -S %s -o %t.counted
; RUN: %opt -load-pass-plugin %plugin -passes=massif,massif -massif-count-instructions -S %s -o %t.counted-twice
; RUN: diff %t.counted %t.counted-twice
; RUN: %FileCheck %s --check-prefix=COUNTED < %t.counted

target triple = "x86_64-unknown-linux-gnu"

; CHECK: @__massif_abi_version_1_ref = linkonce_odr hidden constant ptr @__massif_abi_version_1, comdat
; CHECK: @llvm.used = appending global [1 x ptr] [ptr @__massif_abi_version_1_ref]

declare ptr @_Znwm(i64)
declare void @_ZdlPvm(ptr, i64)

define void @roundtrip() {
; CHECK-LABEL: define void @roundtrip()
; CHECK-SAME:    #[[ATTRS:[0-9]+]] {
; COUNTED-LABEL: define void @roundtrip()
; COUNTED:         [[N:%.*]] = add i64 0, 6
; COUNTED:         call void asm sideeffect "addq {{.*}}(i64 [[N]])
; COUNTED-NOT:     add i64
; COUNTED:         ret void
; CHECK-NEXT:    [[P:%.*]] = call ptr @__massif_Znwm(i64 8)
; CHECK-NEXT:    call void @__massif_ZdlPvm(ptr [[P]], i64 8)
; CHECK-NEXT:    ret void
  %p = call ptr @_Znwm(i64 8)
  call void @_ZdlPvm(ptr %p, i64 8)
  ret void
}

; CHECK: attributes #[[ATTRS]] = { "frame-pointer"="all" }
