//===- TestSupport.h - Fakes for driving the core model in tests ----------===//
//
// Part of massif-native, under the MIT licence.
//
// A counting heap Allocator, a Sink into a std::string, a Symbolizer that
// answers from a table of synthetic addresses, and ProfileRig, which owns
// a StackDepot and a Profile parsed from Massif-style option strings.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_TEST_UNIT_CORE_TESTSUPPORT_H
#define MASSIF_TEST_UNIT_CORE_TESTSUPPORT_H

#include "Options.h"
#include "Profile.h"
#include "StackDepot.h"
#include "Symbolizer.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace massif {
namespace test {

/// Zeroed memory from calloc, with a running count of live bytes.
/// Counts the bytes the model holds. Requests of 64 KiB and more are
/// mmap'd and grown by mremap, as the native runtime's arena does, so that
/// residentB() can tell the pages the model touched from the ones it only
/// reserved.
struct CountingAllocator {
  std::atomic<int64_t> LiveB{0}; ///< requested, touched or not
  bool Remaps = true; ///< grows mapped requests by mremap
  Allocator get();
  /// Small requests in full, mapped ones by their resident pages.
  int64_t residentB();

  std::mutex Lock;
  std::map<void *, size_t> Mapped; ///< Lock held
};

/// Collects everything written to it.
struct StringSink {
  std::string Text;
  bool Fail = false;
  Sink get();
};

/// One frame as a test describes it; empty strings mean "unknown".
struct FakeFrame {
  std::string Function, File;
  uint32_t Line = 0;
  std::string Object;
};

/// Maps addresses to (possibly inlined) frame chains; unknown addresses
/// describe as a frame with every field null.
class FakeSymbolizer {
public:
  void add(uint64_t Pc, std::vector<FakeFrame> Chain) {
    Table[Pc] = std::move(Chain);
  }
  void add(uint64_t Pc, const std::string &Function,
           const std::string &File = "", uint32_t Line = 0) {
    add(Pc, {FakeFrame{Function, File, Line, ""}});
  }
  Symbolizer get();
  /// How many times Describe was called.
  uint64_t Calls = 0;
  /// The addresses Prepare gave, and the Describe calls, once Prepare was
  /// first called, for an address it had not given.
  std::set<uint64_t> Prepared;
  uint64_t UnpreparedCalls = 0;

private:
  static uint32_t describe(void *Ctx, uint64_t Pc, FrameInfo *Out,
                           uint32_t Max);
  static void prepare(void *Ctx, const uint64_t *Pcs, uint32_t NumPcs);
  std::map<uint64_t, std::vector<FakeFrame>> Table;
};

/// Options from blank-separated arguments; fails the test on an error.
Options parseOptions(const std::string &Args, const Allocator &A);

/// A depot and a profile over the fakes above.
class ProfileRig {
public:
  explicit ProfileRig(const std::string &Args, uint64_t *ClockValue = nullptr);
  ~ProfileRig();

  StackId stack(const std::vector<uint64_t> &Pcs) {
    return Depot.intern(Pcs.data(), uint32_t(Pcs.size()));
  }
  /// The whole massif.out text, with the given command line.
  std::string write(const std::vector<std::string> &Cmd = {"./prog"});

  CountingAllocator Memory;
  FakeSymbolizer Sym;
  StackDepot Depot;
  Profile Prof;
  Options Opts;

private:
  static uint64_t readClock(void *Ctx);
  uint64_t *ClockValue;
};

/// The whole file at Path (a test failure when it cannot be read).
std::string readFile(const std::string &Path);

/// Splits Text into lines (without their newlines).
std::vector<std::string> lines(const std::string &Text);

/// The snapshot blocks of a massif.out text, as (time, heap, extra, stacks,
/// heap_tree) lines joined by spaces, one string per snapshot.
std::vector<std::string> snapshotSummaries(const std::string &Text);

} // namespace test
} // namespace massif

#endif // MASSIF_TEST_UNIT_CORE_TESTSUPPORT_H
