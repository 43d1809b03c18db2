; Calls in tail position stay jumps. Code generation turns a tail call into
; a jump only when nothing but its return follows it in its block; where
; the return is shared by several paths, CodeGenPrepare first copies it
; into each path that ends in such a call, unless the return's block holds
; anything else. The counters' flush and the exit sled would be that
; anything: so the passes copy the returns themselves, by the same rules
; (a PHI of the call's result, a cast or truncation of it, the end of a
; lifetime on the way, a memcpy's first argument), and put their own code
; before the call. Where code generation would not copy (no tail marker,
; another value returned, a mismatched extension, optnone), neither do
; they.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-stack-probes -S %s \
; RUN:   | %FileCheck %s --check-prefixes=CHECK,PROBES
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -S %s \
; RUN:   | %FileCheck %s --check-prefixes=CHECK,COUNTERS

target triple = "x86_64-unknown-linux-gnu"

declare i64 @f(i64)
declare void @g()
declare i8 @e(i8)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

define i64 @shared(i64 %n) {
; CHECK-LABEL: define i64 @shared(
; CHECK:       rec:
; PROBES:        call void asm sideeffect "1: {{.*}}leave_slot
; COUNTERS:      call void asm sideeffect "addq
; CHECK-NEXT:    %r = tail call i64 @f(i64 %m)
; CHECK-NEXT:    ret i64 %r
; CHECK:       exit:
; CHECK-NOT:     phi
; CHECK:         ret i64 7
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %exit, label %rec
rec:
  %m = add i64 %n, -1
  %r = tail call i64 @f(i64 %m)
  br label %exit
exit:
  %v = phi i64 [ %r, %rec ], [ 7, %entry ]
  ret i64 %v
}

define i32 @truncated(i64 %n) {
; CHECK-LABEL: define i32 @truncated(
; PROBES:        call void asm sideeffect "1: {{.*}}leave_slot
; COUNTERS:      call void asm sideeffect "addq
; CHECK-NEXT:    %r = tail call i64 @f(i64 %n)
; CHECK-NEXT:    %t = trunc i64 %r to i32
; CHECK-NEXT:    ret i32 %t
  %r = tail call i64 @f(i64 %n)
  %t = trunc i64 %r to i32
  ret i32 %t
}

; The block between the calls and the return ends a lifetime: merged into
; the return, then copied into both calls' blocks (the end of a lifetime
; at a return generates nothing).
define void @lifetimes(i1 %c) {
; CHECK-LABEL: define void @lifetimes(
; CHECK:       one:
; PROBES:        call void asm sideeffect "1: {{.*}}leave_slot
; COUNTERS:      call void asm sideeffect "addq
; CHECK-NEXT:    tail call void @g()
; CHECK-NEXT:    ret void
; CHECK:       two:
; PROBES:        call void asm sideeffect "1: {{.*}}leave_slot
; COUNTERS:      call void asm sideeffect "addq
; CHECK-NEXT:    tail call void @g()
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
entry:
  %a = alloca [16 x i8]
  call void @llvm.lifetime.start.p0(i64 16, ptr %a)
  call void @g()
  br i1 %c, label %one, label %two
one:
  tail call void @g()
  br label %mid
two:
  tail call void @g()
  br label %mid
mid:
  call void @llvm.lifetime.end.p0(i64 16, ptr %a)
  br label %exit
exit:
  ret void
}

; memcpy returns its first argument: `return memcpy(d, s, n)` jumps to it.
; (The probes leave such a leaf alone.)
define ptr @first_argument(ptr %d, ptr %s, i64 %n) {
; CHECK-LABEL: define ptr @first_argument(
; COUNTERS:    copy:
; COUNTERS:      call void asm sideeffect "addq
; COUNTERS-NEXT: tail call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
; COUNTERS-NEXT: ret ptr %d
; PROBES-NOT:    asm
; PROBES:        ret ptr %v
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %exit, label %copy
copy:
  tail call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  br label %exit
exit:
  %v = phi ptr [ %d, %copy ], [ %s, %entry ]
  ret ptr %v
}

define i64 @not_tail(i64 %n) {
; CHECK-LABEL: define i64 @not_tail(
; CHECK:         %r = call i64 @f(i64 %n)
; CHECK-NEXT:    br label %exit
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %exit, label %rec
rec:
  %r = call i64 @f(i64 %n)
  br label %exit
exit:
  %v = phi i64 [ %r, %rec ], [ 7, %entry ]
  ret i64 %v
}

define i64 @other_value(i64 %n) {
; CHECK-LABEL: define i64 @other_value(
; CHECK:         %r = tail call i64 @f(i64 %n)
; CHECK-NEXT:    br label %exit
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %exit, label %rec
rec:
  %r = tail call i64 @f(i64 %n)
  br label %exit
exit:
  %v = phi i64 [ %n, %rec ], [ 7, %entry ]
  ret i64 %v
}

; The caller zero-extends its result and the callee does not promise to.
define zeroext i8 @extension(i8 %n) {
; CHECK-LABEL: define zeroext i8 @extension(
; CHECK:         %r = tail call i8 @e(i8 %n)
; CHECK-NEXT:    br label %exit
entry:
  %c = icmp eq i8 %n, 0
  br i1 %c, label %exit, label %rec
rec:
  %r = tail call i8 @e(i8 %n)
  br label %exit
exit:
  %v = phi i8 [ %r, %rec ], [ 7, %entry ]
  ret i8 %v
}

define i64 @unoptimised(i64 %n) noinline optnone {
; CHECK-LABEL: define i64 @unoptimised(
; CHECK:         %r = tail call i64 @f(i64 %n)
; CHECK-NEXT:    br label %exit
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %exit, label %rec
rec:
  %r = tail call i64 @f(i64 %n)
  br label %exit
exit:
  %v = phi i64 [ %r, %rec ], [ 7, %entry ]
  ret i64 %v
}
