//===- XTreeWriter.cpp - Printing an xtree memory report ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Profile::writeXtree: the rows (kept counters for `full`, the live blocks
// summed per stack otherwise) printed as Valgrind 3.19 prints them (spec
// section 7.3). Each row's stack is cut below main and nowhere else. In
// callgrind format a row walks its frames from the outermost, each frame
// named by its out-of-line function and placed at its address's source
// line (for inlined code, the inlined code's own line, as Valgrind's line
// table gives it), files as "<dir>/<file>". With string compression the
// first use of a name prints "(N) name" and later uses "(N)", files and
// functions numbered apart from 1.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "ProfileImpl.h"
#include "TextWriter.h"
#include "TreeWriter.h"

#include "massif/format.h"

#include <string.h>

namespace massif {
namespace {

constexpr uint32_t MaxInlineFrames = 64;

const char *const FullEvents[] = {
    "curB : currently allocated Bytes", "curBk : currently allocated Blocks",
    "totB : total allocated Bytes",     "totBk : total allocated Blocks",
    "totFdB : total Freed Bytes",       "totFdBk : total Freed Blocks"};

uint64_t valueOf(const XtreeRow &R, uint32_t Event) {
  switch (Event) {
  case 0:
    return R.CurB;
  case 1:
    return R.CurBk;
  case 2:
    return R.TotB;
  case 3:
    return R.TotBk;
  case 4:
    return R.FdB;
  default:
    return R.FdBk;
  }
}

/// Names numbered in order of first use (Valgrind's dedup pool).
class NameNumbers {
public:
  explicit NameNumbers(const Allocator &A) : A(A) {}
  ~NameNumbers() {
    for (size_t I = 0; I < Cap; ++I)
      if (Slots[I].Name)
        freeArray(A, Slots[I].Name, strlen(Slots[I].Name) + 1);
    freeArray(A, Slots, Cap);
  }
  /// The number of Name, and whether this is its first use. 0 when memory
  /// is exhausted.
  uint32_t number(const char *Name, bool &New) {
    New = false;
    if ((Used + 1) * 2 > Cap && !grow())
      return 0;
    size_t Len = strlen(Name);
    size_t I = hash(Name, Len) & (Cap - 1);
    for (; Slots[I].Name; I = (I + 1) & (Cap - 1))
      if (strcmp(Slots[I].Name, Name) == 0)
        return Slots[I].Number;
    char *Copy = copyString(A, Name, Len);
    if (!Copy)
      return 0;
    Slots[I] = Slot{Copy, ++Used};
    New = true;
    return Used;
  }

private:
  struct Slot {
    char *Name;
    uint32_t Number;
  };
  static uint64_t hash(const char *S, size_t Len) {
    uint64_t H = 1469598103934665603ull;
    for (size_t I = 0; I < Len; ++I)
      H = (H ^ uint8_t(S[I])) * 1099511628211ull;
    return H;
  }
  bool grow() {
    size_t NewCap = Cap ? Cap * 2 : 256;
    Slot *New = allocArray<Slot>(A, NewCap);
    if (!New)
      return false;
    for (size_t I = 0; I < Cap; ++I) {
      if (!Slots[I].Name)
        continue;
      size_t J = hash(Slots[I].Name, strlen(Slots[I].Name)) & (NewCap - 1);
      while (New[J].Name)
        J = (J + 1) & (NewCap - 1);
      New[J] = Slots[I];
    }
    freeArray(A, Slots, Cap);
    Slots = New;
    Cap = NewCap;
    return true;
  }

  Allocator A;
  Slot *Slots = nullptr;
  size_t Cap = 0;
  uint32_t Used = 0;
};

/// The frames of Stack an xtree report prints, in N: down to the cut below
/// main, without a C++ library operator new or delete at the top.
const uint64_t *xtreeFrames(const Profile::Impl &I, StackId Stack,
                            uint32_t &N) {
  uint32_t NumPcs = 0;
  const uint64_t *Pcs = I.Depot->frames(Stack, NumPcs);
  N = 0;
  if (!Pcs || NumPcs == 0)
    return nullptr;
  uint32_t Top = I.Filter.replacedTop(Pcs, NumPcs);
  N = I.Filter.belowMainCut(Pcs + Top, NumPcs - Top);
  return Pcs + Top;
}

/// What a callgrind record prints of one frame.
struct CalledFrame {
  char File[4096];
  const char *Function;
  uint32_t Line;
  uint32_t FileNo, FnNo;
  bool FileNew, FnNew;
};

class CallgrindWriter {
public:
  CallgrindWriter(TextWriter &W, const Profile::Impl &I)
      : W(W), I(I), Files(I.A), Functions(I.A) {}

  void header(const RunInfo &Run, int64_t Pid, uint32_t NumEvents) {
    W.put("# callgrind format\nversion: 1\ncreator: xtree-1\npid: ");
    W.putSigned(Pid).put('\n');
    W.put("cmd: ");
    for (uint32_t K = 0; K < Run.Argc; ++K) {
      if (K)
        W.put(' ');
      W.put(Run.Argv[K] ? Run.Argv[K] : "");
    }
    W.put("\n\npositions: line\n");
    for (uint32_t E = 0; E < NumEvents; ++E)
      W.put("event: ").put(FullEvents[E]).put('\n');
    // Each event's text up to its ':', which follows a space.
    W.put("events:");
    for (uint32_t E = 0; E < NumEvents; ++E) {
      size_t Len = 0;
      while (FullEvents[E][Len] && FullEvents[E][Len] != ':')
        ++Len;
      W.put(' ').put(FullEvents[E], Len);
    }
    W.put('\n');
  }

  void values(const XtreeRow &R, uint32_t NumEvents) {
    for (uint32_t E = 0; E < NumEvents; ++E) {
      if (E)
        W.put(' ');
      W.putUnsigned(valueOf(R, E));
    }
  }

  void record(StackId Stack, const XtreeRow &R, uint32_t NumEvents) {
    uint32_t N = 0;
    const uint64_t *Pcs = xtreeFrames(I, Stack, N);
    if (N == 0)
      return;
    CalledFrame F;
    called(Pcs[N - 1], F);
    for (uint32_t Idx = N; Idx-- > 0;) {
      put("fl", F.FileNo, F.File, F.FileNew);
      put("fn", F.FnNo, F.Function, F.FnNew);
      W.putUnsigned(F.Line);
      if (Idx == 0) {
        W.put(' ');
        values(R, NumEvents);
      }
      W.put('\n');
      uint32_t PrevLine = F.Line;
      if (Idx >= 1) {
        called(Pcs[Idx - 1], F);
        put("cfi", F.FileNo, F.File, F.FileNew);
        put("cfn", F.FnNo, F.Function, F.FnNew);
        F.FileNew = F.FnNew = false;
        W.put("calls=0 ").putUnsigned(F.Line).put('\n');
        W.putUnsigned(PrevLine).put(' ');
        values(R, NumEvents);
        W.put('\n');
      }
    }
    W.put('\n');
  }

private:
  /// Valgrind's CALLED_FLF: the file and line of Pc's line-table row and
  /// the name of the function around it.
  void called(uint64_t Pc, CalledFrame &F) {
    FrameInfo Frames[MaxInlineFrames];
    uint32_t N = I.Sym.Describe ? I.Sym.Describe(I.Sym.Ctx, Pc, Frames,
                                                 MaxInlineFrames)
                                : 0;
    const char *File = N ? Frames[0].File : nullptr;
    const char *Dir = N && File ? Frames[0].Dir : nullptr;
    F.Line = File ? Frames[0].Line : 0;
    size_t Len = 0;
    auto Add = [&](const char *S) {
      size_t L = strlen(S);
      if (Len + L >= sizeof(F.File))
        L = sizeof(F.File) - 1 - Len;
      memcpy(F.File + Len, S, L);
      Len += L;
    };
    if (Dir && *Dir) {
      Add(Dir);
      Add("/");
    }
    Add(File ? File : "UnknownFile???");
    F.File[Len] = 0;
    const char *Fn = N ? displayName(Frames[N - 1].Function) : nullptr;
    F.Function = Fn ? Fn : "UnknownFn???";
    F.FileNo = Files.number(F.File, F.FileNew);
    F.FnNo = Functions.number(F.Function, F.FnNew);
  }

  void put(const char *Key, uint32_t No, const char *Value, bool New) {
    W.put(Key).put('=');
    if (!I.Opts.XtreeCompressStrings || No == 0)
      W.put(Value);
    else if (New)
      W.put('(').putUnsigned(No).put(") ").put(Value);
    else
      W.put('(').putUnsigned(No).put(')');
    W.put('\n');
  }

  TextWriter &W;
  const Profile::Impl &I;
  NameNumbers Files, Functions;
};

/// Valgrind's produce_report for a ".ms" name: one detailed snapshot per
/// event, each tree printed as Massif prints its own (XT_massif_print)
/// with a threshold that aggregates nothing but zeros of a zero total.
void writeMassif(TextWriter &W, const Profile::Impl &I,
                 const XtreeCounters &Rows, const RunInfo &Run,
                 uint32_t NumEvents, uint64_t TimeMs) {
  W.put(format::DescKey).put(" xtree.produce_report\n");
  W.put(format::CmdKey).put(' ');
  for (uint32_t K = 0; K < Run.Argc; ++K) {
    if (K)
      W.put(' ');
    W.put(Run.Argv[K] ? Run.Argv[K] : "");
  }
  W.put('\n').put(format::TimeUnitKey).put(" ms\n");

  uint32_t N = Rows.size();
  auto *Frames = allocArray<const uint64_t *>(I.A, N ? N : 1);
  auto *NumSel = allocArray<uint32_t>(I.A, N ? N : 1);
  auto *Values = allocArray<uint64_t>(I.A, N ? N : 1);
  TreeWriter Trees(I.A, I.Sym, 0.00000000000001, "");
  Trees.setFullpathAfter(&I.Opts.FullpathAfter);
  bool Ok = Frames && NumSel && Values;
  for (uint32_t K = 0; Ok && K < N; ++K) {
    Frames[K] = xtreeFrames(I, Rows.stack(K), NumSel[K]);
  }
  Ok = Ok && Trees.initRows(Frames, NumSel, N);
  for (uint32_t E = 0; Ok && E < NumEvents; ++E) {
    for (uint32_t K = 0; K < N; ++K)
      Values[K] = valueOf(Rows.row(K), E);
    uint64_t Total = Trees.selectValues(Values);
    W.put(format::SnapshotSeparator).put('\n');
    W.put(format::SnapshotKey).putUnsigned(E).put('\n');
    W.put(format::SnapshotSeparator).put('\n');
    W.put(format::TimeKey).putUnsigned(TimeMs).put('\n');
    W.put(format::HeapKey).putUnsigned(Total).put('\n');
    W.put(format::HeapExtraKey).put("0\n");
    W.put(format::StacksKey).put("0\n");
    W.put(format::HeapTreeKey).put(format::TreeDetailed).put('\n');
    Trees.setRootDescription(FullEvents[E]);
    Trees.emit(W, 0, 0);
  }
  freeArray(I.A, Frames, N ? N : 1);
  freeArray(I.A, NumSel, N ? N : 1);
  freeArray(I.A, Values, N ? N : 1);
}

struct LiveBlocks {
  const Profile::Impl *I;
  XtreeBlock *Blocks;
  size_t N, Cap;
};

void collectBlock(void *Ctx, uint64_t Addr, uint32_t Id) {
  auto &L = *static_cast<LiveBlocks *>(Ctx);
  if (L.N == L.Cap)
    return;
  Profile::Impl &I = *const_cast<Profile::Impl *>(L.I);
  Profile::Impl::BlockInfo B = I.info(Id);
  // Valgrind's key is the address its own allocator gave the block: the
  // replayed arena's address, where the model replays it.
  uint64_t Key = I.Arena.isDetached(Id) ? Addr : I.Arena.payloadAddr(Id);
  L.Blocks[L.N++] =
      XtreeBlock{Key, I.insertionOf(Id), I.stackOf(B.Entry), B.ReqB, 0};
}

} // namespace

bool Profile::writeXtree(const Sink &Out, const RunInfo &Run,
                         bool MassifFormat, int64_t Pid, uint64_t TimeMs) {
  if (!P || P->BlocksDiscarded)
    return false;
  Impl &I = *P;
  bool Full = I.Opts.XtreeMemory == XtreeMode::Full;
  uint32_t NumEvents = Full ? 6 : 2;

  // `allocs` (and a report asked for with `none`): the live blocks, in the
  // order Massif's block table visits them.
  XtreeCounters Live(I.A);
  const XtreeCounters *Rows = &I.Xt;
  if (!Full) {
    LiveBlocks L{&I, nullptr, 0, I.Blocks.size()};
    L.Blocks = L.Cap ? allocArray<XtreeBlock>(I.A, L.Cap) : nullptr;
    if (L.Cap && !L.Blocks)
      return false;
    I.Blocks.forEach(collectBlock, &L);
    sortAsValgrindHashTable(L.Blocks, L.N, I.HashGrownAt, I.HashGrown);
    for (size_t K = 0; K < L.N; ++K)
      Live.live(L.Blocks[K].Stack, L.Blocks[K].ReqB);
    freeArray(I.A, L.Blocks, L.Cap);
    Rows = &Live;
  }

  bool Ok;
  {
    TextWriter W(Out);
    if (MassifFormat) {
      writeMassif(W, I, *Rows, Run, NumEvents, TimeMs);
    } else {
      CallgrindWriter C(W, I);
      C.header(Run, Pid, NumEvents);
      XtreeRow Totals{};
      for (uint32_t K = 0; K < Rows->size(); ++K) {
        const XtreeRow &R = Rows->row(K);
        Totals.CurB += R.CurB;
        Totals.CurBk += R.CurBk;
        Totals.TotB += R.TotB;
        Totals.TotBk += R.TotBk;
        Totals.FdB += R.FdB;
        Totals.FdBk += R.FdBk;
        bool Any = false;
        for (uint32_t E = 0; E < NumEvents; ++E)
          Any |= valueOf(R, E) != 0;
        if (Any)
          C.record(Rows->stack(K), R, NumEvents);
      }
      bool AnyTotal = false;
      for (uint32_t E = 0; E < NumEvents; ++E)
        AnyTotal |= valueOf(Totals, E) != 0;
      W.put("totals: ");
      if (AnyTotal)
        C.values(Totals, NumEvents);
      else
        W.put("(null)"); // Valgrind prints its null image so
      W.put('\n');
    }
    Ok = W.flush();
  }
  Live.release();
  return Ok;
}

} // namespace massif
