//===- main.cpp - The ms_print executable ---------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Entry point of bin/ms_print: a drop-in for Valgrind's ms_print script,
// byte-identical in its report (see Report.h), plus this project's help,
// version and views (see Views.h).
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "Views.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  std::vector<std::string> Args(argv + 1, argv + argc);
  int Status = 0;
  if (msprint::views::runViewCommand(Args, Status))
    return Status;
  return msprint::runMsPrint(Args);
}
