//===- UnwindTest.cpp - The frame-pointer walk and its safety checks ------===//
//
// Part of massif-native, under the MIT licence.
//
// Built with frame pointers and without sibling calls, so a chain of
// noinline functions has one frame each and the walk must reproduce the
// return addresses the functions see themselves.
//
//===----------------------------------------------------------------------===//

#include "Unwind.h"

#include <gtest/gtest.h>

#include <stdint.h>
#include <thread>

using namespace massif::native;

namespace {

uint64_t Pcs[MaxCapturedFrames];
uint32_t NumPcs;
uint32_t MaxPcs = MaxCapturedFrames;
uintptr_t Expected[3];

// Each level records where it will return to; the leaf walks from its own
// frame as an entry point would.
__attribute__((noinline)) void leaf() {
  Expected[0] = (uintptr_t)__builtin_return_address(0);
  NumPcs = walkFramePointers(__builtin_frame_address(0), findStackHi(), Pcs,
                             MaxPcs);
  asm volatile("" ::: "memory");
}

__attribute__((noinline)) void middle() {
  Expected[1] = (uintptr_t)__builtin_return_address(0);
  leaf();
  asm volatile("" ::: "memory");
}

__attribute__((noinline)) void top() {
  Expected[2] = (uintptr_t)__builtin_return_address(0);
  middle();
  asm volatile("" ::: "memory");
}

TEST(UnwindTest, ChainOfFunctionsGivesReturnAddressesMinusOne) {
  top();
  ASSERT_GE(NumPcs, 3u);
  EXPECT_EQ(Pcs[0], Expected[0] - 1);
  EXPECT_EQ(Pcs[1], Expected[1] - 1);
  EXPECT_EQ(Pcs[2], Expected[2] - 1);
}

TEST(UnwindTest, MaxBoundsTheCapture) {
  MaxPcs = 2;
  top();
  MaxPcs = MaxCapturedFrames;
  ASSERT_EQ(NumPcs, 2u);
  EXPECT_EQ(Pcs[1], Expected[1] - 1);
  MaxPcs = 0;
  top();
  MaxPcs = MaxCapturedFrames;
  EXPECT_EQ(NumPcs, 0u);
}

TEST(UnwindTest, StackTopIsAboveTheCurrentFrame) {
  uintptr_t Hi = findStackHi();
  uintptr_t Here = (uintptr_t)__builtin_frame_address(0);
  ASSERT_NE(Hi, 0u);
  EXPECT_GT(Hi, Here);
  EXPECT_LT(Hi - Here, (uintptr_t)1 << 30);
  uintptr_t ThreadHi = 0, ThreadHere = 0;
  std::thread([&] {
    ThreadHi = findStackHi();
    ThreadHere = (uintptr_t)__builtin_frame_address(0);
  }).join();
  EXPECT_GT(ThreadHi, ThreadHere);
  EXPECT_LT(ThreadHi - ThreadHere, (uintptr_t)64 << 20);
}

// Fake frame records laid out in an array standing for a stack:
// Frame[2 * I] is the saved frame pointer, Frame[2 * I + 1] the return
// address.
struct FakeStack {
  alignas(16) uintptr_t Words[16] = {};
  uintptr_t at(int I) { return (uintptr_t)&Words[2 * I]; }
  uintptr_t hi() { return (uintptr_t)(Words + 16); }
};

TEST(UnwindTest, FrameChainGoingDownEndsTheWalk) {
  FakeStack S;
  S.Words[0] = S.at(1);
  S.Words[1] = 0x1000 + 0x11;
  S.Words[2] = S.at(0); // points back down: garbage
  S.Words[3] = 0x1000 + 0x22;
  uint64_t Out[8];
  uint32_t N = walkFramePointers((const void *)S.at(0), S.hi(), Out, 8);
  ASSERT_EQ(N, 2u);
  EXPECT_EQ(Out[0], 0x1010u);
  EXPECT_EQ(Out[1], 0x1021u);
}

TEST(UnwindTest, MisalignedOrOutOfStackFramePointerEndsTheWalk) {
  FakeStack S;
  S.Words[0] = S.at(1) + 3; // misaligned
  S.Words[1] = 0x5000;
  uint64_t Out[8];
  EXPECT_EQ(walkFramePointers((const void *)S.at(0), S.hi(), Out, 8), 1u);
  S.Words[0] = S.hi(); // beyond the top of the stack
  EXPECT_EQ(walkFramePointers((const void *)S.at(0), S.hi(), Out, 8), 1u);
  S.Words[0] = S.at(1);
  S.Words[2] = S.at(2);
  S.Words[3] = 0; // a zero return address: the outermost frame
  EXPECT_EQ(walkFramePointers((const void *)S.at(0), S.hi(), Out, 8), 1u);
}

TEST(UnwindTest, UnknownStackBoundsTrustOnlyTheFirstFrame) {
  FakeStack S;
  S.Words[0] = S.at(1);
  S.Words[1] = 0x7000;
  S.Words[2] = S.at(2);
  S.Words[3] = 0x8000;
  uint64_t Out[8];
  EXPECT_EQ(walkFramePointers((const void *)S.at(0), 0, Out, 8), 1u);
  EXPECT_EQ(walkFramePointers((const void *)S.at(0), S.hi(), Out, 8), 2u);
}

TEST(UnwindTest, ResumeFrameSkipsTheLibraryFrames) {
  // Entry frame: the interposer, returning into a library function; the
  // resume frame: the entry point that called the library.
  FakeStack Entry, Resume;
  Entry.Words[0] = 0xdead0; // the library's frame pointer: never followed
  Entry.Words[1] = 0x4001;
  Resume.Words[0] = Resume.at(1);
  Resume.Words[1] = 0x6001;
  Resume.Words[2] = 0;
  Resume.Words[3] = 0x6101;
  // Both fake stacks stand inside one stack of unknown extent.
  UnwindStart Start = {(const void *)Entry.at(0), (const void *)Resume.at(0),
                       0, ~(uintptr_t)0};
  uint64_t Out[8];
  uint32_t N = captureStack(Start, Out, 8);
  ASSERT_EQ(N, 3u);
  EXPECT_EQ(Out[0], 0x4000u);
  EXPECT_EQ(Out[1], 0x6000u);
  EXPECT_EQ(Out[2], 0x6100u);
}

TEST(UnwindTest, EntryFrameOffTheThreadStackTrustsOnlyTheFirstFrame) {
  // As for a signal handler on an alternate stack: the bounds found for the
  // thread do not contain the frames, so nothing beyond the first is read.
  FakeStack S;
  S.Words[0] = S.at(1);
  S.Words[1] = 0x7001;
  S.Words[2] = 0;
  S.Words[3] = 0x8001;
  uint64_t Out[8];
  UnwindStart Off = {(const void *)S.at(0), nullptr, S.hi() + 4096,
                     S.hi() + 8192};
  EXPECT_EQ(captureStack(Off, Out, 8), 1u);
  EXPECT_EQ(Out[0], 0x7000u);
  UnwindStart On = {(const void *)S.at(0), nullptr, S.at(0), S.hi()};
  EXPECT_EQ(captureStack(On, Out, 8), 2u);
}

} // namespace
