; Calls through a pointer, and uses of an allocator as a value (stored,
; passed, selected, even as the argument of a call that has the allocator's
; own prototype) are left alone: the runtime's interposed malloc/free catch
; those calls at run time. Direct calls next to them are rewritten.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@allocator = global ptr @malloc
; CHECK: @allocator = global ptr @malloc

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare void @free(ptr)
declare void @register_hooks(ptr, ptr)
declare void @set_deallocator(ptr)

define ptr @through_pointer(i64 %n) {
; CHECK-LABEL: define ptr @through_pointer(
; CHECK-NEXT:    [[FP:%.*]] = load ptr, ptr @allocator
; CHECK-NEXT:    [[P:%.*]] = call ptr [[FP]](i64 %n)
; CHECK-NEXT:    ret ptr [[P]]
  %fp = load ptr, ptr @allocator
  %p = call ptr %fp(i64 %n)
  ret ptr %p
}

define ptr @selected(i1 %c, i64 %n) {
; CHECK-LABEL: define ptr @selected(
; CHECK-NEXT:    [[FP:%.*]] = select i1 %c, ptr @malloc, ptr @valloc_like
; CHECK-NEXT:    [[P:%.*]] = call ptr [[FP]](i64 %n)
; CHECK-NEXT:    ret ptr [[P]]
  %fp = select i1 %c, ptr @malloc, ptr @valloc_like
  %p = call ptr %fp(i64 %n)
  ret ptr %p
}

define void @passed_as_value(i64 %n) {
; CHECK-LABEL: define void @passed_as_value(
; CHECK-NEXT:    call void @register_hooks(ptr @malloc, ptr @free)
; CHECK-NEXT:    call void @set_deallocator(ptr @free)
; CHECK-NEXT:    [[P:%.*]] = call ptr @__massif_malloc(i64 %n)
; CHECK-NEXT:    call void @__massif_free(ptr [[P]])
; CHECK-NEXT:    ret void
  call void @register_hooks(ptr @malloc, ptr @free)
  call void @set_deallocator(ptr @free)
  %p = call ptr @malloc(i64 %n)
  call void @free(ptr %p)
  ret void
}

; An allocator passed to itself: only the callee operand is redirected.
define ptr @malloc_as_argument() {
; CHECK-LABEL: define ptr @malloc_as_argument(
; CHECK-NEXT:    [[P:%.*]] = call ptr @__massif_calloc(i64 ptrtoint (ptr @calloc to i64), i64 1)
; CHECK-NEXT:    ret ptr [[P]]
  %p = call ptr @calloc(i64 ptrtoint (ptr @calloc to i64), i64 1)
  ret ptr %p
}

define ptr @valloc_like(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}
