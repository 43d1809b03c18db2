//===- Options.h - Massif's options, parsed -------------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The Options struct has one field per row of Options.def. Parsing follows
// Valgrind's rules (yes/no booleans, decimal integers without trailing
// garbage, Valgrind's own decimal-fraction parser for thresholds) and
// reports errors in Massif's words plus what the option accepts.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_OPTIONS_H
#define MASSIF_CORE_OPTIONS_H

#include "Base.h"

namespace massif {

enum class TimeUnit : uint8_t { Instructions, Milliseconds, Bytes };

/// --xtree-memory: no report, live blocks at report time, or counters kept
/// during the run (spec section 7.3).
enum class XtreeMode : uint8_t { None, Allocs, Full };

/// The type of each MASSIF_ENUM row's field; its enumerators follow the
/// order of the row's Choices.
using TimeUnitType = TimeUnit;
using XtreeMemoryType = XtreeMode;

/// The position of Value among the '|'-separated Choices (0 if absent).
constexpr uint8_t choiceIndex(const char *Value, const char *Choices) {
  uint8_t Index = 0;
  const char *C = Choices;
  while (*C) {
    const char *V = Value;
    while (*V && *C && *C != '|' && *V == *C)
      ++V, ++C;
    if (!*V && (!*C || *C == '|'))
      return Index;
    while (*C && *C != '|')
      ++C;
    if (*C == '|')
      ++C;
    ++Index;
  }
  return 0;
}

/// A repeatable option's values, in command-line order.
struct StringList {
  const char **Items = nullptr;
  uint32_t Count = 0;
  uint32_t Capacity = 0;
};

struct Options {
#define MASSIF_BOOL(Name, Field, Default, Help) bool Field = Default;
#define MASSIF_INT(Name, Field, Default, Min, Max, Help) int64_t Field = Default;
#define MASSIF_DOUBLE(Name, Field, Default, Min, Max, Checked, Help)           \
  double Field = Default;
#define MASSIF_ENUM(Name, Field, Default, Choices, Help)                       \
  Field##Type Field = Field##Type(choiceIndex(Default, Choices));
#define MASSIF_STRING(Name, Field, Default, Help) const char *Field = Default;
#define MASSIF_LIST(Name, Field, Help) StringList Field;
#define MASSIF_CORE_INT(Name, Field, Default, Min, Max, Help)                  \
  int64_t Field = Default;
#define MASSIF_CORE_STRING(Name, Field, Default, Help)                         \
  const char *Field = Default;
#include "Options.def"

  /// Valgrind's verbosity: 1, one less per -q, one more per -v.
  int64_t Verbosity = 1;
  /// The process msrun started (msrun's internal --msrun-pid=<pid> word in
  /// MASSIF_OPTIONS), or 0: any other process that reads these options
  /// was started by the profiled program, and profiles itself only with
  /// --trace-children=yes.
  int64_t MsrunPid = 0;
  /// msrun itself (its internal --msrun-path=<file> word), through which
  /// the runtime runs the children it follows; null when not given.
  const char *MsrunPath = nullptr;
  /// The first option given that the native engine refuses
  /// (MASSIF_NATIVE_REFUSED), by name, or null.
  const char *NativeRefused = nullptr;

  /// Every accepted argument, verbatim and in order, for the desc: line
  /// (Valgrind core options such as --run-libc-freeres aside, as Massif).
  StringList Given;
};

/// Why an argument was rejected: Massif's reason text and what the option
/// accepts, ready to print.
struct OptionError {
  char Text[512];
};

enum class ParseResult : uint8_t {
  Ok,    ///< applied to the Options
  Help,  ///< --help or -h was given
  Error, ///< OptionError says why; the caller prints it and exits 1
};

/// msrun's internal words in MASSIF_OPTIONS: "--msrun-pid=<pid>" (-1: a
/// program that must not profile itself) and "--msrun-path=<file>".
constexpr const char MsrunPidOption[] = "msrun-pid";
constexpr const char MsrunPathOption[] = "msrun-path";

/// Applies one argument such as "--depth=12". Strings are copied into memory
/// from A, so Arg need not outlive the call.
ParseResult parseOption(Options &O, const char *Arg, const Allocator &A,
                        OptionError &E);

/// Calls Word for each word of Text (the MASSIF_OPTIONS variable: words
/// separated by Valgrind's blanks, a backslash taking the next character
/// literally), unescaped and NUL-terminated in memory from A, valid during
/// the call. Stops when Word returns false. Returns false then, or when
/// memory is exhausted; true after the last word.
bool forEachOptionWord(const char *Text, const Allocator &A,
                       bool (*Word)(void *Ctx, const char *W), void *Ctx);

/// Applies a whitespace-separated list of arguments (the MASSIF_OPTIONS
/// variable, split by forEachOptionWord). Stops at the first error.
ParseResult parseOptionString(Options &O, const char *Text, const Allocator &A,
                              OptionError &E);

/// Whether an engine can do what O asks: --pages-as-heap=yes needs one that
/// sees the process's page mappings (SeesPages). When it cannot, fills E as
/// for a bad option and returns false.
bool engineCanProfile(const Options &O, bool SeesPages, OptionError &E);

/// Whether the native engine can honour every option given: it refuses
/// the MASSIF_NATIVE_REFUSED ones (filling E with the reason).
bool nativeTakesOptions(const Options &O, OptionError &E);

/// Writes the option list, one line per option with its default, in the
/// style of `valgrind --tool=massif --help`.
void writeHelp(const Sink &Out);

/// Formats V as Valgrind's own printf formats "%.2f" (used for the
/// threshold in aggregate lines; rounds some ties differently from C).
/// Buf must hold 32 bytes; returns the length.
size_t formatValgrindFixed2(double V, char *Buf);

} // namespace massif

#endif // MASSIF_CORE_OPTIONS_H
