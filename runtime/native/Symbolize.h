//===- Symbolize.h - Code addresses to names with elfutils ------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The native engine's massif::Symbolizer: elfutils' libdwfl over this
// process's own mappings. It names frames the way Valgrind does: the
// out-of-line function by its ELF symbol (demangled), inlined functions by
// their DWARF name, file:line from the line table for the innermost frame
// and from DW_AT_call_file/DW_AT_call_line for each enclosing one.
//
// libdw allocates with malloc, so every call must run with the runtime's
// recursion guard set (its blocks then go straight to glibc), and calls must
// be serialised by the caller (the runtime holds its lock).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_SYMBOLIZE_H
#define MASSIF_NATIVE_SYMBOLIZE_H

#include "Symbolizer.h"

namespace massif {
namespace native {

/// The process-wide symbolizer. Lazily opens the process's modules on the
/// first Describe call; results are cached per address for the life of the
/// process, in arena memory.
const Symbolizer &processSymbolizer();

/// Demangles an Itanium C++ name (an optional "@VERSION" suffix is kept)
/// into arena memory; returns Name itself when it is not mangled or no
/// demangler is available. Uses the program's __cxa_demangle if it links
/// libstdc++, else loads libstdc++.so.6 on first need.
const char *demangle(const char *Name);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_SYMBOLIZE_H
