; valgrind.h's amd64 client request (the rol preamble, then xchgq %rbx,%rbx,
; request block in %rax, default and result in %rdx) becomes a call to
; __massif_client_request with the same operands, result and debug
; location. Valgrind's other magic sequences, and look-alikes with other
; constraints, are left alone. -massif-only-functions limits the lowering.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-client-requests -S %s \
; RUN:   | %FileCheck %s
; RUN: %opt -load-pass-plugin %plugin -passes=massif-client-requests \
; RUN:   -massif-only-functions=other -S %s | %FileCheck %s --check-prefix=FILTERED

target triple = "x86_64-unknown-linux-gnu"

define i64 @request(ptr %args, i64 %default) !dbg !5 {
; CHECK-LABEL: define i64 @request(
; CHECK-NEXT:    %r = call i64 @__massif_client_request(ptr %args, i64 %default), !dbg [[LOC:![0-9]+]]
; CHECK-NEXT:    ret i64 %r
; FILTERED-LABEL: define i64 @request(
; FILTERED-NEXT:    %r = call i64 asm sideeffect "rolq
  %r = call i64 asm sideeffect "rolq $$3,  %rdi ; rolq $$13, %rdi\0A\09rolq $$61, %rdi ; rolq $$51, %rdi\0A\09xchgq %rbx,%rbx", "={dx},{ax},0,~{cc},~{memory},~{dirflag},~{fpsr},~{flags}"(ptr %args, i64 %default), !dbg !10
  ret i64 %r
}

; The same request written on one line, with other spacing.
define i64 @respaced(ptr %args) {
; CHECK-LABEL: define i64 @respaced(
; CHECK-NEXT:    %r = call i64 @__massif_client_request(ptr %args, i64 7)
  %r = call i64 asm sideeffect "rolq $$3,%rdi;rolq $$13,%rdi;rolq $$61,%rdi;rolq $$51,%rdi;xchgq %rbx,%rbx", "={dx},{ax},0,~{cc},~{memory}"(ptr %args, i64 7)
  ret i64 %r
}

; VALGRIND_GET_NR_CONTEXT's sequence (xchgq %rcx,%rcx) is not a request.
define i64 @nraddr() {
; CHECK-LABEL: define i64 @nraddr(
; CHECK-NEXT:    %r = call i64 asm sideeffect "rolq
; CHECK-NOT:     __massif_client_request
  %r = call i64 asm sideeffect "rolq $$3,  %rdi ; rolq $$13, %rdi\0A\09rolq $$61, %rdi ; rolq $$51, %rdi\0A\09xchgq %rcx,%rcx", "={ax},~{cc},~{memory},~{dirflag},~{fpsr},~{flags}"()
  ret i64 %r
}

; The request's text with other constraints is not valgrind.h's request.
define i64 @constraints(ptr %args, i64 %default) {
; CHECK-LABEL: define i64 @constraints(
; CHECK-NEXT:    %r = call i64 asm sideeffect "rolq
; CHECK-NOT:     __massif_client_request
  %r = call i64 asm sideeffect "rolq $$3,  %rdi ; rolq $$13, %rdi\0A\09rolq $$61, %rdi ; rolq $$51, %rdi\0A\09xchgq %rbx,%rbx", "={cx},{ax},0,~{cc},~{memory}"(ptr %args, i64 %default)
  ret i64 %r
}

; Other inline assembly is untouched.
define void @plain() {
; CHECK-LABEL: define void @plain(
; CHECK-NEXT:    call void asm sideeffect "nop", ""()
  call void asm sideeffect "nop", ""()
  ret void
}

; CHECK: declare i64 @__massif_client_request(ptr, i64)
; CHECK: [[LOC]] = !DILocation(line: 12, column: 3,
; FILTERED-NOT: __massif_client_request

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "pool.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 4}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "request", scope: !1, file: !1, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!10 = !DILocation(line: 12, column: 3, scope: !5)
