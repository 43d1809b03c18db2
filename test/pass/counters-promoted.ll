; Optimised code (not optnone) keeps its count in a local, a register after
; promotion, and adds it to the thread's counter only where the runtime
; may read it: before the first call of a block that may reach the runtime
; (not intrinsics, not inline assembly), before returns, resumes and
; unreachables, and never where it is known to be zero. Where a zero count
; leaves a loop into a merge, the other sides flush on their way in (at
; their end, or on the edge when they also branch elsewhere; never on a
; loop's back edge), so no count lives across the loop's calls.
;
; The counter is at a fixed offset from %fs (counter-address.ll), and a
; flush is one instruction, written as inline assembly.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -S %s \
; RUN:   | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @f()
declare i64 @strlen(ptr)
declare double @floor(double)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i32 @__gxx_personality_v0(...)

; A loop without calls touches no thread-local: the count is a phi, added
; once at the return. The block after the loop runs whenever the entry
; does, which adds its count (3 and 2).
define i32 @sum(ptr %p, i32 %n) {
; CHECK-LABEL: define i32 @sum(
; CHECK:       entry:
; CHECK-NEXT:    [[E:%.*]] = add i64 0, 5
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NEXT:    [[ACC:%.*]] = phi i64 [ [[E]], %entry ], [ [[NEXT:%.*]], %loop ]
; CHECK-NOT:     %fs:0x80
; CHECK:         [[NEXT]] = add i64 [[ACC]], 6
; CHECK-NOT:     %fs:0x80
; CHECK:       done:
; CHECK-NEXT:    call void asm sideeffect "addq $0, %fs:0x80", "re,~{flags},~{dirflag},~{fpsr}"(i64 [[NEXT]])
; CHECK-NEXT:    ret i32 %s2
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s2, %loop ]
  %q = getelementptr i32, ptr %p, i32 %i
  %v = load i32, ptr %q
  %s2 = add i32 %s, %v
  %i2 = add i32 %i, 1
  %d = icmp slt i32 %i2, %n
  br i1 %d, label %loop, label %done
done:
  ret i32 %s2
}

; One flush, before the first real call; none for the intrinsic, the
; inline assembly, the second call, or the return after them.
define void @calls(ptr %p) {
; CHECK-LABEL: define void @calls(
; CHECK-NEXT:    [[N:%.*]] = add i64 0, 9
; CHECK-NEXT:    call void @llvm.memset
; CHECK-NEXT:    call void asm sideeffect "nop"
; CHECK-NEXT:    call void asm sideeffect "addq {{.*}}(i64 [[N]])
; CHECK-NEXT:    call void @f()
; CHECK-NEXT:    call void @f()
; CHECK-NEXT:    br label %after
; CHECK:       after:
; CHECK-NEXT:    ret void
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 8, i1 false)
  call void asm sideeffect "nop", ""()
  call void @f()
  call void @f()
  br label %after
after:
  ret void
}

; C library functions that neither allocate nor call back (strlen, floor)
; cannot reach the runtime: the count goes on past them, as past an
; intrinsic, and is flushed before @f only.
define double @quiet(ptr %p, double %x) {
; CHECK-LABEL: define double @quiet(
; CHECK-NOT:     %fs:0x80
; CHECK:         call i64 @strlen(ptr %p)
; CHECK-NOT:     %fs:0x80
; CHECK:         call double @floor(double %x)
; CHECK-NEXT:    call void asm sideeffect "addq
; CHECK-NEXT:    call void @f()
; CHECK-NEXT:    ret double
  %n = call i64 @strlen(ptr %p)
  %y = call double @floor(double %x)
  call void @f()
  ret double %y
}

; Where a loop whose calls leave the count at zero exits into a merge, the
; other side flushes before its branch, so the merged count is 0 and not a
; register kept across the loop's calls.
define void @merge(i1 %c, i32 %n) {
; CHECK-LABEL: define void @merge(
; CHECK:       loop:
; CHECK:         call void asm sideeffect "addq
; CHECK-NEXT:    call void @f()
; CHECK:       quiet:
; CHECK-NEXT:    [[Q:%.*]] = add i64 {{%.*}}, 2
; CHECK-NEXT:    %x = add i32 1, 2
; CHECK-NEXT:    call void asm sideeffect "addq {{.*}}(i64 [[Q]])
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NOT:     phi
; CHECK-NEXT:    ret void
entry:
  br i1 %c, label %loop, label %quiet
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  call void @f()
  %i2 = add i32 %i, 1
  %d = icmp slt i32 %i2, %n
  br i1 %d, label %loop, label %join
quiet:
  %x = add i32 1, 2
  br label %join
join:
  ret void
}

; The same merge reached from a loop's latch, which also branches back:
; the latch's count is flushed on the exit edge, in a block of its own, so
; the loop adds to the thread's counter only on its calling side and not
; on every iteration.
define void @latch_exit(ptr %p, i32 %n) {
; CHECK-LABEL: define void @latch_exit(
; CHECK:       latch:
; CHECK-NOT:     %fs:0x80
; CHECK:         br i1 %d, label %head, label %[[EDGE:.*]]
; CHECK:       [[EDGE]]:
; CHECK-NEXT:    call void asm sideeffect "addq
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    ret void
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i2, %latch ]
  %v = load i32, ptr %p
  %c = icmp eq i32 %v, 0
  br i1 %c, label %calls, label %latch
calls:
  call void @f()
  %stop = icmp eq i32 %i, 7
  br i1 %stop, label %join, label %latch
latch:
  %i2 = add i32 %i, 1
  %d = icmp slt i32 %i2, %n
  br i1 %d, label %head, label %join
join:
  ret void
}

; A switch that reaches the merge by two cases: both go through one block,
; which flushes.
define void @switch_exit(ptr %p, i32 %n) {
; CHECK-LABEL: define void @switch_exit(
; CHECK:       latch:
; CHECK-NOT:     %fs:0x80
; CHECK:         switch i32 %i2, label %head [
; CHECK-NEXT:      i32 7, label %[[EDGE:.*]]
; CHECK-NEXT:      i32 9, label %[[EDGE]]
; CHECK-NEXT:    ]
; CHECK:       [[EDGE]]:
; CHECK-NEXT:    call void asm sideeffect "addq
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    ret void
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i2, %latch ]
  %v = load i32, ptr %p
  %c = icmp eq i32 %v, 0
  br i1 %c, label %calls, label %latch
calls:
  call void @f()
  %stop = icmp eq i32 %i, %n
  br i1 %stop, label %join, label %latch
latch:
  %i2 = add i32 %i, 1
  switch i32 %i2, label %head [ i32 7, label %join
                                i32 9, label %join ]
join:
  ret void
}

; Inside a loop (an interpreter's dispatch), a quiet side that merges with
; a calling one keeps its count in the register: no flush until the
; calling side's call or the return.
define void @in_loop(i32 %n) {
; CHECK-LABEL: define void @in_loop(
; CHECK:       quiet:
; CHECK-NOT:     %fs:0x80
; CHECK:         br label %join
; CHECK:       join:
; CHECK-NEXT:    phi i64
; CHECK-NOT:     %fs:0x80
; CHECK:       done:
; CHECK:         %fs:0x80
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i2, %join ]
  %odd = trunc i32 %i to i1
  br i1 %odd, label %callside, label %quiet
callside:
  call void @f()
  br label %join
quiet:
  %x = add i32 %i, 2
  br label %join
join:
  %i2 = add i32 %i, 1
  %d = icmp slt i32 %i2, %n
  br i1 %d, label %head, label %done
done:
  ret void
}

; An invoke flushes before it; a landing pad counts afresh and flushes
; before resume.
define void @invokes() personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @invokes(
; CHECK:         call void asm sideeffect "addq
; CHECK-NEXT:    invoke void @f()
; CHECK:       lpad:
; CHECK:         [[L:%.*]] = add i64 0, 2
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 [[L]])
; CHECK-NEXT:    resume
entry:
  invoke void @f() to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; Nothing comes between a musttail call and its return.
define void @must() {
; CHECK-LABEL: define void @must(
; CHECK:         call void asm sideeffect "addq
; CHECK-NEXT:    musttail call void @must()
; CHECK-NEXT:    ret void
  musttail call void @must()
  ret void
}
