; Stack probes: after the prologue and before each return, a sled: a
; six-byte no-op, listed in the section __massif_stack_sleds with the
; image's slot it calls through once the runtime patches it (--stacks=yes).
; The sled takes the frame address, which keeps it inside the frame, and
; clobbers what the hook may (R11 and the flags). A probed function gets
; no red zone: a patched sled is a call. One constructor per image
; registers the section. A small leaf (it calls nothing but intrinsics,
; and its static frame is at most 256 bytes) is not probed.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-stack-probes -S %s \
; RUN:   | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

$inline_fn = comdat any

; CHECK: $inline_fn = comdat any
; CHECK: $massif.register_stack_sleds = comdat any
; CHECK: $__massif_stack_sled_enter_slot = comdat any
; CHECK: $__massif_stack_sled_leave_slot = comdat any
; CHECK: $__massif_stack_probes_linked = comdat any
; CHECK: @__massif_stack_sled_enter_slot = linkonce_odr hidden global ptr @__massif_stack_sled_enter, comdat
; CHECK: @__massif_stack_sled_leave_slot = linkonce_odr hidden global ptr @__massif_stack_sled_leave, comdat
; CHECK: @llvm.compiler.used = appending global [2 x ptr] [ptr @__massif_stack_sled_enter_slot, ptr @__massif_stack_sled_leave_slot], section "llvm.metadata"
; CHECK: @__start___massif_stack_sleds = external hidden constant i8
; CHECK: @__stop___massif_stack_sleds = external hidden constant i8
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 100, ptr @massif.register_stack_sleds, ptr @massif.register_stack_sleds }]
; CHECK: @__massif_stack_probes_linked = linkonce_odr constant i8 1, comdat
; CHECK: @llvm.used = appending global [1 x ptr] [ptr @__massif_stack_probes_linked], section "llvm.metadata"
; CHECK-NOT: __massif_stack_probes_on

declare i32 @g(i32)
declare void @use(ptr)

define i32 @plain(i32 %a) {
; CHECK-LABEL: define i32 @plain(
; CHECK-SAME:    #[[PROBED:[0-9]+]] {
; CHECK-NEXT:    [[FA:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void asm sideeffect "1: .byte 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00\0A\09.pushsection __massif_stack_sleds,\22a\22,@progbits\0A\09.p2align 2\0A\09.long 1b - .\0A\09.long __massif_stack_sled_enter_slot - .\0A\09.popsection", "r,~{r11},~{dirflag},~{fpsr},~{flags}"(ptr [[FA]])
; CHECK-NEXT:    %x = call i32 @g(i32 %a)
; CHECK-NEXT:    [[XFA:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void asm sideeffect "1: .byte 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00\0A\09.pushsection __massif_stack_sleds,\22a\22,@progbits\0A\09.p2align 2\0A\09.long 1b - .\0A\09.long __massif_stack_sled_leave_slot - .\0A\09.popsection", "r,~{r11},~{dirflag},~{fpsr},~{flags}"(ptr [[XFA]])
; CHECK-NEXT:    ret i32 %x
  %x = call i32 @g(i32 %a)
  ret i32 %x
}

; The entry sled goes after the static allocas, even one that follows
; other code, and after -O0-style stores of the arguments.
define void @allocas(i32 %a) {
; CHECK-LABEL: define void @allocas(
; CHECK-NEXT:    %slot = alloca i32, align 4
; CHECK-NEXT:    store i32 %a, ptr %slot, align 4
; CHECK-NEXT:    %buf = alloca [64 x i8], align 1
; CHECK-NEXT:    store i32 7, ptr %slot, align 4
; CHECK-NEXT:    call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void asm sideeffect "{{.*}}__massif_stack_sled_enter_slot - .{{.*}}"
; CHECK-NEXT:    call void @use(ptr %buf)
  %slot = alloca i32
  store i32 %a, ptr %slot
  %buf = alloca [64 x i8]
  store i32 7, ptr %slot
  call void @use(ptr %buf)
  ret void
}

; A sibling call stays next to its return: the exit probe goes before it.
; A tail-marked call whose result is not returned is not one.
define i32 @sibling(i32 %a) {
; CHECK-LABEL: define i32 @sibling(
; CHECK:         call void asm sideeffect "{{.*}}__massif_stack_sled_leave_slot - .{{.*}}"
; CHECK-NEXT:    %r = tail call i32 @g(i32 %a)
; CHECK-NEXT:    ret i32 %r
  %r = tail call i32 @g(i32 %a)
  ret i32 %r
}

define i32 @not_sibling(i32 %a) {
; CHECK-LABEL: define i32 @not_sibling(
; CHECK:         %r = tail call i32 @g(i32 %a)
; CHECK:         call void asm sideeffect "{{.*}}__massif_stack_sled_leave_slot - .{{.*}}"
; CHECK-NEXT:    ret i32 0
  %r = tail call i32 @g(i32 %a)
  ret i32 0
}

define i32 @must(i32 %a) {
; CHECK-LABEL: define i32 @must(
; CHECK:         call void asm sideeffect "{{.*}}__massif_stack_sled_leave_slot - .{{.*}}"
; CHECK-NEXT:    %r = musttail call i32 @must(i32 %a)
; CHECK-NEXT:    ret i32 %r
  %r = musttail call i32 @must(i32 %a)
  ret i32 %r
}

; Every return gets its probe.
define i32 @two_returns(i1 %c) {
; CHECK-LABEL: define i32 @two_returns(
; CHECK:         __massif_stack_sled_enter_slot
; CHECK-COUNT-2: __massif_stack_sled_leave_slot
; CHECK-NOT:     __massif_stack_sled_{{enter|leave}}_slot
; CHECK:         ret i32 2
entry:
  call void @use(ptr null)
  br i1 %c, label %one, label %two
one:
  ret i32 1
two:
  ret i32 2
}

; -O0 code: the exit probe goes before the load of the return value, so
; that the value does not live across it.
define i32 @at_O0(i32 %a) noinline optnone {
; CHECK-LABEL: define i32 @at_O0(
; CHECK-NEXT:    %retval = alloca i32, align 4
; CHECK-NEXT:    store i32 %a, ptr %retval, align 4
; CHECK-NEXT:    call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void asm sideeffect "{{.*}}__massif_stack_sled_enter_slot - .{{.*}}"
; CHECK-NEXT:    call void @use(ptr %retval)
; CHECK-NEXT:    call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void asm sideeffect "{{.*}}__massif_stack_sled_leave_slot - .{{.*}}"
; CHECK-NEXT:    %r = load i32, ptr %retval, align 4
; CHECK-NEXT:    ret i32 %r
  %retval = alloca i32
  store i32 %a, ptr %retval
  call void @use(ptr %retval)
  %r = load i32, ptr %retval
  ret i32 %r
}

; Small leaves are not probed: nothing else can happen on the thread while
; they run. Intrinsics do not count as calls; 256 bytes of locals are
; small; a bigger frame, or a dynamic one, is probed.
define i32 @small_leaf(i32 %a) {
; CHECK-LABEL: define i32 @small_leaf(i32 %a) {
; CHECK-NOT:     __massif_stack_sled
; CHECK:         ret i32 %x
  %buf = alloca [256 x i8]
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 256, i1 false)
  %x = add i32 %a, 1
  ret i32 %x
}

define i32 @big_leaf(i32 %a) {
; CHECK-LABEL: define i32 @big_leaf(
; CHECK-SAME:    #[[PROBED]] {
; CHECK:         __massif_stack_sled_enter_slot
; CHECK:         __massif_stack_sled_leave_slot
; CHECK:         ret i32 %a
  %buf = alloca [257 x i8]
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 257, i1 false)
  ret i32 %a
}

define i32 @dynamic_leaf(i64 %n) {
; CHECK-LABEL: define i32 @dynamic_leaf(
; CHECK:         __massif_stack_sled_enter_slot
; CHECK:         __massif_stack_sled_leave_slot
; CHECK:         ret i32 0
  %buf = alloca i8, i64 %n
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 %n, i1 false)
  ret i32 0
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; A function in a comdat group (an inline function, a template instance):
; its entries join the group, so that they go with the copies the linker
; discards.
define linkonce_odr i32 @inline_fn(i32 %a) comdat {
; CHECK-LABEL: define linkonce_odr i32 @inline_fn(
; CHECK:         call void asm sideeffect "{{.*}}.pushsection __massif_stack_sleds,\22aG\22,@progbits,\22inline_fn\22,comdat{{.*}}__massif_stack_sled_enter_slot - .{{.*}}"
; CHECK:         call void asm sideeffect "{{.*}}.pushsection __massif_stack_sleds,\22aG\22,@progbits,\22inline_fn\22,comdat{{.*}}__massif_stack_sled_leave_slot - .{{.*}}"
  call void @use(ptr null)
  ret i32 %a
}

; A naked function has no room for probes; declarations get none.
define void @bare() naked {
; CHECK-LABEL: define void @bare(
; CHECK-NEXT:    call void asm sideeffect "ret", ""()
; CHECK-NEXT:    unreachable
  call void asm sideeffect "ret", ""()
  unreachable
}

; CHECK: declare void @__massif_stack_sled_enter()
; CHECK: declare void @__massif_stack_sled_leave()
; CHECK: define linkonce_odr hidden void @massif.register_stack_sleds() comdat {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @__massif_register_stack_sleds(ptr @__start___massif_stack_sleds, ptr @__stop___massif_stack_sleds)
; CHECK-NEXT:    ret void
; CHECK: attributes #[[PROBED]] = { noredzone }
