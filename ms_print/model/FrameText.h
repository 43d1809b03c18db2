//===- FrameText.h - The parts of a heap tree line's text -----------------===//
//
// Part of massif-native, under the MIT licence.
//
// A heap tree line is "n<children>: <bytes> <text>", and the text is one of
//
//   (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
//   (page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc.
//   0x10931B: grab (inlined.c:10)          function, file and line
//   0x4C2DB8F: malloc (in /usr/lib/x.so)   function and object
//   0x10931B: ???                          nothing known
//   in 3 places, all below massif's threshold (1.00%)
//   in 1 place, below massif's threshold (1.00%)
//
// Function names may hold spaces and parentheses (C++), so the location is
// only the last parenthesised group, and only when it reads "(in OBJ)" or
// "(FILE:LINE)". Inlined calls are written as a chain of nodes with the
// same address, the innermost call first (Valgrind's xtree writer does so).
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_MODEL_FRAMETEXT_H
#define MSPRINT_MODEL_FRAMETEXT_H

#include <cstdint>
#include <string>
#include <string_view>

namespace msprint::model {

/// What kind of node a heap tree line describes.
enum class FrameKind {
  Root,          ///< "(heap allocation functions) ..." or the pages one.
  Code,          ///< "0x...: ..." a code location.
  Insignificant, ///< "in N place(s), ... below massif's threshold (X%)".
};

/// A heap tree line's text, split. Views into the text it came from.
struct FrameText {
  FrameKind Kind = FrameKind::Code;
  /// "0x10931B", without the colon; empty unless Kind is Code.
  std::string_view Address;
  /// "grab", "std::vector<int>::push_back(int const&)", "???"; for the
  /// other kinds, the whole text.
  std::string_view Function;
  /// "inlined.c" and 10 from "(inlined.c:10)"; empty and 0 otherwise.
  std::string_view File;
  uint32_t Line = 0;
  /// "/usr/lib/x.so" from "(in /usr/lib/x.so)"; empty otherwise.
  std::string_view Object;
  /// For Insignificant: how many places were merged.
  uint64_t Places = 0;

  /// The address as a number (0 when there is none).
  uint64_t addressValue() const;
  /// "grab (inlined.c:10)" / "malloc (in x.so)" / "???": the text without
  /// its address, which names the same code in two builds of a program.
  std::string location() const;
};

/// Splits Text (the part of a tree line after the byte count, leading
/// spaces removed).
FrameText parseFrameText(std::string_view Text);

} // namespace msprint::model

#endif // MSPRINT_MODEL_FRAMETEXT_H
