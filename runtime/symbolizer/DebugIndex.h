//===- DebugIndex.h - A module's DWARF, indexed by address ------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// libdw finds the compile unit of an address through .debug_aranges, which
// clang does not emit, and the scopes around an address (dwarf_getscopes)
// by visiting every DIE of the unit: with thousands of functions per unit
// and thousands of addresses to name at exit, both cost seconds. This index
// sorts, once per module, the address ranges of the units, and once per
// unit (the first time an address falls in it) the ranges of its functions,
// so that naming an address visits only the DIEs of the one function that
// contains it. Memory comes from the arena; libdw itself mallocs, so every
// call must run with the runtime's recursion guard set.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SYMBOLIZER_DEBUGINDEX_H
#define MASSIF_SYMBOLIZER_DEBUGINDEX_H

#include <elfutils/libdw.h>
#include <stdint.h>

namespace massif {
namespace symbolizer {

struct DebugIndex;

/// Indexes the compile units of Dw; null when memory ran out.
DebugIndex *buildDebugIndex(Dwarf *Dw);

/// Gives back the index's memory.
void freeDebugIndex(DebugIndex *Index);

/// Finds the compile unit whose ranges contain A (an address in the DWARF's
/// own address space, i.e. without the load bias).
bool findUnit(DebugIndex *Index, Dwarf_Addr A, Dwarf_Die &Cu);

/// The scopes of Cu containing A, innermost first: inlined subroutines and
/// lexical blocks, ending with the out-of-line subprogram. Returns their
/// number (at most Max), 0 when no function of the unit covers A.
int scopesAt(DebugIndex *Index, Dwarf_Die &Cu, Dwarf_Addr A, Dwarf_Die *Out,
             int Max);

} // namespace symbolizer
} // namespace massif

#endif // MASSIF_SYMBOLIZER_DEBUGINDEX_H
