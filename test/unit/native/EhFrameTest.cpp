//===- EhFrameTest.cpp - What .eh_frame says of each function -------------===//
//
// Part of massif-native, under the MIT licence.
//
// This binary is built with frame pointers; two functions written in
// assembly stand for code linked in without them: one that makes room for
// a call and calls, one stub that never does. forEachFde must tell the
// three kinds apart, and the frame-pointer ranges of the executable must
// leave out the one that calls without a frame pointer.
//
//===----------------------------------------------------------------------===//

#include "EhFrame.h"
#include "LoaderWalk.h"
#include "Modules.h"

#include <gtest/gtest.h>

#include <link.h>

using namespace massif::native;

extern "C" void ehf_no_frame_pointer(void);
extern "C" void ehf_stub(void);

asm(R"(
  .text
  .p2align 4
  .globl ehf_no_frame_pointer
  .type ehf_no_frame_pointer, @function
ehf_no_frame_pointer:
  .cfi_startproc
  sub $8, %rsp
  .cfi_def_cfa_offset 16
  call ehf_stub
  add $8, %rsp
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc
  .size ehf_no_frame_pointer, .-ehf_no_frame_pointer

  .p2align 4
  .globl ehf_stub
  .type ehf_stub, @function
ehf_stub:
  .cfi_startproc
  ret
  .cfi_endproc
  .size ehf_stub, .-ehf_stub
)");

namespace {

__attribute__((noinline)) int withFramePointer(int X) {
  ehf_no_frame_pointer();
  return X + 1;
}

/// This binary's .eh_frame_hdr, as the unwinder finds it
/// (findLoadedObject: glibc's _dl_find_object), checked against the walk
/// of the loaded objects.
const uint8_t *ownEhFrameHdr() {
  uint64_t Code = (uint64_t)(uintptr_t)&withFramePointer;
  dl_phdr_info Info;
  const uint8_t *Hdr = nullptr;
  EXPECT_TRUE(findLoadedObject(Code, Info, Hdr));
  EXPECT_TRUE(massif::containsAddress(Info, Code));
  struct Found {
    uint64_t Code;
    const uint8_t *Hdr;
  } F = {Code, nullptr};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        Found &F = *(Found *)Data;
        if (!massif::containsAddress(*Info, F.Code))
          return 0;
        F.Hdr = massif::ehFrameHdrOf(*Info);
        return 1;
      },
      &F);
  EXPECT_EQ(Hdr, F.Hdr);
  return Hdr;
}

struct Wanted {
  uint64_t Addr;
  bool Found;
  FdeSummary Summary;
};

FdeSummary summaryOf(void (*Fn)()) {
  Wanted W = {(uint64_t)(uintptr_t)Fn, false, {}};
  const uint8_t *Hdr = ownEhFrameHdr();
  EXPECT_NE(Hdr, nullptr);
  EXPECT_TRUE(forEachFde(
      Hdr,
      [](void *Ctx, const FdeSummary &S) {
        Wanted &W = *(Wanted *)Ctx;
        if (W.Addr >= S.Begin && W.Addr < S.End) {
          W.Found = true;
          W.Summary = S;
        }
      },
      &W));
  EXPECT_TRUE(W.Found);
  return W.Summary;
}

TEST(EhFrameTest, TellsFramePointerCodeFromCodeWithout) {
  ASSERT_EQ(withFramePointer(1), 2);
  FdeSummary Fp = summaryOf((void (*)())&withFramePointer);
  EXPECT_TRUE(Fp.KeepsFramePointer);
  EXPECT_FALSE(Fp.NeverCalls);

  FdeSummary NoFp = summaryOf(&ehf_no_frame_pointer);
  EXPECT_FALSE(NoFp.KeepsFramePointer);
  EXPECT_FALSE(NoFp.NeverCalls);
  EXPECT_EQ(NoFp.End - NoFp.Begin, 14u); // sub 4, call 5, add 4, ret 1

  FdeSummary Stub = summaryOf(&ehf_stub);
  EXPECT_FALSE(Stub.KeepsFramePointer);
  EXPECT_TRUE(Stub.NeverCalls);
}

TEST(EhFrameTest, FramePointerRangesLeaveOutCodeWithout) {
  initModules();
  EXPECT_TRUE(inFramePointerCode((uint64_t)(uintptr_t)&withFramePointer));
  EXPECT_FALSE(inFramePointerCode((uint64_t)(uintptr_t)&ehf_no_frame_pointer));
  EXPECT_FALSE(
      inFramePointerCode((uint64_t)(uintptr_t)&ehf_no_frame_pointer + 5));
}

} // namespace
