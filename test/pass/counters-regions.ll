; A block's count is added by the first block of its region: the block
; that dominates it, that it post-dominates, and that lies in the same
; innermost loop. Such a block runs exactly as often as its region's
; first block, so one increment serves the region: a straight-line chain,
; the join after an if/else or a switch, the code after a loop, a loop
; body's unconditional code. The arms of a branch, a loop's body against
; the code around the loop, an invoke's destinations and the blocks of an
; irreducible cycle keep their own increments. (optnone functions: each
; region updates the counter itself.)
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @f()
declare i32 @__gxx_personality_v0(...)

; entry (2) -> b (2) -> c (1), and the frame (2 + 1): one increment of 8,
; in entry.
define i32 @chain(i32 %a) #0 {
; CHECK-LABEL: define i32 @chain(
; CHECK-NEXT:  entry:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 8)
; CHECK:       b:
; CHECK-NOT:     call void asm
; CHECK:       c:
; CHECK-NOT:     call void asm
; CHECK:         ret i32
entry:
  %x = add i32 %a, 1
  br label %b
b:
  %y = mul i32 %x, 3
  br label %c
c:
  ret i32 %y
}

; The loop body counts for itself; the exit and the tail after it run once
; with the entry, which adds 3 + 2 + 2.
define void @loop(i32 %n) #0 {
; CHECK-LABEL: define void @loop(
; CHECK-NEXT:  entry:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 7)
; CHECK:       header:
; CHECK-NEXT:    %i = phi
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 4)
; CHECK:       exit:
; CHECK-NOT:     call void asm
; CHECK:       tail:
; CHECK-NOT:     call void asm
; CHECK:         ret void
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i2, %header ]
  call void @f()
  %i2 = add i32 %i, 1
  %d = icmp slt i32 %i2, %n
  br i1 %d, label %header, label %exit
exit:
  call void @f()
  br label %tail
tail:
  ret void
}

; In an outer loop's body, the block after the inner loop belongs to the
; outer header's region, not to the entry's or the inner loop's. The
; conditional arm (skip) counts for itself; the latch after the if-then
; joins the outer header's region too (1 + 2 + 2), and the return after
; the loops the entry's (3 + 2).
define void @nested(i32 %n, i1 %c) #0 {
; CHECK-LABEL: define void @nested(
; CHECK-NEXT:  entry:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 5)
; CHECK:       outer:
; CHECK-NEXT:    %i = phi
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 5)
; CHECK:       inner:
; CHECK-NEXT:    %j = phi
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 4)
; CHECK:       after_inner:
; CHECK-NOT:     call void asm
; CHECK:       skip:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 2)
; CHECK:       latch:
; CHECK-NOT:     call void asm
; CHECK:       done:
; CHECK-NOT:     call void asm
; CHECK:         ret void
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i2, %latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j2, %inner ]
  call void @f()
  %j2 = add i32 %j, 1
  %dj = icmp slt i32 %j2, %n
  br i1 %dj, label %inner, label %after_inner
after_inner:
  %i2 = add i32 %i, 1
  br i1 %c, label %skip, label %latch
skip:
  call void @f()
  br label %latch
latch:
  %di = icmp slt i32 %i2, %n
  br i1 %di, label %outer, label %done
done:
  ret void
}

; Blocks reached from a switch keep their own increments (one: 2, other:
; 1); the return they all reach is the entry's (3 + 2).
define void @switch(i32 %v) #0 {
; CHECK-LABEL: define void @switch(
; CHECK-NEXT:  entry:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 5)
; CHECK:       one:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 2)
; CHECK:       other:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 1)
; CHECK:       end:
; CHECK-NOT:     call void asm
; CHECK:         ret void
entry:
  switch i32 %v, label %other [ i32 1, label %one
                                i32 2, label %one ]
one:
  call void @f()
  br label %end
other:
  br label %end
end:
  ret void
}

; An invoke's normal destination does not run whenever the invoke does:
; the unwind edge may be taken instead. The landing pad's increment goes
; after the landingpad.
define void @invoke() #0 personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @invoke(
; CHECK-NEXT:  entry:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 3)
; CHECK:         invoke void @f()
; CHECK:       ok:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 2)
; CHECK-NEXT:    ret void
; CHECK:       lpad:
; CHECK-NEXT:    landingpad
; CHECK-NEXT:      cleanup
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 2)
; CHECK-NEXT:    resume
entry:
  invoke void @f() to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; A cycle with two entries (a and b) is no loop: b post-dominates the
; entry, which dominates it, yet runs many times for each time the entry
; runs. In a function with such a cycle each block counts for itself.
define void @irreducible(i1 %c, i1 %d) #0 {
; CHECK-LABEL: define void @irreducible(
; CHECK-NEXT:  entry:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 3)
; CHECK:       a:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 2)
; CHECK:       b:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 2)
; CHECK:       out:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 2)
entry:
  br i1 %c, label %a, label %b
a:
  call void @f()
  br label %b
b:
  call void @f()
  br i1 %d, label %a, label %out
out:
  ret void
}

; Unreachable blocks that branch to each other in a cycle have no
; dominators: each counts for itself (and the pass terminates).
define void @unreachable_cycle() #0 {
; CHECK-LABEL: define void @unreachable_cycle(
; CHECK-NEXT:  entry:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 4)
; CHECK:       a:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 2)
; CHECK:       b:
; CHECK:         call void asm sideeffect "addq {{.*}}(i64 1)
entry:
  ret void
a:
  call void @f()
  br label %b
b:
  br label %a
}

attributes #0 = { noinline optnone }
