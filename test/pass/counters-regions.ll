; A block whose only predecessor ends in an unconditional branch to it runs
; exactly when that predecessor does: its count is added, once, by the head
; of the chain. Blocks with several predecessors, loop headers, successors of
; conditional branches, switches and invokes keep their own increment.
; (optnone functions: each block updates the counter itself.)
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
; CHECK:         add i64 {{%.*}}, 8
; CHECK:       b:
; CHECK-NOT:     add i64
; CHECK:       c:
; CHECK-NOT:     add i64
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

; The loop header has two predecessors; the exit block hangs off a
; conditional branch; the tail block is chained to the exit block.
define void @loop(i32 %n) #0 {
; CHECK-LABEL: define void @loop(
; CHECK-NEXT:  entry:
; CHECK:         add i64 {{%.*}}, 3
; CHECK:       header:
; CHECK-NEXT:    %i = phi
; CHECK:         add i64 {{%.*}}, 4
; CHECK:       exit:
; CHECK:         add i64 {{%.*}}, 4
; CHECK:       tail:
; CHECK-NOT:     add i64
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

; A block reached only from a switch, even twice, keeps its own increment.
define void @switch(i32 %v) #0 {
; CHECK-LABEL: define void @switch(
; CHECK-NEXT:  entry:
; CHECK:         add i64 {{%.*}}, 3
; CHECK:       one:
; CHECK:         add i64 {{%.*}}, 3
; CHECK:       other:
; CHECK:         add i64 {{%.*}}, 2
entry:
  switch i32 %v, label %other [ i32 1, label %one
                                i32 2, label %one ]
one:
  call void @f()
  ret void
other:
  ret void
}

; An invoke's normal destination is not chained to it: the unwind edge may
; be taken instead. The landing pad's increment goes after the landingpad.
define void @invoke() #0 personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @invoke(
; CHECK-NEXT:  entry:
; CHECK:         add i64 {{%.*}}, 3
; CHECK:         invoke void @f()
; CHECK:       ok:
; CHECK:         add i64 {{%.*}}, 2
; CHECK-NEXT:    store
; CHECK-NEXT:    ret void
; CHECK:       lpad:
; CHECK-NEXT:    landingpad
; CHECK-NEXT:      cleanup
; CHECK:         add i64 {{%.*}}, 2
; CHECK-NEXT:    store
; CHECK-NEXT:    resume
entry:
  invoke void @f() to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; Unreachable blocks that branch to each other in a cycle are chain links
; with no head: each counts for itself (and the pass terminates).
define void @unreachable_cycle() #0 {
; CHECK-LABEL: define void @unreachable_cycle(
; CHECK-NEXT:  entry:
; CHECK:         add i64 {{%.*}}, 4
; CHECK:       a:
; CHECK:         add i64 {{%.*}}, 2
; CHECK:       b:
; CHECK:         add i64 {{%.*}}, 1
entry:
  ret void
a:
  call void @f()
  br label %b
b:
  br label %a
}

attributes #0 = { noinline optnone }
