; Each basic block's instruction count is added to the thread's counter as
; the block starts, or as the block starts that it always runs with (its
; region; counters-chains.ll). Instructions that generate no code (PHIs, debug intrinsics,
; lifetime markers) and the counter's own instructions are not counted. The
; frame pointer's set-up adds 2 to the entry block and its tear-down 1 to
; each returning block. A counted module defines the link-once marker the
; runtime looks for. These functions are optnone (-O0), where each block
; updates the thread's counter itself with one `addq $N, %fs:0x80` (the
; thread area of massif/abi.h); counters-promoted.ll tests the promoted
; form of optimised code, which adds the same counts.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-counters -S %s \
; RUN:   | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: $__massif_counters_linked = comdat any
; CHECK-NOT: thread_local
; CHECK: @__massif_counters_linked = linkonce_odr constant i8 1, comdat
; CHECK: @llvm.used = appending global [1 x ptr] [ptr @__massif_counters_linked], section "llvm.metadata"

declare void @use(ptr)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @llvm.dbg.value(metadata, metadata, metadata)

define i32 @straight(i32 %a, i32 %b) #0 {
; CHECK-LABEL: define i32 @straight(
; CHECK-NEXT:    call void asm sideeffect "addq $0, %fs:0x80", "re,~{flags},~{dirflag},~{fpsr}"(i64 6)
; CHECK-NEXT:    %x = add i32 %a, %b
; CHECK-NEXT:    %y = mul i32 %x, %a
; CHECK-NEXT:    ret i32 %y
  %x = add i32 %a, %b
  %y = mul i32 %x, %a
  ret i32 %y
}

; The join runs whenever the entry does: the entry adds both (1 + 2 and 2).
define i32 @diamond(i1 %c, i32 %a) #0 {
; CHECK-LABEL: define i32 @diamond(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void asm sideeffect "addq {{.*}}(i64 5)
; CHECK-NEXT:    br i1 %c
; CHECK:       then:
; CHECK-NEXT:    call void asm sideeffect "addq {{.*}}(i64 2)
; CHECK-NEXT:    %t = shl i32 %a, 1
; CHECK:       else:
; CHECK-NEXT:    call void asm sideeffect "addq {{.*}}(i64 3)
; CHECK-NEXT:    %e = sub i32 0, %a
; CHECK:       join:
; CHECK-NEXT:    %r = phi i32
; CHECK-NEXT:    ret i32 %r
entry:
  br i1 %c, label %then, label %else
then:
  %t = shl i32 %a, 1
  br label %join
else:
  %e = sub i32 0, %a
  %e2 = add i32 %e, 7
  br label %join
join:
  %r = phi i32 [ %t, %then ], [ %e2, %else ]
  ret i32 %r
}

; An alloca, a call and a return count (3, and 3 for the frame); two
; lifetime markers and a dbg.value do not.
define void @markers(i32 %v) #0 !dbg !5 {
; CHECK-LABEL: define void @markers(
; CHECK-NEXT:    %buf = alloca [16 x i8]
; CHECK-NEXT:    call void asm sideeffect "addq {{.*}}(i64 6)
; CHECK-NOT:     call void asm
; CHECK:         ret void
  %buf = alloca [16 x i8]
  call void @llvm.lifetime.start.p0(i64 16, ptr %buf)
  call void @llvm.dbg.value(metadata i32 %v, metadata !9, metadata !DIExpression()), !dbg !10
  call void @use(ptr %buf)
  call void @llvm.lifetime.end.p0(i64 16, ptr %buf)
  ret void
}

; Declarations get no counter; nor does a naked function, which has no room
; for code besides its own.
; CHECK: define void @bare() #[[NAKED:[0-9]+]] {
; CHECK-NEXT: call void asm sideeffect "ret", ""()
; CHECK-NEXT: unreachable
define void @bare() naked {
  call void asm sideeffect "ret", ""()
  unreachable
}

; CHECK: attributes #[[NAKED]] = { naked }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "markers.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 4}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "markers", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "v", arg: 1, scope: !5, file: !1, line: 1, type: !8)
!10 = !DILocation(line: 1, column: 1, scope: !5)

attributes #0 = { noinline optnone }
