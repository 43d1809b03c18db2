//===- SymbolizerClient.h - Names from the symbolizer process ---*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The native engine's massif::Symbolizer. Naming code addresses needs
// elfutils, and elfutils must not be loaded into the profiled program (its
// libraries would change the program's link map, its threads' TLS and its
// own copies of zlib or libelf), so the names come from another process:
// massif-symbolizer (runtime/symbolizer/), whose executable is embedded in
// the runtime and started from memory (memfd) when a name is first needed,
// orphaned from the start so that it is never a child of the program's.
// The two talk over a socket (runtime/symbolizer/Protocol.h); the answers
// are kept per address in arena memory.
//
// Calls must be serialised by the caller (the runtime holds the model's
// lock). Nothing here allocates from the heap, and everything it calls is
// async-signal-safe, so a fatal signal's handler can write a profile. When
// the symbolizer cannot run, or stops working without answering, frames
// are printed with their object only, and one warning says why: no wait
// for it is unbounded.
//
// This folder (symbolize/) calls unwind/ (which objects were unloaded),
// runtime/support and the symbolizer's protocol, nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_SYMBOLIZERCLIENT_H
#define MASSIF_NATIVE_SYMBOLIZERCLIENT_H

#include "Symbolizer.h"

#include <stdint.h>

namespace massif {
namespace native {

/// The process-wide symbolizer.
const Symbolizer &processSymbolizer();

/// Ends the symbolizer process, if one runs (its next use starts another):
/// after each profile is written, so that no process of the runtime's
/// outlives the program or an exec by more than its end of input.
void stopSymbolizer();

/// How long the symbolizer may do nothing (neither run nor answer) before
/// the runtime stops waiting for it; 0 keeps the default, 10 s.
void setSymbolizerStallBound(uint32_t Ms);

/// In a forked child: the symbolizer process belongs to the parent, and
/// the child starts its own when it needs one (answers already known stay:
/// the child's code lies where the parent's did).
void symbolizerAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_SYMBOLIZERCLIENT_H
