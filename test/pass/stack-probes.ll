; Stack probes: after the prologue and before each return, a test of the
; thread's flag and, when set, a call to the runtime, enter or leave, with
; the stack pointer and the caller's (the address of the return address
; plus 8). The hook is preserve_all, so the cold call costs the
; function no register. -O0 (optnone) code calls the hook unconditionally.
; A small leaf (it calls nothing but intrinsics, and its static frame is
; at most 256 bytes) is not probed.
; LLVM 16 and later reach the flag through llvm.threadlocal.address.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-stack-probes -S %s \
; RUN:   | %FileCheck %s --check-prefixes=CHECK,LLVM%llvm_major

target triple = "x86_64-unknown-linux-gnu"

; CHECK: $__massif_stack_probes_linked = comdat any
; CHECK: @__massif_stack_probes_on = external thread_local(localexec) global i8, align 1
; CHECK: @__massif_stack_probes_linked = linkonce_odr constant i8 1, comdat
; CHECK: @llvm.used = appending global [1 x ptr] [ptr @__massif_stack_probes_linked], section "llvm.metadata"

declare i32 @g(i32)
declare void @use(ptr)

define i32 @plain(i32 %a) {
; CHECK-LABEL: define i32 @plain(
; LLVM19-NEXT:   [[FA:%.*]] = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@__massif_stack_probes_on)
; LLVM19-NEXT:   [[ON:%.*]] = load i8, ptr [[FA]], align 1
; LLVM14-NEXT:   [[ON:%.*]] = load i8, ptr @__massif_stack_probes_on, align 1
; CHECK-NEXT:    [[C:%.*]] = icmp ne i8 [[ON]], 0
; CHECK-NEXT:    br i1 [[C]], label %[[PROBE:.*]], label %[[BODY:.*]], !prof [[UNLIKELY:![0-9]+]]
; CHECK:       [[PROBE]]:
; CHECK-NEXT:    [[SP:%.*]] = call ptr @llvm.stacksave{{(.p0)?}}()
; CHECK-NEXT:    [[ERA:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    [[ECALLER:%.*]] = getelementptr i8, ptr [[ERA]], i64 8
; CHECK-NEXT:    call preserve_allcc void @__massif_stack_enter(ptr [[SP]], ptr [[ECALLER]])
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       [[BODY]]:
; CHECK-NEXT:    %x = call i32 @g(i32 %a)
; LLVM19-NEXT:   [[FA2:%.*]] = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@__massif_stack_probes_on)
; LLVM19-NEXT:   [[ON2:%.*]] = load i8, ptr [[FA2]], align 1
; LLVM14-NEXT:   [[ON2:%.*]] = load i8, ptr @__massif_stack_probes_on, align 1
; CHECK-NEXT:    [[C2:%.*]] = icmp ne i8 [[ON2]], 0
; CHECK-NEXT:    br i1 [[C2]], label %[[XPROBE:.*]], label %[[RET:.*]], !prof [[UNLIKELY]]
; CHECK:       [[XPROBE]]:
; CHECK-NEXT:    [[XSP:%.*]] = call ptr @llvm.stacksave{{(.p0)?}}()
; CHECK-NEXT:    [[RA:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    [[CALLER:%.*]] = getelementptr i8, ptr [[RA]], i64 8
; CHECK-NEXT:    call preserve_allcc void @__massif_stack_leave(ptr [[XSP]], ptr [[CALLER]])
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       [[RET]]:
; CHECK-NEXT:    ret i32 %x
  %x = call i32 @g(i32 %a)
  ret i32 %x
}

; Static allocas stay in the entry block, before the probe's split, even
; one that follows other code; so do -O0-style stores of the arguments.
define void @allocas(i32 %a) {
; CHECK-LABEL: define void @allocas(
; CHECK-NEXT:    %slot = alloca i32, align 4
; CHECK-NEXT:    store i32 %a, ptr %slot, align 4
; CHECK-NEXT:    %buf = alloca [64 x i8], align 1
; CHECK-NEXT:    store i32 7, ptr %slot, align 4
; LLVM19-NEXT:   call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@__massif_stack_probes_on)
; LLVM14-NEXT:   load i8, ptr @__massif_stack_probes_on
; CHECK:         call preserve_allcc void @__massif_stack_enter(
; CHECK:         call void @use(ptr %buf)
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
; CHECK:         call ptr @llvm.addressofreturnaddress.p0()
; CHECK:         call preserve_allcc void @__massif_stack_leave(
; CHECK-NEXT:    br label %[[TAIL:.*]]
; CHECK:       [[TAIL]]:
; CHECK-NEXT:    %r = tail call i32 @g(i32 %a)
; CHECK-NEXT:    ret i32 %r
  %r = tail call i32 @g(i32 %a)
  ret i32 %r
}

define i32 @not_sibling(i32 %a) {
; CHECK-LABEL: define i32 @not_sibling(
; CHECK:         %r = tail call i32 @g(i32 %a)
; CHECK:         call ptr @llvm.addressofreturnaddress.p0()
; CHECK:         ret i32 0
  %r = tail call i32 @g(i32 %a)
  ret i32 0
}

define i32 @must(i32 %a) {
; CHECK-LABEL: define i32 @must(
; CHECK:         call ptr @llvm.addressofreturnaddress.p0()
; CHECK:         call preserve_allcc void @__massif_stack_leave(
; CHECK-NEXT:    br label %[[TAIL:.*]]
; CHECK:       [[TAIL]]:
; CHECK-NEXT:    %r = musttail call i32 @must(i32 %a)
; CHECK-NEXT:    ret i32 %r
  %r = musttail call i32 @must(i32 %a)
  ret i32 %r
}

; Every return gets its probe.
define i32 @two_returns(i1 %c) {
; CHECK-LABEL: define i32 @two_returns(
; CHECK:         call preserve_allcc void @__massif_stack_enter(
; CHECK-COUNT-2: call preserve_allcc void @__massif_stack_leave(
; CHECK-NOT:     @__massif_stack_{{enter|leave}}(
; CHECK:         ret i32 2
entry:
  call void @use(ptr null)
  br i1 %c, label %one, label %two
one:
  ret i32 1
two:
  ret i32 2
}

; -O0 code: the hook is called unconditionally (it tests the flag itself),
; so no value lives across a branch the fast register allocator would
; spill. The exit probe goes before the load of the return value.
define i32 @at_O0(i32 %a) noinline optnone {
; CHECK-LABEL: define i32 @at_O0(
; CHECK-NEXT:    %retval = alloca i32, align 4
; CHECK-NEXT:    store i32 %a, ptr %retval, align 4
; CHECK-NEXT:    [[SP:%.*]] = call ptr @llvm.stacksave{{(.p0)?}}()
; CHECK-NEXT:    [[ERA:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    [[ECALLER:%.*]] = getelementptr i8, ptr [[ERA]], i64 8
; CHECK-NEXT:    call preserve_allcc void @__massif_stack_enter(ptr [[SP]], ptr [[ECALLER]])
; CHECK-NEXT:    call void @use(ptr %retval)
; CHECK-NEXT:    [[XSP:%.*]] = call ptr @llvm.stacksave{{(.p0)?}}()
; CHECK-NEXT:    [[RA:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    [[CALLER:%.*]] = getelementptr i8, ptr [[RA]], i64 8
; CHECK-NEXT:    call preserve_allcc void @__massif_stack_leave(ptr [[XSP]], ptr [[CALLER]])
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
; CHECK-LABEL: define i32 @small_leaf(
; CHECK-NOT:     @__massif_stack_{{enter|leave}}(
; CHECK:         ret i32 %x
  %buf = alloca [256 x i8]
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 256, i1 false)
  %x = add i32 %a, 1
  ret i32 %x
}

define i32 @big_leaf(i32 %a) {
; CHECK-LABEL: define i32 @big_leaf(
; CHECK:         call preserve_allcc void @__massif_stack_enter(
; CHECK:         call preserve_allcc void @__massif_stack_leave(
; CHECK:         ret i32 %a
  %buf = alloca [257 x i8]
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 257, i1 false)
  ret i32 %a
}

define i32 @dynamic_leaf(i64 %n) {
; CHECK-LABEL: define i32 @dynamic_leaf(
; CHECK:         call preserve_allcc void @__massif_stack_enter(
; CHECK:         call preserve_allcc void @__massif_stack_leave(
; CHECK:         ret i32 0
  %buf = alloca i8, i64 %n
  call void @llvm.memset.p0.i64(ptr %buf, i8 0, i64 %n, i1 false)
  ret i32 0
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; A naked function has no room for probes; declarations get none.
define void @bare() naked {
; CHECK-LABEL: define void @bare(
; CHECK-NEXT:    call void asm sideeffect "ret", ""()
; CHECK-NEXT:    unreachable
  call void asm sideeffect "ret", ""()
  unreachable
}

; CHECK: declare preserve_allcc void @__massif_stack_enter(ptr, ptr)
; CHECK: declare preserve_allcc void @__massif_stack_leave(ptr, ptr)
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048576}
