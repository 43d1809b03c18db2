//===- StackWalk.h - A snapshot's tree as stacks with own bytes -----------===//
//
// Part of massif-native, under the MIT licence.
//
// The collapsed and pprof exports both see a heap tree as a set of stacks:
// every node whose own bytes (its bytes minus its children's) are not zero
// ends one stack, the path from the root's child (the allocation
// function's caller, innermost) down to that node (outermost). The root
// node, the allocation function group, is no frame; bytes the root keeps
// for itself (an allocation with no caller) make an empty stack, which the
// exports name after the root.
//
// Also the frame names the two share: a code frame is its function name,
// "???" keeps its object ("??? (in /lib/x.so)", Massif's own words) so that
// unknown code in two libraries stays apart; the node of the places below
// Massif's threshold is "(below threshold)".
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_VIEWS_STACKWALK_H
#define MSPRINT_VIEWS_STACKWALK_H

#include "Profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprint::views {

/// The pseudo-frames that make a snapshot's stacks sum to its total.
inline constexpr const char *BelowThresholdFrame = "(below threshold)";
inline constexpr const char *HeapAdminFrame = "(heap admin)";
inline constexpr const char *StacksFrame = "(stacks)";

/// The name of the frame a tree line stands for.
inline std::string frameName(const model::FrameText &F) {
  switch (F.Kind) {
  case model::FrameKind::Insignificant:
    return BelowThresholdFrame;
  case model::FrameKind::Root: {
    // "(heap allocation functions) malloc/new/..." -> its first group.
    std::string_view T = F.Function;
    size_t Close = T.find(')');
    if (!T.empty() && T[0] == '(' && Close != std::string_view::npos)
      return std::string(T.substr(0, Close + 1));
    return std::string(T);
  }
  case model::FrameKind::Code:
    break;
  }
  if (F.Function == "???" && !F.Object.empty())
    return F.location();
  return std::string(F.Function);
}

/// Calls F(Path, OwnBytes) for each node of S's tree with own bytes, in
/// file order; Path holds node indexes, the root's child (innermost) first
/// and the node itself last, and is empty for the root. A node whose
/// children claim more than its bytes owns none (never in Massif's files).
template <typename Fn> void forEachStack(const model::Snapshot &S, Fn F) {
  if (S.Nodes.empty())
    return;
  // The open subtrees below the root (node 0, whose subtree is the tree).
  std::vector<uint32_t> Path;
  const uint32_t Size = uint32_t(S.Nodes.size());
  for (uint32_t I = 0; I < Size; ++I) {
    while (!Path.empty() && S.Nodes[Path.back()].End <= I)
      Path.pop_back();
    if (I)
      Path.push_back(I);
    uint64_t Children = 0;
    S.forEachChild(I, [&](uint32_t C) { Children += S.Nodes[C].Bytes; });
    uint64_t Bytes = S.Nodes[I].Bytes;
    if (Bytes > Children)
      F(Path, Bytes - Children);
  }
}

} // namespace msprint::views

#endif // MSPRINT_VIEWS_STACKWALK_H
