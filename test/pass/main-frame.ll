; The module that defines main makes it store its frame address into the
; runtime's __massif_main_frame as it starts (after its static allocas),
; once, so the runtime's stack walk can stop at main's frame. The slot is
; defined weak here, so the runtime's definition wins and a program linked
; without the runtime still links. Other functions, a static main and a
; module without main are left alone, and a second run adds nothing.
;
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin %plugin -passes=massif-main-frame -S %t/main.ll \
; RUN:   | %FileCheck %s --check-prefix=MAIN
; RUN: %opt -load-pass-plugin %plugin -passes='massif-main-frame,massif-main-frame' \
; RUN:   -S %t/main.ll | %FileCheck %s --check-prefix=TWICE
; RUN: %opt -load-pass-plugin %plugin -passes=massif-main-frame -S %t/static.ll \
; RUN:   | %FileCheck %s --check-prefix=STATIC
; RUN: %opt -load-pass-plugin %plugin -passes=massif-main-frame -S %t/none.ll \
; RUN:   | %FileCheck %s --check-prefix=NONE

; MAIN: @__massif_main_frame = weak global ptr null
; MAIN-LABEL: define i32 @main(
; MAIN-NEXT:    %slot = alloca i32
; MAIN-NEXT:    [[FP:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; MAIN-NEXT:    store ptr [[FP]], ptr @__massif_main_frame
; MAIN-NEXT:    call void @work()
; MAIN-NOT:     @__massif_main_frame
; MAIN:         ret i32 0
; MAIN-LABEL: define void @work(
; MAIN-NOT:     @__massif_main_frame
; MAIN:         ret void

; TWICE-COUNT-1: store ptr {{%.*}}, ptr @__massif_main_frame
; TWICE-NOT:     store ptr {{%.*}}, ptr @__massif_main_frame

; STATIC-NOT: __massif_main_frame
; NONE-NOT: __massif_main_frame

;--- main.ll
target triple = "x86_64-unknown-linux-gnu"
define i32 @main(i32 %argc, ptr %argv) {
  %slot = alloca i32
  call void @work()
  ret i32 0
}
define void @work() {
  ret void
}

;--- static.ll
target triple = "x86_64-unknown-linux-gnu"
define internal i32 @main() {
  ret i32 0
}

;--- none.ll
target triple = "x86_64-unknown-linux-gnu"
define void @work() {
  ret void
}
