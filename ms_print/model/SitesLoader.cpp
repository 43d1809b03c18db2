//===- SitesLoader.cpp - Reading a site statistics file -------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The grammar of docs/FILE-FORMAT.md ("The site statistics file"), every
// key from include/massif/format.h:
//
//   "massif-sites: 1"
//   "cmd: " command
//   "sizes:" (" " N)*
//   "total: " counts
//   ("site: " counts (" " frame)+)*
//
// counts := "calls=N bytes=N temporary=N temporary_bytes=N
// leaked_blocks=N leaked_bytes=N", in that order. Unlike a massif.out
// file it has no comments and no blank lines; a CR before a line's
// newline is dropped, as the massif.out loader drops it.
//
//===----------------------------------------------------------------------===//

#include "Sites.h"

#include "FrameText.h"
#include "InputFile.h"
#include "LineCursor.h"
#include "Profile.h"

#include "massif/format.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace msprint::model {

namespace fmt = massif::format;

SiteStats::SiteStats() = default;
SiteStats::~SiteStats() = default;
SiteStats::SiteStats(SiteStats &&) noexcept = default;
SiteStats &SiteStats::operator=(SiteStats &&) noexcept = default;

namespace {

/// The most size buckets a file may give: size 0, then one per bit.
constexpr size_t MaxBuckets = 65;

class SitesParser : LineCursor {
public:
  SitesParser(std::string_view Text, std::string_view Name, SiteStats &S)
      : LineCursor(Text, Name), S(S) {}

  bool run(std::string &Error) {
    bool Ok = header() && total() && sites();
    if (!Ok)
      Error = Err;
    return Ok;
  }

private:
  /// Takes a whole number from the front of T (up to a space or the end).
  static bool takeNumber(std::string_view &T, uint64_t &Out) {
    size_t N = T.find(' ');
    if (N == std::string_view::npos)
      N = T.size();
    if (!toNumber(T.substr(0, N), Out))
      return false;
    T.remove_prefix(N);
    return true;
  }

  bool startsWith(std::string_view T, std::string_view P) const {
    return T.substr(0, P.size()) == P;
  }

  /// The line Key must start; Value is the rest.
  bool keyedLine(std::string_view Key, std::string_view &Value,
                 const char *Shape) {
    if (!nextLine())
      return fail("the file ends where a '" + std::string(Shape) +
                  "' line was expected");
    if (!startsWith(Cur, Key))
      return fail("expected a '" + std::string(Shape) + "' line, found '" +
                  shown(Cur) + "'");
    Value = Cur.substr(Key.size());
    return true;
  }

  /// Reads Text ("calls=N bytes=N ...", after Key and its space) into C.
  bool counts(std::string_view Key, std::string_view Text, SiteCounts &C) {
    struct Field {
      const char *Name;
      uint64_t *Value;
    } Fields[] = {
        {fmt::SiteCalls, &C.Calls},
        {fmt::SiteBytes, &C.Bytes},
        {fmt::SiteTemporary, &C.Temporary},
        {fmt::SiteTemporaryBytes, &C.TemporaryBytes},
        {fmt::SiteLeakedBlocks, &C.LeakedBlocks},
        {fmt::SiteLeakedBytes, &C.LeakedBytes},
    };
    std::string_view T = Text;
    for (size_t I = 0; I < std::size(Fields); ++I) {
      std::string_view Name = Fields[I].Name;
      if (I) {
        if (T.empty() || T[0] != ' ')
          return fail("expected ' " + std::string(Name) + "<n>' in the '" +
                      std::string(Key) + "' line, found '" + shown(T) + "'");
        T.remove_prefix(1);
      }
      if (!startsWith(T, Name))
        return fail("expected '" + std::string(Name) + "<n>' in the '" +
                    std::string(Key) + "' line, found '" + shown(T) + "'");
      T.remove_prefix(Name.size());
      std::string_view Number = T;
      if (!takeNumber(T, *Fields[I].Value))
        return fail("'" + std::string(Name) + "' is not a whole number: '" +
                    shown(Number.substr(0, Number.find(' '))) + "'");
    }
    if (!T.empty())
      return fail("unexpected '" + shown(T) + "' after the counts of the '" +
                  std::string(Key) + "' line");
    return true;
  }

  bool header() {
    if (!nextLine() || Cur.empty())
      return fail("not a site statistics file: expected a '" +
                  std::string(fmt::SitesMagic) + " " +
                  std::to_string(fmt::SitesVersion) + "' line, found " +
                  (Have ? "an empty line" : "an empty file"));
    if (!startsWith(Cur, fmt::SitesMagic))
      return fail("not a site statistics file: expected a '" +
                  std::string(fmt::SitesMagic) + " " +
                  std::to_string(fmt::SitesVersion) + "' line, found '" +
                  shown(Cur) + "'");
    std::string_view V = Cur.substr(sizeof(fmt::SitesMagic) - 1);
    uint64_t Version = 0;
    if (V.empty() || V[0] != ' ' || (V.remove_prefix(1), !takeNumber(V, Version)) ||
        !V.empty())
      return fail("the version after '" + std::string(fmt::SitesMagic) +
                  "' is not a whole number: '" + shown(Cur) + "'");
    if (Version != fmt::SitesVersion)
      return fail("site statistics version " + std::to_string(Version) +
                  "; this ms_print reads version " +
                  std::to_string(fmt::SitesVersion));
    S.Version = uint32_t(Version);

    std::string_view Cmd;
    if (!keyedLine(fmt::CmdKey, Cmd, "cmd: <command>"))
      return false;
    if (!Cmd.empty() && Cmd.front() == ' ')
      Cmd.remove_prefix(1);
    S.Cmd = std::string(Cmd);

    std::string_view Sizes;
    if (!keyedLine(fmt::SitesSizesKey, Sizes, "sizes: <calls per size>"))
      return false;
    while (!Sizes.empty()) {
      if (Sizes[0] != ' ')
        return fail("expected ' <calls>' in the 'sizes:' line, found '" +
                    shown(Sizes) + "'");
      Sizes.remove_prefix(1);
      std::string_view Number = Sizes;
      uint64_t N = 0;
      if (!takeNumber(Sizes, N))
        return fail("a count of the 'sizes:' line is not a whole number: '" +
                    shown(Number.substr(0, Number.find(' '))) + "'");
      if (S.Sizes.size() == MaxBuckets)
        return fail("the 'sizes:' line has more than " +
                    std::to_string(MaxBuckets) +
                    " counts (size 0, then one per bit of a 64-bit size)");
      S.Sizes.push_back(N);
    }
    return true;
  }

  bool total() {
    std::string_view Rest;
    if (!keyedLine(fmt::SitesTotalKey, Rest, "total: calls=<n> ..."))
      return false;
    if (Rest.empty() || Rest[0] != ' ')
      return fail("expected 'total: calls=<n> ...', found '" + shown(Cur) +
                  "'");
    TotalLine = LineNo;
    return counts(fmt::SitesTotalKey, Rest.substr(1), S.Total);
  }

  /// Checks that a site frees no more than it allocated.
  bool plausible(const SiteCounts &C) {
    if (C.Temporary > C.Calls || C.LeakedBlocks > C.Calls - C.Temporary)
      return fail("the site has " + std::to_string(C.Temporary) +
                  " temporary and " + std::to_string(C.LeakedBlocks) +
                  " leaked blocks, more than its " + std::to_string(C.Calls) +
                  " calls");
    if (C.TemporaryBytes > C.Bytes ||
        C.LeakedBytes > C.Bytes - C.TemporaryBytes)
      return fail("the site has " + std::to_string(C.TemporaryBytes) +
                  " temporary and " + std::to_string(C.LeakedBytes) +
                  " leaked bytes, more than the " + std::to_string(C.Bytes) +
                  " bytes its calls asked for");
    return true;
  }

  bool sites() {
    SiteCounts Sum;
    nextLine();
    while (Have) {
      if (!startsWith(Cur, fmt::SiteKey) ||
          Cur.size() == sizeof(fmt::SiteKey) - 1 ||
          Cur[sizeof(fmt::SiteKey) - 1] != ' ')
        return fail("expected a 'site: calls=<n> ...' line, found '" +
                    shown(Cur) + "'");
      Site Site;
      Site.Line = LineNo;
      if (!counts(fmt::SiteKey, Cur.substr(sizeof(fmt::SiteKey)), Site.Counts) ||
          !plausible(Site.Counts))
        return false;
      // Its frames: lines of one space, then a code location.
      while (nextLine() && !Cur.empty() && Cur[0] == ' ') {
        std::string_view Text = Cur.substr(1);
        FrameText F = parseFrameText(Text);
        if (F.Kind != FrameKind::Code || F.Address.empty())
          return fail("expected a frame line ' 0x<address>: <description>', "
                      "found '" +
                      shown(Cur) + "'");
        Site.Frames.push_back(Text);
      }
      if (Site.Frames.empty()) {
        if (Have)
          return fail("expected a frame line ' 0x<address>: <description>' "
                      "after the 'site:' line, found '" +
                      shown(Cur) + "'");
        return fail("the file ends where a frame line ' 0x<address>: "
                    "<description>' was expected");
      }
      Sum += Site.Counts;
      S.Sites.push_back(std::move(Site));
    }
    if (Sum != S.Total) {
      LineNo = TotalLine;
      return fail("the 'total:' line is not the sum of the sites (calls=" +
                  std::to_string(Sum.Calls) + " bytes=" +
                  std::to_string(Sum.Bytes) + " temporary=" +
                  std::to_string(Sum.Temporary) + " temporary_bytes=" +
                  std::to_string(Sum.TemporaryBytes) + " leaked_blocks=" +
                  std::to_string(Sum.LeakedBlocks) + " leaked_bytes=" +
                  std::to_string(Sum.LeakedBytes) + ")");
    }
    return true;
  }

  SiteStats &S;
  uint64_t TotalLine = 0;
};

} // namespace

bool parseSites(std::string_view Text, std::string_view Name, SiteStats &S,
                std::string &Error) {
  S = SiteStats();
  S.Path = std::string(Name);
  SitesParser Ps(Text, Name, S);
  return Ps.run(Error);
}

bool loadSites(const std::string &Path, SiteStats &S, std::string &Error) {
  std::unique_ptr<InputFile> File = InputFile::readPath(Path, Error);
  if (!File || !parseSites(File->text(), Path, S, Error))
    return false;
  S.Source = std::move(File);
  return true;
}

std::string sitesPathFor(const std::string &ProfilePath) {
  if (ProfilePath.empty() || ProfilePath == "-")
    return std::string();
  std::string Out(ProfilePath.size() + sizeof(fmt::SitesSuffix), '\0');
  if (!fmt::sitesPathOf(ProfilePath.c_str(), Out.data(), Out.size()))
    return std::string();
  Out.resize(std::strlen(Out.c_str()));
  return Out;
}

SitesLookup findSites(const std::string &Path, bool MayBeAbsent,
                      const Profile &P, SiteStats &S, std::string &Error) {
  struct stat St;
  if (MayBeAbsent && (Path.empty() || (::stat(Path.c_str(), &St) != 0 &&
                                       errno == ENOENT)))
    return SitesLookup::Absent;
  if (!loadSites(Path, S, Error))
    return SitesLookup::Bad;
  if (S.Cmd != P.Cmd) {
    Error = Path + ":2: the site statistics are of another run: their cmd: '" +
            S.Cmd + "' is not the profile's '" + P.Cmd + "'";
    return SitesLookup::Bad;
  }
  return SitesLookup::Loaded;
}

} // namespace msprint::model
