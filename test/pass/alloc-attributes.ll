; Only the callee changes: tail-call markers, call attributes, debug
; locations and metadata stay. Attributes that name the callee an allocator
; to the optimiser (allockind, "alloc-family", builtin, allocptr) are
; dropped, so later pipelines (LTO) cannot delete the call; facts that stay
; true (noalias, allocsize, memory effects) are kept.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s
;
; allockind, allocptr and memory() are LLVM 15/16 attributes:
; alloc-attributes-llvm14.ll is this test in LLVM 14's words.
; UNSUPPORTED: llvm-14

target triple = "x86_64-unknown-linux-gnu"

declare noalias ptr @malloc(i64 noundef) #0
declare void @free(ptr allocptr nocapture noundef) #1
declare noalias nonnull ptr @_Znwm(i64 noundef) #2

define ptr @tail_malloc(i64 %n) !dbg !5 {
; CHECK-LABEL: define ptr @tail_malloc(
; CHECK-NEXT:    [[P:%.*]] = tail call noalias ptr @__massif_malloc(i64 noundef %n) #[[SIZE:[0-9]+]], !dbg [[LOC:![0-9]+]], !heapallocsite
; CHECK-NEXT:    ret ptr [[P]]
  %p = tail call noalias ptr @malloc(i64 noundef %n) #3, !dbg !8, !heapallocsite !9
  ret ptr %p
}

define ptr @musttail_malloc(i64 %n) {
; CHECK-LABEL: define ptr @musttail_malloc(
; CHECK-NEXT:    [[P:%.*]] = musttail call ptr @__massif_malloc(i64 %n)
; CHECK-NEXT:    ret ptr [[P]]
  %p = musttail call ptr @malloc(i64 %n)
  ret ptr %p
}

define void @notail_free(ptr %p) {
; CHECK-LABEL: define void @notail_free(
; CHECK-NEXT:    notail call void @__massif_free(ptr %p)
; CHECK-NEXT:    ret void
  notail call void @free(ptr %p)
  ret void
}

define ptr @builtin_new() {
; CHECK-LABEL: define ptr @builtin_new(
; CHECK-NEXT:    [[P:%.*]] = call noalias nonnull ptr @__massif_Znwm(i64 noundef 16) #[[NEWSITE:[0-9]+]]
; CHECK-NEXT:    ret ptr [[P]]
  %p = call noalias nonnull ptr @_Znwm(i64 noundef 16) #4
  ret ptr %p
}

; The entry points' declarations keep the library functions' parameter and
; return attributes, minus allocptr.
; CHECK: declare noalias ptr @__massif_malloc(i64 noundef) #[[MALLOCDECL:[0-9]+]]
; CHECK: declare void @__massif_free(ptr nocapture noundef) #[[FREEDECL:[0-9]+]]
; CHECK: declare noalias nonnull ptr @__massif_Znwm(i64 noundef) #[[NEWDECL:[0-9]+]]

; CHECK-DAG: attributes #[[MALLOCDECL]] = { nounwind allocsize(0) memory(inaccessiblemem: readwrite) }
; CHECK-DAG: attributes #[[FREEDECL]] = { nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) }
; CHECK-DAG: attributes #[[NEWDECL]] = { nobuiltin allocsize(0) }
; CHECK-DAG: attributes #[[SIZE]] = { allocsize(0) }
; CHECK-DAG: attributes #[[NEWSITE]] = { cold allocsize(0) }

; CHECK: [[LOC]] = !DILocation(line: 3, column: 12,

attributes #0 = { nounwind allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" }
attributes #1 = { nounwind allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" }
attributes #2 = { nobuiltin allocsize(0) }
attributes #3 = { allocsize(0) }
attributes #4 = { builtin cold allocsize(0) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "alloc.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 4}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "tail_malloc", scope: !1, file: !1, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 3, column: 12, scope: !5)
!9 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
