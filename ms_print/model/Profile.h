//===- Profile.h - A whole massif.out file in memory ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The model the views and ms_diff work on. The report (report/) streams the
// file with Perl's semantics instead and keeps nothing; this keeps every
// snapshot and every tree, read strictly: a file that is not a massif.out
// file is refused with the line and what was expected there.
//
// A tree is stored flat, in the file's (depth-first, largest child first)
// order. Node I's subtree is [I, Nodes[I].End), so its children are
// I+1, Nodes[I+1].End, ... up to Nodes[I].End. Texts are views into the
// file, which the Profile keeps.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_MODEL_PROFILE_H
#define MSPRINT_MODEL_PROFILE_H

#include "FrameText.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace msprint {
class InputFile;
}

namespace msprint::model {

/// heap_tree=empty|detailed|peak.
enum class TreeKind { Empty, Detailed, Peak };

/// One line of a heap tree.
struct Node {
  uint64_t Bytes = 0;
  /// One past the last node of this node's subtree.
  uint32_t End = 0;
  /// 0 for the root.
  uint32_t Depth = 0;
  /// The text after the byte count, e.g. "0x10931B: grab (inlined.c:10)".
  std::string_view Text;
};

struct Snapshot {
  /// The snapshot= number as written.
  uint64_t Number = 0;
  uint64_t Time = 0;
  uint64_t HeapBytes = 0;
  uint64_t ExtraBytes = 0;
  uint64_t StackBytes = 0;
  TreeKind Tree = TreeKind::Empty;
  /// Depth-first; empty unless the snapshot is detailed (or the peak).
  std::vector<Node> Nodes;

  uint64_t total() const { return HeapBytes + ExtraBytes + StackBytes; }
  bool detailed() const { return Tree != TreeKind::Empty; }
  /// Calls F(ChildIndex) for each child of node I, largest first.
  template <typename Fn> void forEachChild(uint32_t I, Fn F) const {
    for (uint32_t C = I + 1; C < Nodes[I].End; C = Nodes[C].End)
      F(C);
  }
};

struct Profile {
  Profile();
  ~Profile();
  Profile(Profile &&) noexcept;
  Profile &operator=(Profile &&) noexcept;

  /// The desc: lines' values, joined by '\n'.
  std::string Desc;
  std::string Cmd;
  /// "i", "ms" or "B".
  std::string TimeUnit;
  std::vector<Snapshot> Snapshots;

  /// The snapshot Massif marked heap_tree=peak; if none, the first with the
  /// largest total; SIZE_MAX when there are no snapshots.
  size_t peakIndex() const;
  /// The last snapshot with a tree; SIZE_MAX when none has one.
  size_t lastDetailedIndex() const;
  /// Resolves "peak", "last" or a snapshot= number to an index; SIZE_MAX
  /// when there is no such snapshot.
  size_t findSnapshot(std::string_view Which) const;

  /// The file the texts point into.
  std::unique_ptr<InputFile> Source;
};

/// Reads the massif.out file at Path ("-" for stdin). On failure returns
/// false and sets Error to "PATH:LINE: what was wrong".
bool loadProfile(const std::string &Path, Profile &P, std::string &Error);

/// The same from text already in memory (tests); Name is used in errors.
bool parseProfile(std::string_view Text, std::string_view Name, Profile &P,
                  std::string &Error);

} // namespace msprint::model

#endif // MSPRINT_MODEL_PROFILE_H
