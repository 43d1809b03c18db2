//===- UnwindTest.cpp - The frame-pointer walk and its safety checks ------===//
//
// Part of massif-native, under the MIT licence.
//
// Built with frame pointers and without sibling calls, so a chain of
// noinline functions has one frame each and the walk must reproduce the
// return addresses the functions see themselves. Real captures through
// glibc (qsort calling back, a signal handler, a thread's start) must come
// back into this binary's frames, and the frames must name what Valgrind
// names.
//
//===----------------------------------------------------------------------===//

#include "Unwind.h"

#include "Arena.h"
#include "FrameRules.h"
#include "Modules.h"
#include "SymbolizerClient.h"

#include <gtest/gtest.h>

#include <pthread.h>
#include <set>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

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

// The main thread's stack read from the maps file without stdio equals
// what glibc's pthread_getattr_np reads there through it, at every limit
// on the stack's size (the limit shortens it, the mapping below caps it).
TEST(UnwindTest, MainStackFromMapsIsGlibcs) {
  uintptr_t StackEnd = initialStackPointer();
  ASSERT_NE(StackEnd, 0u);
  struct rlimit Saved;
  ASSERT_EQ(getrlimit(RLIMIT_STACK, &Saved), 0);
  for (rlim_t Limit :
       {Saved.rlim_cur, rlim_t(1) << 20, rlim_t(64) << 20, RLIM_INFINITY}) {
    struct rlimit R = Saved;
    R.rlim_cur = Limit;
    if (Saved.rlim_max != RLIM_INFINITY &&
        (Limit == RLIM_INFINITY || Limit > Saved.rlim_max))
      continue;
    ASSERT_EQ(setrlimit(RLIMIT_STACK, &R), 0);
    uintptr_t Lo = 0, Hi = 0;
    bool Found = mainStackFromMaps(StackEnd, Lo, Hi);
    pthread_attr_t Attr;
    void *Addr = nullptr;
    size_t SizeB = 0;
    ASSERT_EQ(pthread_getattr_np(pthread_self(), &Attr), 0);
    ASSERT_EQ(pthread_attr_getstack(&Attr, &Addr, &SizeB), 0);
    pthread_attr_destroy(&Attr);
    setrlimit(RLIMIT_STACK, &Saved);
    ASSERT_TRUE(Found);
    EXPECT_EQ(Lo, (uintptr_t)Addr) << "limit " << Limit;
    EXPECT_EQ(Hi, (uintptr_t)Addr + SizeB) << "limit " << Limit;
  }
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

// Return addresses the walk may follow by frame pointer: inside this
// binary, which (holding the runtime's objects) counts as instrumented code.
uintptr_t codeAddress(int I) { return (uintptr_t)&codeAddress + 16 + I; }

TEST(UnwindTest, ResumeFrameSkipsTheLibraryFrames) {
  // Frame 0: the interposer, returning into a library function; frame 2:
  // the entry point that called the library, higher on the same stack.
  FakeStack S;
  S.Words[0] = 0xdead0; // the library's frame pointer: never followed
  S.Words[1] = 0x4001;
  S.Words[4] = S.at(3);
  S.Words[5] = codeAddress(1);
  S.Words[6] = 0;
  S.Words[7] = codeAddress(2);
  UnwindStart Start = {(const void *)S.at(0), (const void *)S.at(2), S.at(0),
                       S.hi()};
  uint64_t Out[8];
  uint32_t N = captureStack(Start, Out, 8);
  ASSERT_EQ(N, 3u);
  EXPECT_EQ(Out[0], 0x4000u);
  EXPECT_EQ(Out[1], codeAddress(1) - 1);
  EXPECT_EQ(Out[2], codeAddress(2) - 1);
  // A resume frame below the entry frame is not followed.
  UnwindStart Below = {(const void *)S.at(2), (const void *)S.at(0), S.at(0),
                       S.hi()};
  EXPECT_EQ(captureStack(Below, Out, 8), 1u);
}

TEST(UnwindTest, EntryFrameOffTheThreadStackTrustsOnlyTheFirstFrame) {
  // As for a signal handler on an alternate stack: the bounds found for the
  // thread do not contain the frames, so nothing beyond the first is read.
  FakeStack S;
  S.Words[0] = S.at(1);
  S.Words[1] = codeAddress(1);
  S.Words[2] = 0;
  S.Words[3] = codeAddress(2);
  uint64_t Out[8];
  UnwindStart Off = {(const void *)S.at(0), nullptr, S.hi() + 4096,
                     S.hi() + 8192};
  EXPECT_EQ(captureStack(Off, Out, 8), 1u);
  EXPECT_EQ(Out[0], codeAddress(1) - 1);
  UnwindStart On = {(const void *)S.at(0), nullptr, S.at(0), S.hi()};
  EXPECT_EQ(captureStack(On, Out, 8), 2u);
  EXPECT_EQ(Out[1], codeAddress(2) - 1);
}

TEST(UnwindTest, ACaptureRepeatedFromTheSameStateSeesStackChanges) {
  // The second capture from the same state is replayed from the first; a
  // word of the chain changed in between must show, not the memo.
  FakeStack S;
  S.Words[0] = S.at(1);
  S.Words[1] = codeAddress(1);
  S.Words[2] = S.at(2);
  S.Words[3] = codeAddress(2);
  S.Words[4] = 0;
  S.Words[5] = codeAddress(3);
  UnwindStart Start = {(const void *)S.at(0), nullptr, S.at(0), S.hi()};
  uint64_t Out[8];
  ASSERT_EQ(captureStack(Start, Out, 8), 3u);
  ASSERT_EQ(captureStack(Start, Out, 8), 3u);
  EXPECT_EQ(Out[2], codeAddress(3) - 1);
  S.Words[5] = codeAddress(4); // a return address
  ASSERT_EQ(captureStack(Start, Out, 8), 3u);
  EXPECT_EQ(Out[2], codeAddress(4) - 1);
  S.Words[2] = S.at(3); // a saved frame pointer
  S.Words[6] = 0;
  S.Words[7] = codeAddress(5);
  ASSERT_EQ(captureStack(Start, Out, 8), 3u);
  EXPECT_EQ(Out[2], codeAddress(5) - 1);
  // A capture cut by Max is replayed for the same Max only.
  ASSERT_EQ(captureStack(Start, Out, 2), 2u);
  EXPECT_EQ(captureStack(Start, Out, 2), 2u);
  EXPECT_EQ(captureStack(Start, Out, 8), 3u);
}

TEST(UnwindTest, ACaptureCutByMaxIsReplayedOnlyWhereItWouldBeCutAgain) {
  // Two captures reach the same frame record, one in one frame and one in
  // two (through a resume frame): the first must not reuse the second's
  // walk, which Max stopped a frame earlier than its own.
  FakeStack S;
  S.Words[1] = codeAddress(1);
  S.Words[2] = S.at(2); // the record both captures continue from
  S.Words[3] = codeAddress(2);
  for (int I = 2; I < 6; ++I) {
    S.Words[2 * I] = S.at(I + 1);
    S.Words[2 * I + 1] = codeAddress(I + 1);
  }
  S.Words[12] = 0;
  S.Words[13] = codeAddress(7);
  UnwindStart ViaResume = {(const void *)S.at(0), (const void *)S.at(1),
                           S.at(0), S.hi()};
  UnwindStart Direct = {(const void *)S.at(1), nullptr, S.at(0), S.hi()};
  uint64_t Out[8];
  ASSERT_EQ(captureStack(ViaResume, Out, 4), 4u);
  ASSERT_EQ(captureStack(Direct, Out, 4), 4u);
  for (uint32_t K = 0; K < 4; ++K)
    EXPECT_EQ(Out[K], codeAddress(int(K) + 2) - 1) << "frame " << K;
  EXPECT_EQ(captureStack(ViaResume, Out, 4), 4u);
  EXPECT_EQ(Out[3], codeAddress(4) - 1);
}

/// What capturing from frame record Entry of a fake stack must give: the
/// frame-pointer walk, spelled out without memos.
uint32_t referenceWalk(uintptr_t Entry, uintptr_t Hi, uint64_t *Out,
                       uint32_t Max) {
  const uintptr_t *E = (const uintptr_t *)Entry;
  uint32_t N = 0;
  Out[N++] = E[1] - 1;
  if (E[1] < 4096) // returning into no code: nothing known above
    return N;
  uintptr_t Sp = Entry + 16, Bp = E[0];
  while (N < Max && Bp >= Sp && (Bp & 7) == 0 && Bp <= Hi - 16) {
    uintptr_t Next = ((const uintptr_t *)Bp)[0];
    uintptr_t Ret = ((const uintptr_t *)Bp)[1];
    if (Ret < 4096)
      break;
    Out[N++] = Ret - 1;
    Sp = Bp + 16;
    Bp = Next;
  }
  return N;
}

TEST(UnwindTest, CapturesReplayingMemosEqualFullWalks) {
  // Captures from changing frames of one stack whose records keep
  // changing: each must equal a full walk, whether it replays a memo or
  // walks.
  constexpr int NumRecords = 40;
  alignas(16) static uintptr_t Words[2 * NumRecords + 2];
  auto at = [](int I) { return (uintptr_t)&Words[2 * I]; };
  uintptr_t Hi = (uintptr_t)(Words + 2 * NumRecords);
  uint64_t Seed = 12345;
  auto next = [&Seed](uint32_t Below) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(Seed >> 33) % Below;
  };
  uint64_t Out[64], Want[64];
  uint32_t Deep = 0;
  for (int Round = 0; Round < 20000; ++Round) {
    if (Round % 256 == 0) // the whole chain, afresh
      for (int I = 0; I < NumRecords; ++I) {
        Words[2 * I] = I + 1 < NumRecords ? at(I + 1) : 0;
        Words[2 * I + 1] = codeAddress(int(next(9)));
      }
    int I = int(next(NumRecords));
    uint32_t What = next(64);
    if (What < 12) // a frame returns and another is called in its place
      Words[2 * I + 1] = codeAddress(int(next(9)));
    else if (What < 14) // a caller's frame moves up
      Words[2 * I] = at(I + 1 + int(next(uint32_t(NumRecords - I))));
    else if (What < 15) // the chain ends here
      Words[2 * I + 1] = 0;
    // otherwise only the capture moves
    int Entry = int(next(NumRecords / 2));
    UnwindStart Start = {(const void *)at(Entry), nullptr, at(Entry), Hi};
    uint32_t Max = next(4) ? 64 : 1 + next(30);
    uint32_t N = captureStack(Start, Out, Max);
    uint32_t WantN = referenceWalk(at(Entry), Hi, Want, Max);
    ASSERT_EQ(N, WantN) << "round " << Round;
    for (uint32_t K = 0; K < N; ++K)
      ASSERT_EQ(Out[K], Want[K]) << "round " << Round << " frame " << K;
    Deep += N > 8;
  }
  EXPECT_GT(Deep, 2000u);
}

TEST(UnwindTest, StackIdsOfReplayedAndWalkedCapturesAreTheWalksIds) {
  // captureStackId looks a capture's state up once: a replayed memo gives
  // its id, a memo that no longer replays is walked over. Each id must be
  // the one the full walk's frames intern to. Two callers take turns
  // calling one site at one depth, so both of a set's ways replay, and
  // the chains also change as in CapturesReplayingMemosEqualFullWalks.
  constexpr int NumRecords = 40;
  alignas(16) static uintptr_t Words[2 * NumRecords + 2];
  auto at = [](int I) { return (uintptr_t)&Words[2 * I]; };
  uintptr_t Hi = (uintptr_t)(Words + 2 * NumRecords);
  massif::StackDepot Depot;
  Depot.init(arenaAllocator());
  uint64_t Seed = 777;
  auto next = [&Seed](uint32_t Below) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(Seed >> 33) % Below;
  };
  for (int I = 0; I < NumRecords; ++I) {
    Words[2 * I] = I + 1 < NumRecords ? at(I + 1) : 0;
    Words[2 * I + 1] = codeAddress(int(next(9)));
  }
  uint64_t Want[64];
  std::set<StackId> Seen;
  for (int Round = 0; Round < 20000; ++Round) {
    int Entry = int(next(4)) * 3;
    if (Round % 2 == 0) // the other caller, at the same depth
      Words[2 * (Entry + 1) + 1] = codeAddress(Round % 4 == 0 ? 1 : 2);
    if (next(8) == 0) // a frame further out returns, another is called
      Words[2 * (Entry + 2 + int(next(NumRecords - Entry - 2))) + 1] =
          codeAddress(int(next(9)));
    UnwindStart Start = {(const void *)at(Entry), nullptr, at(Entry), Hi};
    uint32_t Max = next(4) ? 38 : 1 + next(30);
    StackId Id = captureStackId(Start, Depot, Max);
    uint32_t WantN = referenceWalk(at(Entry), Hi, Want, Max);
    ASSERT_EQ(Id, Depot.intern(Want, WantN)) << "round " << Round;
    Seen.insert(Id);
  }
  EXPECT_GT(Seen.size(), 100u);
}

TEST(UnwindTest, WalksLongerThanAMemoHoldsAreWholeAndNotReplayed) {
  // A chain of 150 records, walked with room for 200 frames: more than a
  // memo's pair log holds, so the walk goes on without recording, and a
  // record changed deep in the chain shows in the next capture.
  constexpr int NumRecords = 150;
  alignas(16) static uintptr_t Words[2 * NumRecords + 2];
  auto at = [](int I) { return (uintptr_t)&Words[2 * I]; };
  uintptr_t Hi = (uintptr_t)(Words + 2 * NumRecords);
  for (int I = 0; I < NumRecords; ++I) {
    Words[2 * I] = I + 1 < NumRecords ? at(I + 1) : 0;
    Words[2 * I + 1] = codeAddress(I % 7);
  }
  UnwindStart Start = {(const void *)at(0), nullptr, at(0), Hi};
  uint64_t Out[200], Want[200];
  for (int Round = 0; Round < 3; ++Round) {
    if (Round == 2)
      Words[2 * 120 + 1] = codeAddress(8); // a frame deep down changes
    uint32_t N = captureStack(Start, Out, 200);
    uint32_t WantN = referenceWalk(at(0), Hi, Want, 200);
    ASSERT_EQ(N, WantN) << "round " << Round;
    ASSERT_GT(N, 100u);
    for (uint32_t K = 0; K < N; ++K)
      ASSERT_EQ(Out[K], Want[K]) << "round " << Round << " frame " << K;
  }
}

TEST(UnwindTest, GarbageFramePointersEndTheCapture) {
  FakeStack S;
  S.Words[0] = S.at(1);
  S.Words[1] = codeAddress(1);
  S.Words[2] = S.at(0); // below the frame it was saved in
  S.Words[3] = codeAddress(2);
  uint64_t Out[8];
  UnwindStart Start = {(const void *)S.at(0), nullptr, S.at(0), S.hi()};
  EXPECT_EQ(captureStack(Start, Out, 8), 2u);
  S.Words[2] = S.hi(); // beyond the top of the stack
  EXPECT_EQ(captureStack(Start, Out, 8), 2u);
  S.Words[2] = S.at(1) + 4; // misaligned
  EXPECT_EQ(captureStack(Start, Out, 8), 2u);
  S.Words[2] = S.at(2);
  S.Words[5] = 12; // not a code address
  EXPECT_EQ(captureStack(Start, Out, 8), 2u);
}

// Code without a call-frame rule (here: addresses no object maps) is
// stepped as Valgrind's amd64 walk steps it: by the frame pointer when BP
// lies in the stack, else by taking the word at SP for a return address,
// one word after another, up to a 0 or a 1 (ld.so's start code under
// _dl_init, where those words are argc and the argv pointers).
TEST(UnwindTest, CodeWithoutRulesIsSteppedAsValgrindSteppedIt) {
  FakeStack S;
  S.Words[0] = 0;      // BP: not in the stack
  S.Words[1] = 0x4001; // returns into code without a rule
  S.Words[2] = 3;      // "argc"
  S.Words[3] = S.at(5) + 1;
  S.Words[4] = S.at(6) + 3;
  S.Words[5] = 0; // argv's null
  uint64_t Out[8];
  UnwindStart Start = {(const void *)S.at(0), nullptr, S.at(0), S.hi()};
  ASSERT_EQ(captureStack(Start, Out, 8), 4u);
  EXPECT_EQ(Out[0], 0x4000u);
  EXPECT_EQ(Out[1], 2u);
  EXPECT_EQ(Out[2], S.at(5));
  EXPECT_EQ(Out[3], S.at(6) + 2);
  // Repeated, from the memos: the same, and a changed word is seen.
  ASSERT_EQ(captureStack(Start, Out, 8), 4u);
  EXPECT_EQ(Out[3], S.at(6) + 2);
  S.Words[4] = 1; // a 1 ends the scan too (argc of a program alone)
  EXPECT_EQ(captureStack(Start, Out, 8), 3u);
  S.Words[2] = 1;
  EXPECT_EQ(captureStack(Start, Out, 8), 1u);
  // Max still bounds it.
  S.Words[2] = 3;
  S.Words[4] = S.at(6) + 3;
  EXPECT_EQ(captureStack(Start, Out, 2), 2u);

  // BP in the stack: one frame by the chain, then the scan from its SP.
  S.Words[0] = S.at(2);
  S.Words[4] = 0;      // the next BP: none
  S.Words[5] = 0x5001; // no rule there either
  S.Words[6] = 0x6001;
  S.Words[7] = 0;
  ASSERT_EQ(captureStack(Start, Out, 8), 3u);
  EXPECT_EQ(Out[1], 0x5000u);
  EXPECT_EQ(Out[2], 0x6000u);
  // A return address of 0 or 1 ends it where it is found.
  S.Words[5] = 1;
  EXPECT_EQ(captureStack(Start, Out, 8), 1u);
  // The chain's step must move SP up; when it would not, the walk ends
  // there (no scan instead).
  S.Words[5] = 0x5001;
  S.Words[0] = S.at(0); // BP + 16 is the SP it has already
  EXPECT_EQ(captureStack(Start, Out, 8), 1u);
}

// Captures the calling function's stack as an entry point does, and names
// every frame (the out-of-line function of each address).
std::vector<std::string> captureNames() {
  uintptr_t Lo, Hi;
  findStackBounds(Lo, Hi);
  UnwindStart Start = {__builtin_frame_address(0), nullptr, Lo, Hi};
  uint64_t Out[MaxCapturedFrames];
  uint32_t N = captureStack(Start, Out, MaxCapturedFrames);
  std::vector<std::string> Names;
  const massif::Symbolizer &S = processSymbolizer();
  for (uint32_t I = 0; I < N; ++I) {
    massif::FrameInfo F[8];
    uint32_t NumF = S.Describe(S.Ctx, Out[I], F, 8);
    Names.push_back(F[NumF - 1].Function ? F[NumF - 1].Function : "???");
  }
  return Names;
}

/// Where Names has Want, or -1.
int indexOf(const std::vector<std::string> &Names, const std::string &Want) {
  for (size_t I = 0; I < Names.size(); ++I)
    if (Names[I] == Want)
      return (int)I;
  return -1;
}

std::string joined(const std::vector<std::string> &Names) {
  std::string J;
  for (const std::string &N : Names)
    J += N + " <- ";
  return J;
}

std::vector<std::string> SeenInCompare;

__attribute__((noinline)) int compareInts(const void *A, const void *B) {
  if (SeenInCompare.empty())
    SeenInCompare = captureNames();
  return *(const int *)A - *(const int *)B;
}

__attribute__((noinline)) void sortSome() {
  int V[4] = {3, 1, 2, 0};
  qsort(V, 4, sizeof(int), compareInts);
  asm volatile("" ::: "memory");
}

TEST(UnwindTest, CallbackFromLibcComesBackToTheCaller) {
  SeenInCompare.clear();
  sortSome();
  const std::vector<std::string> &N = SeenInCompare;
  int Cmp = indexOf(N, "(anonymous namespace)::compareInts(void const*, void const*)");
  int Qsort = indexOf(N, "qsort_r");
  int Caller = indexOf(N, "(anonymous namespace)::sortSome()");
  ASSERT_EQ(Cmp, 0) << joined(N);
  ASSERT_GT(Qsort, Cmp) << joined(N);
  EXPECT_EQ(Caller, Qsort + 1) << joined(N);
  EXPECT_EQ(indexOf(N, "(anonymous namespace)::UnwindTest_"
                       "CallbackFromLibcComesBackToTheCaller_Test::TestBody()"),
            Caller + 1)
      << joined(N);
}

std::vector<std::string> SeenInHandler;

void onSignal(int) { SeenInHandler = captureNames(); }

TEST(UnwindTest, SignalHandlerStackContinuesIntoTheInterruptedCode) {
  struct sigaction Act = {}, Old;
  Act.sa_handler = onSignal;
  ASSERT_EQ(sigaction(SIGUSR1, &Act, &Old), 0);
  raise(SIGUSR1);
  sigaction(SIGUSR1, &Old, nullptr);
  const std::vector<std::string> &N = SeenInHandler;
  // handler <- ??? (glibc's restorer) <- pthread_kill's code <- raise <- us
  int Handler = indexOf(N, "(anonymous namespace)::onSignal(int)");
  int Raise = indexOf(N, "raise");
  ASSERT_EQ(Handler, 0) << joined(N);
  EXPECT_EQ(N[1], "???") << joined(N);
  ASSERT_GT(Raise, 1) << joined(N);
  EXPECT_EQ(N[Raise + 1], "(anonymous namespace)::UnwindTest_"
                          "SignalHandlerStackContinuesIntoTheInterruptedCode_"
                          "Test::TestBody()")
      << joined(N);
}

TEST(UnwindTest, SignalTrampolineRuleReadsTheSavedContext) {
  struct sigaction Act = {}, Old;
  Act.sa_handler = onSignal;
  ASSERT_EQ(sigaction(SIGUSR1, &Act, &Old), 0);
  struct sigaction Now;
  sigaction(SIGUSR1, nullptr, &Now);
  sigaction(SIGUSR1, &Old, nullptr);
  // glibc installs its restorer; the handler returns to it, so the walk
  // looks it up one byte before (where glibc's CFI deliberately starts).
  ASSERT_NE(Now.sa_restorer, nullptr);
  FrameRule R;
  ASSERT_TRUE(computeFrameRule((uint64_t)(uintptr_t)Now.sa_restorer - 1, R));
  EXPECT_TRUE(R.Signal);
  EXPECT_EQ(R.Cfa, FrameRule::CfaDerefSp);
  EXPECT_EQ(R.Ra, FrameRule::AtSp);
  EXPECT_EQ(R.Bp, FrameRule::AtSp);
  // The cache gives the same.
  FrameRule C;
  bool Computed;
  ASSERT_TRUE(
      lookupFrameRule((uint64_t)(uintptr_t)Now.sa_restorer - 1, C, Computed));
  ASSERT_TRUE(
      lookupFrameRule((uint64_t)(uintptr_t)Now.sa_restorer - 1, C, Computed));
  EXPECT_FALSE(Computed); // the second time, from the cache
  EXPECT_EQ(C.Cfa, R.Cfa);
  EXPECT_EQ(C.CfaOff, R.CfaOff);
  EXPECT_EQ(C.RaOff, R.RaOff);
  EXPECT_EQ(C.BpOff, R.BpOff);
}

std::vector<std::string> SeenInThread;

void *threadMain(void *) {
  SeenInThread = captureNames();
  return nullptr;
}

TEST(UnwindTest, ThreadStackEndsAtCloneAsUnderValgrind) {
  pthread_t T;
  ASSERT_EQ(pthread_create(&T, nullptr, threadMain, nullptr), 0);
  pthread_join(T, nullptr);
  const std::vector<std::string> &N = SeenInThread;
  // glibc starts threads with clone3, which Valgrind does not offer: under
  // it the stack ends in clone, and so it does here.
  ASSERT_EQ(N.size(), 3u) << joined(N);
  EXPECT_EQ(N[0], "(anonymous namespace)::threadMain(void*)");
  EXPECT_EQ(N[1], "start_thread");
  EXPECT_EQ(N[2], "clone");
  EXPECT_NE(threadStartPc(), 0u);
}

} // namespace
