//===- main.cpp - The ms_print executable ---------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Entry point of bin/ms_print: a drop-in for Valgrind's ms_print script,
// byte-identical in stdout, stderr and exit status. See Report.h.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  std::vector<std::string> Args(argv + 1, argv + argc);
  return msprint::runMsPrint(Args);
}
