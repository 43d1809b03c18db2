//===- Symbolizer.h - What the model asks of a symbolizer -------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The model turns code addresses into names only through this interface, so
// each engine brings its own: the native runtime uses elfutils, the Valgrind
// tool uses Valgrind's debug info. Names come back raw (demangled, but not
// yet renamed to "(below main)"); the model applies Massif's rules.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_SYMBOLIZER_H
#define MASSIF_CORE_SYMBOLIZER_H

#include "Base.h"

namespace massif {

/// One printed frame of a code address. An address inside inlined code
/// yields several, innermost first; the last is the out-of-line function.
/// Any pointer may be null when unknown. Strings stay valid until the
/// symbolizer is destroyed.
struct FrameInfo {
  const char *Function; ///< demangled name, e.g. "operator new(unsigned long)"
  const char *File;     ///< bare file name, e.g. "example.c"
  uint32_t Line;        ///< 0 when File is null
  const char *Object;   ///< path of the ELF object, e.g. "/usr/lib/.../libc.so.6"
  /// The directory Valgrind gives for File, e.g. "/home/me/src", for
  /// --fullpath-after and xtree reports ("<Dir>/<File>"); null or empty
  /// when none.
  const char *Dir = nullptr;
};

/// Frames of Valgrind's malloc replacement that Massif's stacks keep,
/// where one replacement function calls another (posix_memalign calls
/// memalign; realloc(p, 0) calls free): an engine that has no such frame
/// puts one of these addresses in its place, and the model names it (no
/// file, no object). They are kernel addresses, never user code.
namespace replacement_pc {
constexpr uint64_t PosixMemalign = 0xFFFFFFFFFFFF0010ull;
constexpr uint64_t Realloc = 0xFFFFFFFFFFFF0020ull;
/// The name of a replacement frame's address, or null for any other.
inline const char *nameOf(uint64_t Pc) {
  return Pc == PosixMemalign ? "posix_memalign"
         : Pc == Realloc     ? "realloc"
                             : nullptr;
}
} // namespace replacement_pc

struct Symbolizer {
  /// Describes Pc (already a return address minus 1 for outer frames) into
  /// Out[0..Max). Returns the number of frames written, at least 1 when
  /// Max >= 1 (a frame with all fields null when nothing is known).
  uint32_t (*Describe)(void *Ctx, uint64_t Pc, FrameInfo *Out, uint32_t Max);
  void *Ctx;
  /// Optional: the name of the out-of-line function at Pc, the Function of
  /// the last frame Describe gives, or null. The model asks only this of
  /// frames it classifies but does not print, so a symbolizer can answer
  /// from the symbol table without reading the debug information. When
  /// null, the model calls Describe.
  const char *(*FunctionName)(void *Ctx, uint64_t Pc) = nullptr;
  /// Optional: the address to print for Pc, where the engine's process is
  /// laid out otherwise than Valgrind lays it out. When null, Pc itself.
  uint64_t (*PrintedAddress)(void *Ctx, uint64_t Pc) = nullptr;
  /// Optional: addresses Describe may be asked about next, in batches, in
  /// no particular order, before the first of those calls. Only a hint: a
  /// symbolizer that reads debug information forward can read it once, in
  /// its own order, instead of in the order the trees are printed.
  void (*Prepare)(void *Ctx, const uint64_t *Pcs, uint32_t NumPcs) = nullptr;
};

} // namespace massif

#endif // MASSIF_CORE_SYMBOLIZER_H
