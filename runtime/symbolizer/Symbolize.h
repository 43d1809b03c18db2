//===- Symbolize.h - Another process's code addresses to names --*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The symbolizer's work, with elfutils' libdwfl over the mappings of the
// profiled process (its pid): frames named the way Valgrind names them.
// The out-of-line function by its ELF symbol (demangled), inlined functions
// by their DWARF name, file:line from the line table for the innermost
// frame and from DW_AT_call_file/DW_AT_call_line for each enclosing one.
// Runs in the symbolizer process (Main.cpp), never in the profiled one.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SYMBOLIZER_SYMBOLIZE_H
#define MASSIF_SYMBOLIZER_SYMBOLIZE_H

#include "Symbolizer.h"

namespace massif {
namespace symbolizer {

/// The frames of an inline chain kept per address; deeper chains lose
/// their outermost levels (the out-of-line function is always kept).
constexpr uint32_t MaxInlineFrames = 32;

/// The process whose addresses are described, and the thread whose maps
/// file is read (the thread-group leader's reads empty once the main
/// thread has left with pthread_exit).
void setTarget(int Pid, int Tid);

/// An object the target unloaded with dlclose, reported from its file at
/// Base, its old load address (the target keeps the range reserved).
void addClosedObject(uint64_t Base, const char *Path);

/// Addresses about to be described: the compile units of a module read
/// unit by unit (DebugImage.h) are then loaded together, in file order.
void prepare(const uint64_t *Pcs, uint32_t NumPcs);

/// Describes Pc into Out[0..MaxInlineFrames), innermost first; returns the
/// number of frames, at least 1 (all fields null when nothing is known).
/// Strings live as long as the process.
uint32_t describe(uint64_t Pc, FrameInfo *Out);

/// The out-of-line function's name at Pc from the symbol table alone, or
/// null (the caller then describes the address for its DWARF name).
const char *functionName(uint64_t Pc);

/// Demangles an Itanium C++ name (an optional "@VERSION" suffix is kept);
/// Name itself when it is not mangled.
const char *demangle(const char *Name);

} // namespace symbolizer
} // namespace massif

#endif // MASSIF_SYMBOLIZER_SYMBOLIZE_H
