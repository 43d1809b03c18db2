//===- RuntimeProbe.h - Whether a program carries the runtime ---*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// msrun runs only programs whose executable carries the native runtime
// (built with mscc/mscxx): any other would run unprofiled and write
// nothing. The executable defines the runtime's ABI version symbol
// (include/massif/abi.h) in its dynamic symbol table, or in its symbol
// table when linked statically.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_DRIVER_RUNTIMEPROBE_H
#define MASSIF_DRIVER_RUNTIMEPROBE_H

#include <string>

namespace massif {

/// The file execvp would run for Program (a path, or a name looked up in
/// PATH); empty when there is none.
std::string findProgram(const char *Program);

/// Whether the ELF executable at Path defines the runtime's ABI version
/// symbol. False, with Why saying what it is instead, for anything else.
bool carriesRuntime(const std::string &Path, std::string &Why);

} // namespace massif

#endif // MASSIF_DRIVER_RUNTIMEPROBE_H
