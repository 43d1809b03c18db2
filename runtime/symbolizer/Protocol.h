//===- Protocol.h - What the runtime and the symbolizer say -----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The native runtime names code addresses through a process of its own,
// massif-symbolizer, so that nothing of elfutils (libdw, libelf, zlib and
// theirs) is ever loaded into the profiled program. The runtime starts it
// when it first needs a name (native/symbolize/SymbolizerClient.cpp) and
// talks to it over a socket pair, the symbolizer's standard input and
// output. This header is the whole conversation; both sides include it.
//
// Every number is little-endian. A request is one byte, then its fields:
//
//   'H' pid:u32 tid:u32            the process to name addresses of, and
//                                  the thread whose maps file to read
//   'C' base:u64 len:u32 path      an object the process unloaded with
//                                  dlclose, mapped at base until then
//   'D' n:u32 pc:u64 * n           describe n addresses; the answer is,
//                                  for each, its frames
//   'N' n:u32 pc:u64 * n           the function names only (the symbol
//                                  table's); the answer is, for each, a
//                                  string
//
// A string is len:u32 and len bytes, or NullString alone. The frames of
// one address: count:u32 (1 to MaxFrames), then per frame, innermost
// first: function, file and object (strings) and line:u32. 'H' and 'C'
// have no answer. The symbolizer ends at the end of its input.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SYMBOLIZER_PROTOCOL_H
#define MASSIF_SYMBOLIZER_PROTOCOL_H

#include <stdint.h>

namespace massif {
namespace protocol {

enum Request : uint8_t {
  Hello = 'H',
  ClosedObject = 'C',
  Describe = 'D',
  Names = 'N',
};

constexpr uint32_t NullString = 0xffffffffu;

/// The most frames one address may have (an inline chain, then the
/// out-of-line function).
constexpr uint32_t MaxFrames = 32;

/// The most addresses one request may carry.
constexpr uint32_t MaxBatch = 1u << 16;

} // namespace protocol
} // namespace massif

#endif // MASSIF_SYMBOLIZER_PROTOCOL_H
