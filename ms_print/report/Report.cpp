//===- Report.cpp - ms_print from command line to exit status -------------===//
//
// Part of massif-native, under the MIT licence.
//
// Sequences the phases of Report.h and keeps Perl's errno model in step:
// errno is 0 until the input is opened, ENOTTY after a successful open of
// a non-terminal, and follows the reader from then on.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "Diagnostics.h"
#include "Graph.h"
#include "InputFile.h"
#include "Options.h"
#include "OutputBuffer.h"
#include "ProfileReader.h"

#include <cerrno>

namespace msprint {

namespace {

const char Fancy[] = "------------------------------------------------------"
                     "--------------------------\n";

void printPreamble(OutputBuffer &Out, const ProfileSummary &Summary,
                   const Options &Opts) {
  std::string &Text = Out.text();
  Text += Fancy;
  Text += "Command:            ";
  Text.append(Summary.Cmd.data(), Summary.Cmd.size());
  Text += "\nMassif arguments:  ";
  Text += Summary.Desc;
  Text += "ms_print arguments:";
  Text += Opts.ArgsText;
  Text += '\n';
  Text += Fancy;
  Text += "\n\n";
}

} // namespace

int runMsPrint(const std::vector<std::string> &Args, int StdoutFd) {
  Diagnostics Diag;
  OutputBuffer Out(StdoutFd);
  Diag.setStdout(&Out);

  Options Opts = parseOptions(Args, Diag);
  // The script's "my $threshold = 1.0", or the option's text.
  PerlScalar Threshold =
      Opts.ThresholdGiven ? PerlScalar(Opts.ThresholdText)
                          : PerlScalar::fromNumber(PerlNumber::real(1.0));

  InputFile In;
  if (int Err = In.open(Opts.InputFile)) {
    Diag.setErrno(Err);
    Diag.die("Cannot open " + Opts.InputFile + " for reading\n", 0);
  }
  Diag.setInputOpen(true);
  if (!In.isTty())
    Diag.setErrno(ENOTTY);

  ProfileSummary Summary;
  {
    ProfileReader Check(In, Diag, Threshold, nullptr);
    Check.read(Summary);
  }
  Diag.setInputOpen(false);

  printPreamble(Out, Summary, Opts);
  printGraph(In, Summary, Opts, Diag, Out);

  Diag.setSilent(true);
  ProfileSummary Again;
  ProfileReader Render(In, Diag, Threshold, &Out);
  Render.read(Again);
  Out.flush();
  return 0;
}

} // namespace msprint
