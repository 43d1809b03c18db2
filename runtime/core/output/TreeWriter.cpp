//===- TreeWriter.cpp - Prints a detailed snapshot's heap tree ------------===//
//
// Part of massif-native, under the MIT licence.
//
// See TreeWriter.h. The group stack needs at most one slot per entry plus
// one per level: the groups open along any path of the recursion are made
// of disjoint entries, except that each level's group being descended into
// is counted once more.
//
//===----------------------------------------------------------------------===//

#include "TreeWriter.h"
#include "Memory.h"
#include "Options.h"
#include "Sort.h"
#include "StackFilter.h"

#include "massif/format.h"

#include <string.h>

namespace massif {
namespace {

/// Enough room for any inline chain a symbolizer reports.
constexpr uint32_t MaxInlineFrames = 64;
/// More than the deepest tree: --depth is at most 200.
constexpr uint32_t MaxLevels = 256;

/// The truncating conversion of Massif's (SizeT) cast.
/// The first occurrence of Needle in Hay (strstr, which the core may not
/// call), or null.
const char *findText(const char *Hay, const char *Needle) {
  size_t N = strlen(Needle);
  for (const char *P = Hay;; ++P) {
    if (strncmp(P, Needle, N) == 0)
      return P;
    if (!*P)
      return nullptr;
  }
}

uint64_t truncToU64(double V) {
  if (!(V > 0))
    return 0;
  if (V >= 18446744073709551615.0)
    return ~uint64_t(0);
  return uint64_t(V);
}

} // namespace

TreeWriter::~TreeWriter() {
  freeArray(A, Order, NumOrder);
  freeArray(A, Ecs, NumOrder);
  freeArray(A, Groups, GroupsCap);
}

bool TreeWriter::allocate(uint32_t N) {
  formatValgrindFixed2(Threshold, ThresholdText);
  NumOrder = N;
  Order = allocArray<Sorted>(A, N ? N : 1);
  Ecs = allocArray<Ec>(A, N ? N : 1);
  GroupsCap = N + MaxLevels;
  Groups = allocArray<Group>(A, GroupsCap);
  return Order && Ecs && Groups;
}

void TreeWriter::sortOrder() {
  // Lexicographic on the selected frames; a prefix sorts first.
  heapSort(Order, NumOrder, [](const Sorted &L, const Sorted &R) {
    uint32_t Common = L.NumIps < R.NumIps ? L.NumIps : R.NumIps;
    for (uint32_t I = 0; I < Common; ++I)
      if (L.Ips[I] != R.Ips[I])
        return L.Ips[I] < R.Ips[I];
    return L.NumIps < R.NumIps;
  });
  if (Sym.Prepare)
    prepareSymbolizer();
}

bool TreeWriter::init(const AllocTree &Tree, const StackDepot &Depot) {
  uint32_t N = 0;
  for (uint32_t E = 0; E < Tree.numEntries(); ++E)
    N += entry_class::numSel(Tree.Class[E]) > 0;
  if (!allocate(N))
    return false;
  uint32_t K = 0;
  for (uint32_t E = 0; E < Tree.numEntries(); ++E) {
    uint32_t C = Tree.Class[E];
    if (entry_class::numSel(C) == 0)
      continue;
    uint32_t NumPcs;
    const uint64_t *Pcs = Depot.frames(Tree.Stacks[E], NumPcs);
    Order[K++] = Sorted{Pcs + entry_class::top(C), entry_class::numSel(C), E};
  }
  sortOrder();
  return true;
}

bool TreeWriter::initRows(const uint64_t *const *Frames,
                          const uint32_t *NumSel, uint32_t N) {
  uint32_t Used = 0;
  for (uint32_t R = 0; R < N; ++R)
    Used += NumSel[R] > 0;
  if (!allocate(Used))
    return false;
  uint32_t K = 0;
  for (uint32_t R = 0; R < N; ++R) {
    if (NumSel[R] == 0)
      continue;
    Order[K++] = Sorted{Frames[R], NumSel[R], R};
  }
  sortOrder();
  return true;
}

uint64_t TreeWriter::selectValues(const uint64_t *Values) {
  NumEcs = 0;
  TopTotal = 0;
  for (uint32_t I = 0; I < NumOrder; ++I) {
    uint64_t V = Values[Order[I].Entry];
    Ecs[NumEcs++] = Ec{Order[I].Ips, Order[I].NumIps, V};
    TopTotal += V;
  }
  return TopTotal;
}

void TreeWriter::prepareSymbolizer() {
  // Every frame an entry may print, in batches; a frame the entry before
  // has at the same depth (sorted, they share their prefixes) is left out.
  uint64_t Batch[256];
  uint32_t N = 0;
  for (uint32_t I = 0; I < NumOrder; ++I) {
    const Sorted &O = Order[I];
    for (uint32_t D = 0; D < O.NumIps; ++D) {
      if (I > 0 && D < Order[I - 1].NumIps && Order[I - 1].Ips[D] == O.Ips[D])
        continue;
      if (N == sizeof(Batch) / sizeof(Batch[0])) {
        Sym.Prepare(Sym.Ctx, Batch, N);
        N = 0;
      }
      Batch[N++] = O.Ips[D];
    }
  }
  if (N)
    Sym.Prepare(Sym.Ctx, Batch, N);
}

uint64_t TreeWriter::select(const Snapshot &S) {
  NumEcs = 0;
  TopTotal = 0;
  for (uint32_t I = 0; I < NumOrder; ++I) {
    const Sorted &O = Order[I];
    if (O.Entry >= S.NumValues)
      continue; // created after the snapshot
    uint64_t V = S.value(O.Entry);
    Ecs[NumEcs++] = Ec{O.Ips, O.NumIps, V};
    TopTotal += V;
  }
  return TopTotal;
}

uint32_t TreeWriter::makeGroups(uint32_t Depth, uint32_t First,
                                uint32_t Count) {
  Group *G = Groups + GroupsTop;
  uint32_t Room = GroupsCap - GroupsTop;
  uint32_t N = 0;
  for (uint32_t I = First; I < First + Count; ++I) {
    const Ec &E = Ecs[I];
    if (E.NumIps <= Depth)
      continue; // ends at the parent: counted there, no child of its own
    if (N > 0 && !G[N - 1].Aggregate && G[N - 1].Addr == E.Ips[Depth] &&
        G[N - 1].First + G[N - 1].Count == I) {
      G[N - 1].Total += E.Value;
      ++G[N - 1].Count;
      continue;
    }
    if (N == Room)
      break; // cannot happen: see the bound above
    G[N++] = Group{E.Value, E.Ips[Depth], I, 1, false};
  }

  // Every group below the significance size joins ONE aggregate, placed
  // where the first of them was.
  uint32_t FirstInsig = 0, NumInsig = 0;
  for (uint32_t I = 0; I < N; ++I) {
    if (G[I].Total < SigB) {
      if (NumInsig == 0) {
        FirstInsig = I;
        G[I].Aggregate = true;
        G[I].Addr = 0;
      } else {
        G[FirstInsig].Total += G[I].Total;
      }
      ++NumInsig;
    } else if (NumInsig > 1) {
      G[I - NumInsig + 1] = G[I];
    }
  }
  if (NumInsig > 0) {
    G[FirstInsig].Count = NumInsig;
    N -= NumInsig - 1;
  }

  heapSort(G, N, [](const Group &L, const Group &R) {
    if (L.Total != R.Total)
      return L.Total > R.Total;
    return L.Addr < R.Addr;
  });
  GroupsTop += N;
  return N;
}

void TreeWriter::putDirectory(TextWriter &W, const char *Dir) const {
  // Valgrind: with --fullpath-after, the directory after the first given
  // string found in it (in the order given; the empty string is found at
  // its start), or the whole directory when none is; then without a
  // leading "./". Without the option, no directory.
  if (!FullpathAfter || FullpathAfter->Count == 0 || !Dir)
    return;
  for (uint32_t I = 0; I < FullpathAfter->Count; ++I) {
    if (const char *Found = findText(Dir, FullpathAfter->Items[I])) {
      Dir = Found + strlen(FullpathAfter->Items[I]);
      break;
    }
  }
  if (Dir[0] == '.' && Dir[1] == '/')
    Dir += 2;
  if (*Dir)
    W.put(Dir).put('/');
}

void TreeWriter::putIp(TextWriter &W, uint64_t Pc, const FrameInfo &F,
                       bool Outer) {
  W.putHex(Sym.PrintedAddress ? Sym.PrintedAddress(Sym.Ctx, Pc) : Pc);
  W.put(": ");
  // Valgrind renames the symbol's name (get_sym_name), never the DWARF name
  // of an inlined level (describe_IP takes those as they are).
  const char *Fn =
      ShowBelowMain || !Outer ? F.Function : displayName(F.Function);
  if (F.File) {
    W.put(Fn ? Fn : "???").put(" (");
    putDirectory(W, F.Dir);
    W.put(F.File).put(':');
    W.putUnsigned(F.Line).put(')');
  } else if (F.Object) {
    W.put(Fn ? Fn : "???").put(" (in ").put(F.Object).put(')');
  } else if (Fn) {
    W.put(Fn).put(" (in ?\?\?)");
  } else {
    W.put("???");
  }
}

/// The frames of Pc's inline chain, innermost first: at least one.
static uint32_t describeChain(const Symbolizer &Sym, uint64_t Pc, bool ReadInlineInfo,
                         FrameInfo *Frames) {
  uint32_t N =
      Sym.Describe ? Sym.Describe(Sym.Ctx, Pc, Frames, MaxInlineFrames) : 0;
  if (N == 0) {
    Frames[0] = FrameInfo{nullptr, nullptr, 0, nullptr};
    N = 1;
  }
  if (!ReadInlineInfo && N > 1) {
    Frames[0].Function = Frames[N - 1].Function;
    N = 1;
  }
  return N;
}

void TreeWriter::emitFrame(TextWriter &W, uint64_t Pc, uint32_t Indent) {
  FrameInfo Frames[MaxInlineFrames];
  uint32_t N = describeChain(Sym, Pc, ReadInlineInfo, Frames);
  for (uint32_t F = 0; F < N; ++F) {
    W.spaces(Indent);
    putIp(W, Pc, Frames[F], F + 1 == N);
    W.put('\n');
  }
}

void TreeWriter::emitGroup(TextWriter &W, uint32_t Depth, uint32_t Indent,
                           const Group &G) {
  if (G.Aggregate) {
    W.spaces(Indent + 1).put("n0: ").putUnsigned(G.Total);
    if (G.Count == 1)
      W.put(format::AggregateOnePrefix);
    else
      W.put(" in ").putUnsigned(G.Count).put(format::AggregateManyInfix);
    W.put(ThresholdText).put(format::AggregateSuffix).put('\n');
    return;
  }

  uint32_t Base = GroupsTop;
  uint32_t NumChildren = makeGroups(Depth + 1, G.First, G.Count);

  FrameInfo Frames[MaxInlineFrames];
  uint32_t NumFrames = describeChain(Sym, G.Addr, ReadInlineInfo, Frames);
  // An inline chain prints innermost first, one more space each; all but
  // the last line have exactly one child.
  for (uint32_t F = 0; F < NumFrames; ++F) {
    bool Last = F + 1 == NumFrames;
    W.spaces(Indent + 1).put('n').putUnsigned(Last ? NumChildren : 1);
    W.put(": ").putUnsigned(G.Total).put(' ');
    putIp(W, G.Addr, Frames[F], Last);
    W.put('\n');
    if (!Last)
      ++Indent;
  }

  for (uint32_t I = 0; I < NumChildren; ++I)
    emitGroup(W, Depth + 1, Indent + 1, Groups[Base + I]);
  GroupsTop = Base;
}

void TreeWriter::emit(TextWriter &W, uint64_t ExtraB, uint64_t StacksB) {
  if (TopTotal == 0 && Threshold != 0)
    SigB = 1;
  else
    SigB = truncToU64(double(TopTotal + ExtraB + StacksB) * Threshold / 100);

  GroupsTop = 0;
  uint32_t N = makeGroups(0, 0, NumEcs);
  W.put('n').putUnsigned(N).put(": ").putUnsigned(TopTotal).put(' ');
  W.put(RootDescription).put('\n');
  for (uint32_t I = 0; I < N; ++I)
    emitGroup(W, 0, 0, Groups[I]);
  GroupsTop = 0;
}

} // namespace massif
