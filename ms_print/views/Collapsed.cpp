//===- Collapsed.cpp - Collapsed stacks for flame graphs ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The "folded" stack format flamegraph.pl, inferno and speedscope read: one
// line per distinct stack, "outer;...;inner BYTES", the count after the
// line's last space. Frames are function names (StackWalk.h), outermost
// caller first; stacks that read the same merge into one line, in the
// order they first appear (the tree's, largest first). "(heap admin)" and
// "(stacks)" lines carry mem_heap_extra_B and mem_stacks_B, so a
// snapshot's lines sum to its total, as ms_print's graph shows it. With
// --snapshot=all each stack starts with a "snapshot N" frame.
//
// A ';' in a name would split the frame and becomes ','; control characters
// (never in Massif's files, which are read by line) become spaces.
//
//===----------------------------------------------------------------------===//

#include "StackWalk.h"
#include "Views.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace msprint::views {

using namespace model;

namespace {

/// Name as one frame of a collapsed line.
std::string collapsedFrame(std::string Name) {
  for (char &C : Name) {
    if (C == ';')
      C = ',';
    else if (static_cast<unsigned char>(C) < 0x20 || C == 0x7f)
      C = ' ';
  }
  return Name;
}

/// Distinct stacks and their bytes, in first-seen order.
class StackTable {
public:
  void add(std::string Stack, uint64_t Bytes) {
    auto [It, New] = Index.try_emplace(Stack, Stacks.size());
    if (New)
      Stacks.emplace_back(std::move(Stack), Bytes);
    else
      Stacks[It->second].second += Bytes;
  }

  void write(Sink &Out) const {
    std::string Line;
    for (const auto &[Stack, Bytes] : Stacks) {
      Line = Stack;
      Line += ' ';
      Line += std::to_string(Bytes);
      Line += '\n';
      Out.write(Line);
    }
  }

private:
  std::unordered_map<std::string, size_t> Index;
  std::vector<std::pair<std::string, uint64_t>> Stacks;
};

void addSnapshot(const Snapshot &S, const std::string &Prefix,
                 StackTable &Table) {
  std::vector<std::string> Names(S.Nodes.size());
  for (size_t I = 0; I < S.Nodes.size(); ++I)
    Names[I] = collapsedFrame(frameName(parseFrameText(S.Nodes[I].Text)));
  std::string Stack;
  forEachStack(S, [&](const std::vector<uint32_t> &Path, uint64_t Bytes) {
    Stack = Prefix;
    if (Path.empty()) {
      Stack += Names[0];
    } else {
      for (size_t I = Path.size(); I-- > 0;) {
        Stack += Names[Path[I]];
        if (I)
          Stack += ';';
      }
    }
    Table.add(Stack, Bytes);
  });
  if (S.ExtraBytes)
    Table.add(Prefix + HeapAdminFrame, S.ExtraBytes);
  if (S.StackBytes)
    Table.add(Prefix + StacksFrame, S.StackBytes);
}

} // namespace

void writeCollapsed(const Profile &P, const SnapshotChoice &Which, Sink &Out) {
  StackTable Table;
  for (size_t I : Which.Indexes) {
    const Snapshot &S = P.Snapshots[I];
    std::string Prefix;
    if (Which.All)
      Prefix = "snapshot " + std::to_string(S.Number) + ";";
    addSnapshot(S, Prefix, Table);
  }
  Table.write(Out);
}

} // namespace msprint::views
