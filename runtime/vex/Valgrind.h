//===- Valgrind.h - Valgrind's tool interface, for C++ ----------*- C++ -*-===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// The headers of Valgrind's tool interface (the valgrind package's
// /usr/include/valgrind) are C. This header includes the ones the tool
// uses, with C linkage.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_VEX_VALGRIND_H
#define MASSIF_VEX_VALGRIND_H

// The kernel interface has a C++ branch of its own (a template).
#include "pub_tool_basics.h"
#include "pub_tool_vki.h"

extern "C" {
#include "pub_tool_tooliface.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"
#include "valgrind.h"
}

// Valgrind's NULL is ((void *)0), which C++ does not convert.
#undef NULL
#define NULL nullptr

#endif // MASSIF_VEX_VALGRIND_H
