//===- SymbolTable.h - A module's functions, read the way Valgrind reads them -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Which ELF symbol names a code address decides the printed function of
// every out-of-line frame, so the table follows Valgrind's reader:
//
// * only named function, object and ifunc symbols of non-zero size and
//   value, in executable sections, count (assembler labels such as ld.so's
//   _dl_start_user, of no type and size 0, do not: the address is "???");
// * symbols covering the same range are one entry whose name is chosen
//   among the aliases: the shortest ignoring a version suffix, then a
//   versioned one, then the alphabetically first (strndup, not __strndup;
//   __libc_start_main@@GLIBC_2.34, not __libc_start_main_impl);
// * overlapping ranges are cut so that every address has one entry: the
//   earlier symbol ends where the next begins.
//
// Built once per module from libdwfl's symbol table (the debug file's
// .symtab when there is one, else .dynsym), in arena memory; lookups are a
// binary search.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SYMBOLIZER_SYMBOLTABLE_H
#define MASSIF_SYMBOLIZER_SYMBOLTABLE_H

#include <elfutils/libdwfl.h>
#include <stdint.h>

namespace massif {
namespace symbolizer {

struct SymbolTable;

/// Reads the function symbols of Mod; null when it has none or memory ran
/// out. Must run with the runtime's recursion guard set (libdwfl mallocs).
SymbolTable *buildSymbolTable(Dwfl_Module *Mod);

/// The raw (mangled, possibly versioned) name of the function covering Pc,
/// or null.
const char *symbolAt(const SymbolTable *T, uint64_t Pc);

/// Valgrind's order between two names of one address: true when A is
/// preferred to B.
bool preferName(const char *A, const char *B);

} // namespace symbolizer
} // namespace massif

#endif // MASSIF_SYMBOLIZER_SYMBOLTABLE_H
