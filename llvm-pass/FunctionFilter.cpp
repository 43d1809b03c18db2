//===- FunctionFilter.cpp - Which functions the pass may instrument -------===//
//
// Part of massif-native, under the MIT licence.
//
// A debugging aid: -massif-only-functions=f,g limits the rewriting passes to
// the named functions (IR names, i.e. mangled for C++). With clang, pass it
// as -mllvm -massif-only-functions=f,g, and load the plugin with -fplugin as
// well as -fpass-plugin: clang parses -mllvm before it loads pass plugins.
// Runtime entry points (__massif_*) need no exclusion here: a module that
// defines one is refused as a whole (RuntimeGuard.cpp).
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<std::string> OnlyFunctions(
    "massif-only-functions",
    cl::desc("Instrument only these functions (comma-separated IR names; "
             "debugging aid, default: all)"),
    cl::value_desc("f,g,..."), cl::init(""));

massif::FunctionFilter massif::FunctionFilter::fromCommandLine() {
  return fromList(OnlyFunctions);
}

massif::FunctionFilter massif::FunctionFilter::fromList(StringRef List) {
  FunctionFilter Filter;
  SmallVector<StringRef, 8> Parts;
  List.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Name : Parts)
    if (!Name.trim().empty())
      Filter.Names.insert(Name.trim());
  return Filter;
}

bool massif::FunctionFilter::allows(const Function &F) const {
  return Names.empty() || Names.contains(F.getName());
}
