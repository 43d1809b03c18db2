//===- Options.cpp - ms_memusage's command line ---------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// memusage's script matches each word against a list of spellings: the
// short option, and every prefix of the long one from a shortest accepted
// prefix on. A value comes from the next word, or, in the --name=VALUE
// form, from after the word's last '=' (the script's ${1##*=}). A few
// short prefixes are refused as ambiguous; any other word beginning with
// "--" is unrecognised; any other word at all begins the program.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef MASSIF_NATIVE_VERSION
#define MASSIF_NATIVE_VERSION "unknown"
#endif

using namespace massif::memusage;

namespace {

constexpr const char *Tool = "ms_memusage";

enum class Opt {
  Version, Help, Usage, ProgName, Png, Svg, Data, Unbuffered, Buffer,
  NoTimer, Mmap, TimeBased, Total, Title, XSize, YSize
};

struct Spelling {
  Opt Which;
  char Short;         ///< the one-letter form, or 0
  const char *Long;   ///< the whole long name
  unsigned MinPrefix; ///< the shortest prefix of it memusage accepts
  bool TakesValue;
};

constexpr Spelling Spellings[] = {
    {Opt::Version, 'V', "version", 1, false},
    {Opt::Help, '?', "help", 1, false},
    {Opt::Usage, 0, "usage", 2, false},
    {Opt::ProgName, 'n', "progname", 2, true},
    {Opt::Png, 'p', "png", 2, true},
    {Opt::Svg, 0, "svg", 2, true},
    {Opt::Data, 'd', "data", 1, true},
    {Opt::Unbuffered, 'u', "unbuffered", 2, false},
    {Opt::Buffer, 'b', "buffer", 1, true},
    {Opt::NoTimer, 0, "no-timer", 1, false},
    {Opt::Mmap, 'm', "mmap", 1, false},
    {Opt::TimeBased, 't', "time-based", 3, false},
    {Opt::Total, 'T', "total", 2, false},
    {Opt::Title, 0, "title", 3, true},
    {Opt::XSize, 'x', "x-size", 1, true},
    {Opt::YSize, 'y', "y-size", 1, true},
};

/// Prefixes memusage refuses as ambiguous (with or without "=VALUE", but
/// --u only without).
bool isAmbiguous(const std::string &Name, bool HasValue) {
  return Name == "p" || Name == "t" || Name == "ti" ||
         (Name == "u" && !HasValue);
}

int tryHelp() {
  fprintf(stderr,
          "Try `%s --help' or `%s --usage' for more information.\n", Tool,
          Tool);
  return 1;
}

void printHelp() {
  printf("Usage: %s [OPTION]... PROGRAM [PROGRAMOPTION]...\n"
         "Profile memory usage of PROGRAM.\n"
         "\n"
         "   -n,--progname=NAME     Name of the program file to profile\n"
         "   -p,--png=FILE          Generate PNG graphic and store it in FILE\n"
         "      --svg=FILE          Generate SVG graphic and store it in FILE\n"
         "   -d,--data=FILE         Generate binary data file and store it in FILE\n"
         "   -u,--unbuffered        Don't buffer output\n"
         "   -b,--buffer=SIZE       Collect SIZE entries before writing them out\n"
         "      --no-timer          Don't collect additional information through timer\n"
         "   -m,--mmap              Also trace mmap & friends\n"
         "\n"
         "   -?,--help              Print this help and exit\n"
         "      --usage             Give a short usage message\n"
         "   -V,--version           Print version information and exit\n"
         "\n"
         " The following options only apply when generating graphical output:\n"
         "   -t,--time-based        Make graph linear in time\n"
         "   -T,--total             Also draw graph of total memory use\n"
         "      --title=STRING      Use STRING as title of the graph\n"
         "   -x,--x-size=SIZE       Make graphic SIZE pixels wide\n"
         "   -y,--y-size=SIZE       Make graphic SIZE pixels high\n"
         "\n"
         "Mandatory arguments to long options are also mandatory for any corresponding\n"
         "short options.\n"
         "\n"
         "The report on standard error is glibc memusage's, byte for byte; see\n"
         "ms_memusage(1).\n",
         Tool);
}

void printUsage() {
  printf("Syntax: %s [--data=FILE] [--progname=NAME] [--png=FILE] [--svg=FILE]\n"
         "\t    [--unbuffered] [--buffer=SIZE] [--no-timer] [--mmap]\n"
         "\t    [--time-based] [--total] [--title=STRING] [--x-size=SIZE]\n"
         "\t    [--y-size=SIZE] PROGRAM [PROGRAMOPTION]...\n",
         Tool);
}

void printVersion() {
  printf("%s (massif-native) %s\n"
         "A drop-in for glibc's memusage(1). Copyright (c) the massif-native\n"
         "authors; MIT licence.\n",
         Tool, MASSIF_NATIVE_VERSION);
}

const Spelling *findLong(const std::string &Name) {
  for (const Spelling &S : Spellings)
    if (Name.size() >= S.MinPrefix && Name.size() <= std::string(S.Long).size() &&
        std::string(S.Long).compare(0, Name.size(), Name) == 0)
      return &S;
  return nullptr;
}

const Spelling *findShort(const std::string &Word) {
  if (Word.size() != 2 || Word[0] != '-')
    return nullptr;
  for (const Spelling &S : Spellings)
    if (S.Short == Word[1])
      return &S;
  return nullptr;
}

/// memusage's -x/-y values reach memusagestat, which reads them with atoi.
long asSize(const std::string &V) { return atol(V.c_str()); }

void apply(const Spelling &S, const std::string &Value, RunOptions &O) {
  switch (S.Which) {
  case Opt::ProgName: O.ProgName = Value; break;
  case Opt::Png: O.Png = Value; break;
  case Opt::Svg: O.Svg = Value; break;
  case Opt::Data: O.Data = Value; break;
  case Opt::Unbuffered: O.Buffer = "1"; break;
  case Opt::Buffer: O.Buffer = Value; break;
  case Opt::NoTimer: O.NoTimer = true; break;
  case Opt::Mmap: O.TraceMmap = true; break;
  case Opt::TimeBased: O.Graph.TimeBased = true; break;
  case Opt::Total: O.Graph.Total = true; break;
  case Opt::Title:
    O.Graph.HasTitle = true;
    O.Graph.Title = Value;
    break;
  case Opt::XSize: O.Graph.XSize = asSize(Value); break;
  case Opt::YSize: O.Graph.YSize = asSize(Value); break;
  case Opt::Version: case Opt::Help: case Opt::Usage: break;
  }
}

} // namespace

Parsed massif::memusage::parseCommandLine(int Argc, char **Argv,
                                          RunOptions &O, int &ExitStatus) {
  int I = 1;
  for (; I < Argc; ++I) {
    std::string Word = Argv[I];
    if (Word == "--") {
      ++I;
      break;
    }
    const Spelling *S = findShort(Word);
    std::string Value;
    bool HasValue = false;
    if (!S && Word.size() > 2 && Word.compare(0, 2, "--") == 0) {
      size_t Eq = Word.find('=');
      std::string Name = Word.substr(2, Eq == std::string::npos ? Eq : Eq - 2);
      HasValue = Eq != std::string::npos;
      if (HasValue)
        Value = Word.substr(Word.rfind('=') + 1);
      if (isAmbiguous(Name, HasValue)) {
        fprintf(stderr, "%s: option `%s' is ambiguous\n", Tool,
                HasValue ? Value.c_str() : Word.c_str());
        ExitStatus = tryHelp();
        return Parsed::Exit;
      }
      S = findLong(Name);
      if (!S || (HasValue && !S->TakesValue)) {
        fprintf(stderr, "%s: unrecognized option `%s'\n", Tool, Word.c_str());
        ExitStatus = tryHelp();
        return Parsed::Exit;
      }
    }
    if (!S)
      break; // the program
    switch (S->Which) {
    case Opt::Version: printVersion(); ExitStatus = 0; return Parsed::Exit;
    case Opt::Help: printHelp(); ExitStatus = 0; return Parsed::Exit;
    case Opt::Usage: printUsage(); ExitStatus = 0; return Parsed::Exit;
    default: break;
    }
    if (S->TakesValue && !HasValue) {
      if (I + 1 == Argc) {
        fprintf(stderr, "%s: option '%s' requires an argument\n", Tool,
                Word.c_str());
        ExitStatus = tryHelp();
        return Parsed::Exit;
      }
      Value = Argv[++I];
    }
    apply(*S, Value, O);
  }
  if (I == Argc) {
    fprintf(stderr, "No program name given\n");
    ExitStatus = tryHelp();
    return Parsed::Exit;
  }
  O.Program.assign(Argv + I, Argv + Argc);
  return Parsed::Run;
}
