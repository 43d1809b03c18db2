//===- Writer.cpp - The massif.out file -----------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Writes the header and every snapshot in the array, in Massif's format
// (include/massif/format.h spells every key):
//
//   desc: <each accepted option>     or "desc: (none)"
//   cmd: <program and arguments, joined by single spaces>
//   time_unit: i | ms | B
//   then per snapshot: separator, snapshot=N, separator, time, heap, extra,
//   stacks, heap_tree=empty|detailed|peak and, unless empty, the tree.
//
// A detailed snapshot's mem_heap_B is the sum of its tree's values, which
// can exceed the running total after a realloc of an ignored block (a
// Massif quirk kept on purpose). Stacks whose classification was deferred
// are classified here, before the first tree is printed.
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

const char *timeUnitText(TimeUnit U) {
  switch (U) {
  case TimeUnit::Instructions:
    return format::TimeUnitInstructions;
  case TimeUnit::Milliseconds:
    return format::TimeUnitMilliseconds;
  case TimeUnit::Bytes:
    return format::TimeUnitBytes;
  }
  return format::TimeUnitInstructions;
}

void writeHeader(TextWriter &W, const Options &O, const RunInfo &Run) {
  W.put(format::DescKey);
  for (uint32_t I = 0; I < O.Given.Count; ++I)
    W.put(' ').put(O.Given.Items[I]);
  if (O.Given.Count == 0)
    W.put(format::DescNone);
  W.put('\n');

  writeCmdLine(W, Run);
  W.put(format::TimeUnitKey).put(' ').put(timeUnitText(O.TimeUnit)).put('\n');
}

void writeSnapshotFields(TextWriter &W, uint32_t N, const Snapshot &S,
                         uint64_t HeapB, const char *Tree) {
  W.put(format::SnapshotSeparator).put('\n');
  W.put(format::SnapshotKey).putUnsigned(N).put('\n');
  W.put(format::SnapshotSeparator).put('\n');
  W.put(format::TimeKey).putSigned(S.Time).put('\n');
  W.put(format::HeapKey).putUnsigned(HeapB).put('\n');
  W.put(format::HeapExtraKey).putUnsigned(S.ExtraB).put('\n');
  W.put(format::StacksKey).putUnsigned(S.StacksB).put('\n');
  W.put(format::HeapTreeKey).put(Tree).put('\n');
}

/// Writes the header and Count snapshots, the K-th being At(K) and
/// numbered K (snapshots are frozen: writing changes nothing but the
/// deferred classification of stacks, which any write may finish).
template <typename AtFn>
bool writeSnapshots(Profile::Impl &I, const Sink &Out, const RunInfo &Run,
                    uint32_t Count, AtFn At) {
  TextWriter W(Out);
  writeHeader(W, I.Opts, Run);

  bool AnyTree = false;
  for (uint32_t K = 0; K < Count; ++K)
    AnyTree |= At(K).Detailed;

  TreeWriter Trees(I.A, I.Sym, I.Opts.Threshold,
                   I.Opts.PagesAsHeap ? format::RootPages : format::RootHeap);
  Trees.setFullpathAfter(&I.Opts.FullpathAfter);
  Trees.ShowBelowMain = I.Opts.ShowBelowMain;
  Trees.ReadInlineInfo = I.Opts.ReadInlineInfo;
  bool HaveTrees = false;
  if (AnyTree) {
    for (uint32_t E = 0; E < I.Tree.numEntries(); ++E)
      if (I.Tree.Class[E] == entry_class::Unclassified)
        I.classify(E);
    HaveTrees = Trees.init(I.Tree, *I.Depot);
  }

  for (uint32_t K = 0; K < Count; ++K) {
    const Snapshot &S = At(K);
    if (!S.Detailed || !HaveTrees) {
      writeSnapshotFields(W, K, S, S.HeapB, format::TreeEmpty);
      continue;
    }
    uint64_t HeapB = Trees.select(S);
    writeSnapshotFields(W, K, S, HeapB,
                        S.Kind == SnapshotKind::Peak ? format::TreePeak
                                                     : format::TreeDetailed);
    Trees.emit(W, S.ExtraB, S.StacksB);
  }
  return W.flush();
}

} // namespace

void writeCmdLine(TextWriter &W, const RunInfo &Run) {
  W.put(format::CmdKey).put(' ');
  for (uint32_t I = 0; I < Run.Argc; ++I) {
    if (I)
      W.put(' ');
    W.put(Run.Argv[I] ? Run.Argv[I] : "");
  }
  W.put('\n');
}

bool Profile::write(const Sink &Out, const RunInfo &Run) {
  if (!P)
    return false;
  const SnapshotEngine &Snaps = P->Snaps;
  return writeSnapshots(*P, Out, Run, Snaps.size(),
                        [&](uint32_t K) -> const Snapshot & {
                          return Snaps.at(K);
                        });
}

Profile::NowResult Profile::writeNow(const Sink &Out, const RunInfo &Run,
                                     bool Detailed) {
  if (!P)
    return NowResult::IoError;
  Impl &I = *P;
  // Massif refuses before the program's first instruction (outside page
  // mode, where the start-up mappings are already counted).
  if (!I.Started)
    return NowResult::NotStarted;
  I.Snaps.noteTakenAside(Detailed); // Massif's statistics count it
  Snapshot S = {};
  S.Kind = SnapshotKind::Normal;
  S.Time = I.now();
  S.HeapB = I.Hot.HeapB;
  S.ExtraB = I.Hot.ExtraB;
  S.StacksB = I.Hot.StacksB;
  // The tree's values now, copied aside: the engine's shared chunks and
  // the tree's change flags stay as they are, so the next detailed
  // snapshot is what it would have been.
  LiveValues V = I.Tree.live();
  uint32_t N = V.N ? V.N : 1;
  uint32_t NumChunks = (N + ValueChunkEntries - 1) >> ValueChunkBits;
  ValueChunk *Copies = nullptr;
  ValueChunk **Table = nullptr;
  if (Detailed && I.Opts.Heap) {
    Copies = allocArray<ValueChunk>(I.A, NumChunks);
    Table = allocArray<ValueChunk *>(I.A, NumChunks);
    if (Copies && Table) {
      for (uint32_t K = 0; K < NumChunks; ++K) {
        Copies[K].Refs = 1;
        memcpy(Copies[K].V, V.Values + (size_t(K) << ValueChunkBits),
               sizeof(Copies[K].V));
        Table[K] = &Copies[K];
      }
      S.Chunks = Table;
      S.NumValues = N;
      S.ChunksCap = NumChunks;
      S.Detailed = true;
    }
  }
  bool Ok = writeSnapshots(I, Out, Run, 1,
                           [&](uint32_t) -> const Snapshot & { return S; });
  if (Copies)
    freeArray(I.A, Copies, NumChunks);
  if (Table)
    freeArray(I.A, Table, NumChunks);
  return Ok ? NowResult::Written : NowResult::IoError;
}

} // namespace massif
