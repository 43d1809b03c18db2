//===- Tool.h - The Valgrind tool's state and parts -------------*- C++ -*-===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// The tool is glue between Valgrind's core and the project's profile model
// (runtime/core, MIT): Valgrind reports the events (its malloc replacement,
// its memory trackers, client requests, translations), the model does
// everything Massif does with them (blocks, tree, snapshots, culling,
// peaks) and writes massif.out. Valgrind runs one thread at a time, so the
// model is called without locks.
//
//   Tool.cpp         registration, options, start and end
//   Heap.cpp         the malloc replacement and the client requests
//   Trackers.cpp     --pages-as-heap=yes (mappings, brk) and --stacks=yes
//   Instrument.cpp   --time-unit=i: guest instructions, as Massif counts
//   Symbols.cpp      code addresses to names, through Valgrind's debug info
//   Output.cpp       the massif.out file
//   Freestanding.cpp the C functions the model needs, from Valgrind's libc
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_VEX_TOOL_H
#define MASSIF_VEX_TOOL_H

#include "Valgrind.h"

#include "Options.h"
#include "Profile.h"
#include "StackDepot.h"

namespace massif {
namespace vex {

/// The tool's name: its executable is <name>-amd64-linux and its preloaded
/// malloc replacement vgpreload_<name>-amd64-linux.so, in the tool's own
/// VALGRIND_LIB folder.
constexpr const char *ToolName = "msvex";

/// Everything the parts share. Built in place by the tool's start-up
/// (Valgrind runs no global constructors in a tool).
struct State {
  Options Opts;
  StackDepot Depot;
  Profile Prof;
  Allocator Alloc;
  bool Ready = false;            ///< the model is set up (post_clo_init)
  bool StartedExecuting = false; ///< the first translation was made
};

State &state();

/// Massif's stack of the running thread Tid, interned: --depth + 50 frames
/// from Valgrind's unwinder, without the first (the replaced allocation
/// function) when ExcludeFirst. 0 when nothing is left.
StackId captureStack(ThreadId Tid, bool ExcludeFirst);

/// The model's view of Valgrind's debug information.
Symbolizer symbolizer();

/// Writes the profile to --massif-out-file, expanded now. Reports an
/// unwritable file as Massif does.
void writeProfile();

/// Writes an xtree memory report of the current state to Path (expanded
/// already), as Massif's: callgrind format unless Path contains ".ms".
/// Reports an unopenable file as Valgrind does; with Announce, logs
/// "xtree memory report: <Path>". Returns whether it was written.
bool writeXtreeReport(const HChar *Path, bool Announce);

/// The client's command line for a file's cmd: line (free with VG_(free)).
const char **clientArgv(UInt &Argc);

/// The buffered sink of the one file written at a time, on Fd, and its
/// flush (false when a write failed).
Sink openFileSink(Int Fd);
bool flushFileSink();

/// Massif's monitor command Line (from vgdb, gdb or the client's request,
/// runtime/core/control/Monitor.h). Whether it was recognised.
bool handleMonitorCommand(const HChar *Line);

/// Registers the malloc replacement and the client request handler.
void registerHeapEvents();

/// Registers the stack and page trackers the options ask for, and takes
/// the malloc replacement out of LD_PRELOAD for --pages-as-heap=yes.
void registerTrackers(const Options &O);

/// The instrumentation pass (VG_(basic_tool_funcs)), and the instruction
/// count it keeps.
IRSB *instrument(VgCallbackClosure *Closure, IRSB *In,
                 const VexGuestLayout *Layout, const VexGuestExtents *Extents,
                 const VexArchInfo *ArchHost, IRType GuestWord,
                 IRType HostWord);
uint64_t guestInstructions();

} // namespace vex
} // namespace massif

#endif // MASSIF_VEX_TOOL_H
