; An invoke of a throwing operator new stays an invoke, with the same normal
; and unwind destinations, so std::bad_alloc still reaches the handler.
;
; RUN: %opt -load-pass-plugin %plugin -passes=massif-alloc -S %s | %FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare ptr @_Znwm(i64)
declare ptr @_ZnwmSt11align_val_t(i64, i64)
declare void @_ZdlPv(ptr)
declare i32 @__gxx_personality_v0(...)

define ptr @guarded(i64 %n) personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define ptr @guarded(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[P:%.*]] = invoke ptr @__massif_Znwm(i64 %n)
; CHECK-NEXT:            to label %[[OK:.*]] unwind label %[[LPAD:.*]]
; CHECK:       [[OK]]:
; CHECK-NEXT:    [[Q:%.*]] = invoke ptr @__massif_ZnwmSt11align_val_t(i64 %n, i64 64)
; CHECK-NEXT:            to label %[[OK2:.*]] unwind label %[[LPAD2:.*]]
; CHECK:       [[OK2]]:
; CHECK-NEXT:    ret ptr [[Q]]
; CHECK:       [[LPAD]]:
; CHECK-NEXT:    landingpad { ptr, i32 }
; CHECK-NEXT:            catch ptr null
; CHECK-NEXT:    ret ptr null
; CHECK:       [[LPAD2]]:
; CHECK-NEXT:    landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    call void @__massif_ZdlPv(ptr [[P]])
; CHECK-NEXT:    ret ptr null
entry:
  %p = invoke ptr @_Znwm(i64 %n)
          to label %ok unwind label %lpad

ok:
  %q = invoke ptr @_ZnwmSt11align_val_t(i64 %n, i64 64)
          to label %ok2 unwind label %lpad2

ok2:
  ret ptr %q

lpad:
  %lp = landingpad { ptr, i32 }
          catch ptr null
  ret ptr null

lpad2:
  %lp2 = landingpad { ptr, i32 }
          cleanup
  call void @_ZdlPv(ptr %p)
  ret ptr null
}

; CHECK-NOT: invoke ptr @_Znw
