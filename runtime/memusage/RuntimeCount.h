//===- RuntimeCount.h - The preloaded library and an mscc runtime -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// libmsmemusage.so preloaded into an mscc-built program finds the native
// runtime there, whose malloc family the executable defines: every
// allocator call of the process reaches the runtime, never the library.
// The runtime then counts the malloc family itself, into a ProcessCount of
// its own, and hands it to the library, which counts the mmap family
// (the runtime does not see it) into the same count and writes the summary
// at exit. One count, as for any other program.
//
// Each side finds the other by a weak reference the dynamic linker binds:
// the library to the executable's __massif_memusage_count, the runtime to
// the library's __msmemusage_preloaded.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_MEMUSAGE_RUNTIMECOUNT_H
#define MASSIF_MEMUSAGE_RUNTIMECOUNT_H

#include "Counting.h"

namespace massif {
namespace memusage {

/// Both sides must have been built from the same ProcessCount.
constexpr uint32_t RuntimeCountVersion = 1;

struct RuntimeCount {
  uint32_t Version;
  uint32_t CountSize; ///< sizeof(ProcessCount) on the runtime's side
  ProcessCount *Count;
  /// The calling thread's start position, as the runtime keeps it.
  uintptr_t *(*ThreadStart)();
  /// Starts the runtime's count (ProcessCount::ensureStarted with its own
  /// timer), the calling thread's start position being Sp if unset.
  bool (*EnsureStarted)(uintptr_t Sp);
};

} // namespace memusage
} // namespace massif

extern "C" {
/// Defined by the native runtime: its count, from the first call on.
__attribute__((weak)) massif::memusage::RuntimeCount *
__massif_memusage_count();
/// Defined by libmsmemusage.so: present when the library is preloaded.
__attribute__((weak)) extern const int __msmemusage_preloaded;
}

#endif // MASSIF_MEMUSAGE_RUNTIMECOUNT_H
