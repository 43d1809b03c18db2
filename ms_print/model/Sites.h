//===- Sites.h - A site statistics file in memory -------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Beside each massif.out file the engines write heaptrack's figures per
// allocation stack (include/massif/format.h, docs/FILE-FORMAT.md, "The
// site statistics file"):
//
//   massif-sites: 1
//   cmd: ./prog arg1
//   sizes: 0 12 40 7
//   total: calls=59 bytes=4100 temporary=3 temporary_bytes=96 leaked_blocks=2 leaked_bytes=64
//   site: calls=40 bytes=3000 temporary=3 temporary_bytes=96 leaked_blocks=0 leaked_bytes=0
//    0x4005F1: f (a.c:10)
//    0x400612: main (a.c:20)
//
// This reads one strictly, as ProfileLoader reads a massif.out file: a file
// that breaks the grammar is refused with "FILE:LINE: what was expected".
// Beyond the grammar it checks what the writer guarantees: the total: line
// is the sum of the sites, and no site frees more than it allocated
// (temporary + leaked blocks <= calls, and so for the bytes). The frames
// are tree line texts (FrameText.h); an inlined call is a run of frames
// with the same address, innermost first, as in the trees.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_MODEL_SITES_H
#define MSPRINT_MODEL_SITES_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace msprint {
class InputFile;
}

namespace msprint::model {

struct Profile;

/// heaptrack's figures of one allocation stack, or of several added up.
struct SiteCounts {
  /// Allocation calls (malloc, calloc, memalign..., operator new, realloc).
  uint64_t Calls = 0;
  /// The bytes those calls asked for.
  uint64_t Bytes = 0;
  /// Blocks freed right after their allocation (heaptrack's temporary).
  uint64_t Temporary = 0;
  uint64_t TemporaryBytes = 0;
  /// Blocks still live when the file was written (at exit: leaks).
  uint64_t LeakedBlocks = 0;
  uint64_t LeakedBytes = 0;

  SiteCounts &operator+=(const SiteCounts &O) {
    Calls += O.Calls;
    Bytes += O.Bytes;
    Temporary += O.Temporary;
    TemporaryBytes += O.TemporaryBytes;
    LeakedBlocks += O.LeakedBlocks;
    LeakedBytes += O.LeakedBytes;
    return *this;
  }
  bool operator==(const SiteCounts &O) const {
    return Calls == O.Calls && Bytes == O.Bytes && Temporary == O.Temporary &&
           TemporaryBytes == O.TemporaryBytes &&
           LeakedBlocks == O.LeakedBlocks && LeakedBytes == O.LeakedBytes;
  }
  bool operator!=(const SiteCounts &O) const { return !(*this == O); }
};

/// One allocation stack and its figures.
struct Site {
  SiteCounts Counts;
  /// Its frame lines' texts without the leading space, e.g.
  /// "0x4005F1: f (a.c:10)", innermost first. Views into the file.
  std::vector<std::string_view> Frames;
  /// The line of its "site:" line in the file.
  uint64_t Line = 0;
};

struct SiteStats {
  SiteStats();
  ~SiteStats();
  SiteStats(SiteStats &&) noexcept;
  SiteStats &operator=(SiteStats &&) noexcept;

  /// The path the file was read from, as given.
  std::string Path;
  /// The massif-sites: version (format::SitesVersion).
  uint32_t Version = 0;
  /// The cmd: line's value: the profiled command, as massif.out's.
  std::string Cmd;
  /// Allocation calls per requested size: Sizes[0] counts size 0,
  /// Sizes[b] (b >= 1) sizes 2^(b-1) to 2^b - 1. Trailing zeros are not
  /// written, so it may be shorter than 65 (or empty).
  std::vector<uint64_t> Sizes;
  /// The total: line: the sites' sums.
  SiteCounts Total;
  /// In the file's order (the trees' order of stacks).
  std::vector<Site> Sites;

  /// The smallest and largest size counted in bucket B.
  static uint64_t bucketLow(size_t B) { return B ? uint64_t(1) << (B - 1) : 0; }
  static uint64_t bucketHigh(size_t B) {
    return B == 0 ? 0 : B >= 64 ? UINT64_MAX : (uint64_t(1) << B) - 1;
  }

  /// The file the texts point into.
  std::unique_ptr<InputFile> Source;
};

/// Reads the site statistics file at Path. On failure returns false and
/// sets Error to "PATH:LINE: what was wrong".
bool loadSites(const std::string &Path, SiteStats &S, std::string &Error);

/// The same from text already in memory (tests); Name is used in errors.
bool parseSites(std::string_view Text, std::string_view Name, SiteStats &S,
                std::string &Error);

/// The site statistics file's path for the massif.out file at
/// ProfilePath, by format::sitesPathOf; empty for standard input ("-").
std::string sitesPathFor(const std::string &ProfilePath);

/// What looking for a profile's site statistics found.
enum class SitesLookup {
  Absent, ///< no such file
  Loaded, ///< read, and of the profile's run
  Bad,    ///< unreadable, malformed, or of another run; see Error
};

/// Reads the site statistics at Path (sitesPathFor of the profile's path,
/// or a file named on the command line) for the profile P: Absent when
/// there is no file there (only when MayBeAbsent; otherwise that is Bad),
/// Bad when it cannot be read, is malformed, or its cmd: is not P's (the
/// statistics of another run). Error says which, naming the file.
SitesLookup findSites(const std::string &Path, bool MayBeAbsent,
                      const Profile &P, SiteStats &S, std::string &Error);

} // namespace msprint::model

#endif // MSPRINT_MODEL_SITES_H
