; The layout form (-massif-counters-keep-layout, MSCC_COUNTERS=layout):
; optimised code keeps the direct form, one `addq $N, %fs:0x80` per region
; and no promoted local, so no phi of the count reaches code generation; and
; unconditional branches, getelementptrs and pointer casts are not counted
; there, so that a block made only of them (here %join, between the first
; call of grow and the loop) gets no add and stays empty, as in the plain
; build, where the machine-level tail merging then makes the two calls of
; grow one. -O0 (optnone) code counts as always.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -massif-counters-keep-layout -S %s \
; RUN:   | %FileCheck %s --check-prefix=LAYOUT
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -S %s \
; RUN:   | %FileCheck %s --check-prefix=PROMOTED

target triple = "x86_64-unknown-linux-gnu"

declare i32 @grow(ptr)
declare i32 @convert(ptr, ptr)

define void @append(ptr %pool, ptr %s) {
; LAYOUT-LABEL: define void @append(
; LAYOUT-NOT:     phi i64
; LAYOUT-NOT:     alloca
; LAYOUT:       entry:
; LAYOUT-NEXT:    call void asm sideeffect "addq $0, %fs:0x80", "re,~{flags},~{dirflag},~{fpsr}"(i64 7)
; LAYOUT:       first:
; LAYOUT-NEXT:    call void asm sideeffect "addq {{.*}}(i64 3)
; LAYOUT-NEXT:    %g0 = call i32 @grow(ptr %pool)
; LAYOUT:       join:
; LAYOUT-NEXT:    %fn = getelementptr inbounds i8, ptr %pool, i64 24
; LAYOUT-NEXT:    br label %loop
; LAYOUT:       loop:
; LAYOUT-NEXT:    call void asm sideeffect "addq {{.*}}(i64 3)
; LAYOUT:       more:
; LAYOUT-NEXT:    call void asm sideeffect "addq {{.*}}(i64 3)
; LAYOUT-NEXT:    %g1 = call i32 @grow(ptr %pool)
; LAYOUT:       fail:
; LAYOUT-NEXT:    call void asm sideeffect "addq {{.*}}(i64 1)
; LAYOUT-NEXT:    store i32 1, ptr %pool
; LAYOUT-NOT:     phi i64
;
; The default form: the count is a phi, %join adds its 2 (a getelementptr
; and a branch) to it, and a zero arrives from each call's flush.
; PROMOTED-LABEL: define void @append(
; PROMOTED:       join:
; PROMOTED-NEXT:    %massif.count.0 = phi i64 [ 0, %first ], [ %0, %entry ]
; PROMOTED-NEXT:    add i64 %massif.count.0, 2
; PROMOTED:       loop:
; PROMOTED-NEXT:    phi i64 [ %{{[0-9]+}}, %join ], [ 0, %more ]
entry:
  %ptr = load ptr, ptr %pool
  %empty = icmp eq ptr %ptr, null
  br i1 %empty, label %first, label %join

first:
  %g0 = call i32 @grow(ptr %pool)
  %ok0 = icmp ne i32 %g0, 0
  br i1 %ok0, label %join, label %fail

join:
  %fn = getelementptr inbounds i8, ptr %pool, i64 24
  br label %loop

loop:
  %r = call i32 @convert(ptr %fn, ptr %s)
  %done = icmp ult i32 %r, 2
  br i1 %done, label %exit, label %more

more:
  %g1 = call i32 @grow(ptr %pool)
  %ok1 = icmp ne i32 %g1, 0
  br i1 %ok1, label %loop, label %fail

fail:
  store i32 1, ptr %pool
  br label %exit

exit:
  ret void
}

; -O0: the getelementptr and the branch count, as without the option: 3
; and the frame's 2 in the entry, the return and its pop in %next, 7.
define i32 @at_o0(ptr %p) #0 {
; LAYOUT-LABEL: define i32 @at_o0(
; LAYOUT-NEXT:    call void asm sideeffect "addq {{.*}}(i64 7)
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %v = load i32, ptr %q
  br label %next

next:
  ret i32 %v
}

attributes #0 = { noinline optnone }
