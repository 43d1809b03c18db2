//===- Options.cpp - ms_print's command line ------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Option matching for Options.h. The threshold check numifies the value
// twice (Perl's "$1 >= 0 && $1 <= 100" reads the match variable anew each
// time), so a malformed value such as "1.2.3" warns twice.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "Diagnostics.h"

#include <cerrno>
#include <string_view>

namespace msprint {

namespace {

/// Matches /^<Prefix>(<chars>+)<Suffix>?$/ where chars are digits (and
/// '.' when AllowDot); returns the captured text.
bool matchValueOption(std::string_view Arg, std::string_view Prefix,
                      bool AllowDot, bool AllowPercent, std::string &Value) {
  if (Arg.substr(0, Prefix.size()) != Prefix)
    return false;
  std::string_view Rest = Arg.substr(Prefix.size());
  // '$' also matches before a final newline.
  if (!Rest.empty() && Rest.back() == '\n')
    Rest.remove_suffix(1);
  if (AllowPercent && !Rest.empty() && Rest.back() == '%')
    Rest.remove_suffix(1);
  if (Rest.empty())
    return false;
  for (char C : Rest)
    if (!((C >= '0' && C <= '9') || (AllowDot && C == '.')))
      return false;
  Value.assign(Rest.data(), Rest.size());
  return true;
}

/// Numifies an option value; warns like Perl when it is not a number.
PerlNumber numifyOption(const std::string &Value, std::string_view OpDesc,
                        Diagnostics &Diag) {
  Numified N = perlNumify(Value);
  if (!N.LooksLikeNumber)
    Diag.warnNotNumeric(Value, OpDesc, perl_line::ThresholdCheck);
  if (N.RangeError)
    Diag.setErrno(ERANGE);
  return N.Value;
}

bool inGraphRange(const std::string &Value, int64_t &Out, Diagnostics &Diag) {
  Numified Num = perlNumify(Value);
  if (Num.RangeError)
    Diag.setErrno(ERANGE);
  const PerlNumber &N = Num.Value;
  if (!(perlLe(PerlNumber::integer(4), N) &&
        perlLe(N, PerlNumber::integer(1000))))
    return false;
  Out = perlCastToIv(N);
  return true;
}

} // namespace

const std::string &usageText() {
  static const std::string Usage =
      "usage: ms_print [options] massif-out-file\n"
      "\n"
      "  Prints the report of a Massif profile, byte for byte as Valgrind "
      "3.19's\n"
      "  ms_print does, or one of its views.\n"
      "\n"
      "  report options, with defaults in [ ]:\n"
      "    --threshold=<m.n>     significance threshold, in percent [1]\n"
      "    --x=<4..1000>         graph width, in columns [72]\n"
      "    --y=<4..1000>         graph height, in rows [20]\n"
      "\n"
      "  views and exports:\n"
      "    --html                one self-contained HTML page: the graph, "
      "every\n"
      "                          tree, flame graphs, the allocation sites\n"
      "    --format=<fmt>        text (the report), json, collapsed, pprof, "
      "html\n"
      "                          or hotspots (heaptrack's lists) [text]\n"
      "    --snapshot=<which>    for collapsed and pprof: peak, last (with a "
      "tree),\n"
      "                          all, or a snapshot number [peak]\n"
      "    --sites=<file>|none   for json, html and hotspots: the site "
      "statistics\n"
      "                          [the file beside the input, if there is "
      "one]\n"
      "    --top=<n>             for hotspots: sites per list, 0 for all "
      "[10]\n"
      "    -o <file>, --output=<file>\n"
      "                          write to <file> instead of standard "
      "output\n"
      "\n"
      "  other options:\n"
      "    -h --help             show this message\n"
      "    --version             show version\n"
      "\n"
      "  ms_print is part of massif-native, under the MIT licence.\n";
  return Usage;
}

Options parseOptions(const std::vector<std::string> &Args,
                     Diagnostics &Diag) {
  Options Opts;
  for (const std::string &Arg : Args) {
    Opts.ArgsText += ' ';
    Opts.ArgsText += Arg;
  }

  bool HaveFile = false;
  for (const std::string &Arg : Args) {
    if (Arg.empty() || Arg[0] != '-') {
      if (!HaveFile) {
        Opts.InputFile = Arg;
        HaveFile = true;
      }
      continue;
    }
    std::string Value;
    if (Arg == "--version" || Arg == "--version\n") {
      // The script's answer; bin/ms_print answers --version itself
      // (views/Cli.cpp), so this is reached only through runMsPrint().
      Diag.die(std::string("ms_print-") + ReferenceVersion + "\n", 0);
    } else if (matchValueOption(Arg, "--threshold=", /*AllowDot=*/true,
                                /*AllowPercent=*/true, Value)) {
      Opts.ThresholdText = Value;
      Opts.ThresholdGiven = true;
      PerlNumber Low = numifyOption(Value, "numeric ge (>=)", Diag);
      bool Ok = perlGe(Low, PerlNumber::integer(0));
      if (Ok) {
        PerlNumber High = numifyOption(Value, "numeric le (<=)", Diag);
        Ok = perlLe(High, PerlNumber::integer(100));
      }
      if (!Ok)
        Diag.die(usageText(), 0);
    } else if (matchValueOption(Arg, "--x=", false, false, Value)) {
      if (!inGraphRange(Value, Opts.GraphX, Diag))
        Diag.die(usageText(), 0);
    } else if (matchValueOption(Arg, "--y=", false, false, Value)) {
      if (!inGraphRange(Value, Opts.GraphY, Diag))
        Diag.die(usageText(), 0);
    } else {
      Diag.die(usageText(), 0); // -h and --help land here too.
    }
  }
  if (!HaveFile)
    Diag.die(usageText(), 0);
  return Opts;
}

} // namespace msprint
