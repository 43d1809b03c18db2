//===- GraphMain.cpp - ms_memusage-graph, the picture's own process -------===//
//
// Part of massif-native, under the MIT licence.
//
// memusage draws with a second program, memusagestat, so that the launcher
// stays small; ms_memusage does the same. libgd and the fifty libraries
// behind it cost 20 ms to load, which every run of the launcher would pay;
// this executable, in lib/massif-native/, is started only when a picture
// is asked for.
//
//   ms_memusage-graph [-t] [-T] [-s TITLE] [-x N] [-y N]
//                     [--png FILE] [--svg FILE] DATAFILE
//
// Errors are one line on standard error, in ms_memusage's name; the exit
// status is 1 then.
//
//===----------------------------------------------------------------------===//

#include "Graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

using namespace massif::memusage;

int main(int Argc, char **Argv) {
  GraphOptions O;
  std::string Png, Svg, Data;
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    bool HasValue = I + 1 < Argc;
    if (strcmp(A, "-t") == 0) {
      O.TimeBased = true;
    } else if (strcmp(A, "-T") == 0) {
      O.Total = true;
    } else if (strcmp(A, "-s") == 0 && HasValue) {
      O.HasTitle = true;
      O.Title = Argv[++I];
    } else if (strcmp(A, "-x") == 0 && HasValue) {
      O.XSize = atol(Argv[++I]);
    } else if (strcmp(A, "-y") == 0 && HasValue) {
      O.YSize = atol(Argv[++I]);
    } else if (strcmp(A, "--png") == 0 && HasValue) {
      Png = Argv[++I];
    } else if (strcmp(A, "--svg") == 0 && HasValue) {
      Svg = Argv[++I];
    } else if (A[0] != '-' && Data.empty()) {
      Data = A;
    } else {
      fprintf(stderr, "ms_memusage-graph: bad argument '%s'\n", A);
      return 1;
    }
  }
  if (Data.empty()) {
    fprintf(stderr, "ms_memusage-graph: no data file given\n");
    return 1;
  }
  std::string Error = drawGraph(Data, O, Png, Svg);
  if (!Error.empty()) {
    fprintf(stderr, "ms_memusage: %s\n", Error.c_str());
    return 1;
  }
  return 0;
}
