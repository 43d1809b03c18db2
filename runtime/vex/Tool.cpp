//===- Tool.cpp - The Valgrind tool: registration, options, start, end ----===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// Valgrind calls pre_clo_init first (the tool's needs), then the option
// handler once per tool option, then post_clo_init (the model is built
// here, with the options), then instrument for every translation (the
// first one is Massif's start-up snapshot) and fini at the end of the
// process, however it ends (the profile is written there, and with
// --stats=yes Massif's statistics printed after it).
//
//===----------------------------------------------------------------------===//

#include "Tool.h"

#include "SnapshotEngine.h"
#include "StackFilter.h"

#include <new>

using namespace massif;
using namespace massif::vex;

// The core's --fullpath-after list (pub_core_options.h; not in the tool
// headers).
extern "C" XArray *VG_(clo_fullpath_after);

namespace {

// Storage for the one State, built by pre_clo_init.
alignas(State) char StateMem[sizeof(State)];
State *TheState = nullptr;

// The model's memory: small pieces from Valgrind's heap; large tables
// (the model reserves some ahead) as fresh mappings, whose pages cost
// nothing until touched, where calloc would write every one of them.
constexpr size_t MappedFromB = 1024 * 1024;

size_t roundToPages(size_t SizeB) { return (SizeB + 4095) & ~size_t(4095); }

void *allocate(void *, size_t SizeB) {
  if (SizeB < MappedFromB)
    return VG_(calloc)("msvex.model", 1, SizeB);
  return VG_(am_shadow_alloc)(roundToPages(SizeB));
}

void deallocate(void *, void *P, size_t SizeB) {
  if (SizeB < MappedFromB)
    VG_(free)(P);
  else
    VG_(am_munmap_valgrind)((Addr)P, roundToPages(SizeB));
}

uint64_t instructionsNow(void *) { return guestInstructions(); }
uint64_t millisecondsNow(void *) { return VG_(read_millisecond_timer)(); }

Clock clockFor(const Options &O) {
  switch (O.TimeUnit) {
  case TimeUnit::Instructions:
    return Clock{instructionsNow, nullptr};
  case TimeUnit::Milliseconds:
    return Clock{millisecondsNow, nullptr};
  case TimeUnit::Bytes:
    break;
  }
  return Clock{nullptr, nullptr};
}

/// Massif's options go to the model's parser (its desc: line lists them);
/// --alignment and what Massif does not know go to Valgrind's malloc
/// replacement, as Massif passes them on.
Bool processOption(const HChar *Arg) {
  State &S = state();
  OptionError E;
  // The allocator options Valgrind's core routes through the tool: its
  // malloc replacement keeps its own copy (VG_(clo_xtree_memory), ...).
  bool Alignment = VG_(strncmp)(Arg, "--alignment=", 12) == 0 ||
                   VG_(strncmp)(Arg, "--xtree-", 8) == 0;
  switch (parseOption(S.Opts, Arg, S.Alloc, E)) {
  case ParseResult::Ok:
    return Alignment ? VG_(replacement_malloc_process_cmd_line_option)(Arg)
                     : True;
  case ParseResult::Help:
    return False;
  case ParseResult::Error:
    break;
  }
  if (VG_(strncmp)(E.Text, "Unknown option", 14) == 0 || Alignment)
    return VG_(replacement_malloc_process_cmd_line_option)(Arg);
  // Valgrind prints the "Bad option: ARG" line itself.
  const char *Reason = E.Text;
  if (VG_(strncmp)(Reason, "Bad option: ", 12) == 0)
    if (const char *Next = VG_(strchr)(Reason, '\n'))
      Reason = Next + 1;
  VG_(fmsg_bad_option)(Arg, "%s\n", Reason);
  return False; // not reached: fmsg_bad_option exits
}

bool printText(void *, const char *Data, size_t Len) {
  VG_(printf)("%.*s", (int)Len, Data);
  return true;
}

void printUsage() { writeHelp(Sink{printText, nullptr}); }
void printDebugUsage() { VG_(printf)("    (none)\n"); }

/// Massif's -v lines, through Valgrind's debug messages ("--PID-- ").
void verboseLine(void *, const char *Text) { VG_(dmsg)("Massif: %s\n", Text); }

void postCommandLineInit() {
  State &S = state();
  // Every stack is captured --depth + 50 frames deep.
  if (VG_(clo_backtrace_size) < S.Opts.Depth + 50)
    VG_(clo_backtrace_size) = (Int)S.Opts.Depth + 50;
  if (S.Opts.PagesAsHeap && S.Opts.Stacks)
    VG_(fmsg_bad_option)("--pages-as-heap=yes",
                         "Cannot be used together with --stacks=yes\n");
  // --fullpath-after is the core's own option: the tool reads the core's
  // list.
  if (XArray *L = VG_(clo_fullpath_after)) {
    for (Word I = 0; I < VG_(sizeXA)(L); ++I) {
      const char *Item = *(const HChar **)VG_(indexXA)(L, I);
      HChar Arg[4096];
      VG_(snprintf)(Arg, sizeof(Arg), "--fullpath-after=%s", Item);
      OptionError E;
      parseOption(S.Opts, Arg, S.Alloc, E);
    }
  }
  // Valgrind's core options that shape the tree: its core reads them,
  // the model follows (the names are Valgrind's own either way).
  S.Opts.ShowBelowMain = VG_(clo_show_below_main);
  S.Depot.init(S.Alloc);
  if (!S.Prof.init(S.Opts, S.Alloc, S.Depot, symbolizer(),
                   clockFor(S.Opts))) {
    VG_(umsg)("error: out of memory setting up the profile\n");
    VG_(exit)(1);
  }
  // Valgrind's verbosity is its core's: -v lists the alloc-fns, -v -v
  // traces the snapshots, as Massif.
  if (VG_(clo_verbosity) > 1)
    traceAllocFns(S.Opts, SnapshotTrace{verboseLine, nullptr});
  if (VG_(clo_verbosity) > 2)
    S.Prof.setSnapshotTrace(SnapshotTrace{verboseLine, nullptr});
  registerTrackers(S.Opts);
  S.Ready = true;
}

IRSB *instrumentAndStart(VgCallbackClosure *Closure, IRSB *In,
                         const VexGuestLayout *Layout,
                         const VexGuestExtents *Extents,
                         const VexArchInfo *ArchHost, IRType GuestWord,
                         IRType HostWord) {
  State &S = state();
  if (!S.StartedExecuting) {
    // Massif's start-up snapshot: when the first code is translated.
    S.StartedExecuting = true;
    S.Prof.startup();
  }
  if (S.Opts.TimeUnit != TimeUnit::Instructions)
    return In;
  return instrument(Closure, In, Layout, Extents, ArchHost, GuestWord,
                    HostWord);
}

/// Massif's statistics (--stats=yes at the end; Valgrind's `v.info stats`
/// monitor command any time), through Valgrind's debug messages.
void printStats() {
  State &S = state();
  if (S.Ready)
    traceStats(S.Prof.stats(), SnapshotTrace{verboseLine, nullptr});
}

void finish(Int) {
  writeProfile();
  if (VG_(clo_stats))
    printStats();
}

void preCommandLineInit() {
  TheState = new (StateMem) State();
  TheState->Alloc = Allocator{allocate, deallocate, nullptr};

  VG_(details_name)("massif-native");
  VG_(details_version)(MASSIF_NATIVE_VERSION);
  VG_(details_description)("a heap profiler (VEX engine)");
  VG_(details_copyright_author)(
      "massif-native's Valgrind tool, GNU GPL'd; Valgrind's core by "
      "Julian Seward et al.");
  VG_(details_bug_reports_to)("the massif-native project");
  VG_(details_avg_translation_sizeB)(330);
  // As Massif: the stack pointer is exact at every memory access, which
  // the stack trackers need.
  VG_(clo_vex_control).iropt_register_updates_default =
      VG_(clo_px_file_backed) = VexRegUpdSpAtMemAccess;

  VG_(basic_tool_funcs)(postCommandLineInit, instrumentAndStart, finish);
  VG_(needs_libc_freeres)();
  VG_(needs_cxx_freeres)();
  VG_(needs_command_line_options)(processOption, printUsage,
                                  printDebugUsage);
  VG_(needs_print_stats)(printStats);
  registerHeapEvents();
}

} // namespace

State &vex::state() { return *TheState; }

StackId vex::captureStack(ThreadId Tid, bool ExcludeFirst) {
  // Massif's make_ec: --depth plus 50 frames, so that stripping the
  // alloc-fns at the top still leaves --depth. With --heap=no the model
  // charges nothing to stacks, and Massif unwinds none.
  static Addr Ips[200 + 50];
  State &S = state();
  if (!S.Opts.Heap)
    return 0;
  UInt N = VG_(get_StackTrace)(Tid, Ips, (UInt)S.Opts.Depth + 50, nullptr,
                               nullptr, 0);
  const Addr *First = Ips;
  if (ExcludeFirst) {
    if (N <= 1)
      return 0;
    ++First;
    --N;
  }
  static_assert(sizeof(Addr) == sizeof(uint64_t), "64-bit addresses");
  return N ? S.Depot.intern(reinterpret_cast<const uint64_t *>(First), N)
           : 0;
}

extern "C" {
VG_DETERMINE_INTERFACE_VERSION(preCommandLineInit)
}
