//===- ControlChannel.h - ms_control's channel to a native process -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// How ms_control asks a running mscc-built program for a monitor command
// (runtime/core/control/Monitor.h), shared by the runtime (lifecycle/Control.cpp)
// and ms_control (ms_control/). No signal is involved:
//
//  - Each user has one directory, /tmp/massif-native-<uid>, mode 0700,
//    owned by the user; both sides refuse it otherwise (a symbolic link, a
//    directory of someone else's, or one others can enter).
//  - At start-up the runtime creates <pid>.ctl there (mode 0600, one page)
//    and maps it, shared, over its own control page: the page whose first
//    word is the one every allocator entry reads at its end (PendingSignal,
//    state/State.h). So the channel costs the allocator nothing: a program
//    that is never asked runs the instructions it ran without it.
//  - ms_control writes the command line to <pid>.req (made under another
//    name, then linked there, so a second ms_control finds it taken), then
//    sets RequestBit in the page's first word.
//  - The next allocator entry of any thread of the program sees the word
//    non-zero at its end, outside the runtime, holding nothing: a safe
//    point. It clears the bit, takes <pid>.req only if it is a regular
//    file owned by the program's own user (root's or anyone else's planted
//    request is ignored), runs it like the program's own request, and
//    answers in <pid>.rep (written under another name, then renamed): a
//    first line with the ReplyStatus, then the text vgdb would print.
//  - ms_control prints the text and removes the reply; if none comes in
//    time it takes the request back (unlinks it), so a program that later
//    reaches a safe point finds nothing to run.
//
// The page's second and third words say whose it is (ControlMagic, the
// pid), for ms_control's check that it is a live runtime's.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SUPPORT_CONTROLCHANNEL_H
#define MASSIF_SUPPORT_CONTROLCHANNEL_H

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace control {

/// The bit of the page's first word that asks for a command (the rest of
/// the word is the runtime's: a pending fatal signal's number).
constexpr int RequestBit = 1 << 16;

constexpr uint32_t ControlMagic = 0x4d534354; // "MSCT"

constexpr size_t PageB = 4096;

/// The page's layout.
struct PageHeader {
  int Pending;
  uint32_t Magic;
  int32_t Pid;
};

enum ReplyStatus : int {
  ReplyDone = 0,          ///< handled
  ReplyNotRecognised = 1, ///< no such command
  ReplyFileError = 2,     ///< handled, but its file could not be written
};

/// Appends V in decimal to Buf at Pos (kept below Len).
inline size_t putDecimal(char *Buf, size_t Len, size_t Pos, uint64_t V) {
  char Digits[24];
  size_t N = 0;
  do
    Digits[N++] = char('0' + V % 10);
  while (V /= 10);
  while (N && Pos + 1 < Len)
    Buf[Pos++] = Digits[--N];
  Buf[Pos] = '\0';
  return Pos;
}

inline size_t putText(char *Buf, size_t Len, size_t Pos, const char *S) {
  while (*S && Pos + 1 < Len)
    Buf[Pos++] = *S++;
  Buf[Pos] = '\0';
  return Pos;
}

/// The user's directory.
inline void dirPath(char *Buf, size_t Len, unsigned Uid) {
  putDecimal(Buf, Len, putText(Buf, Len, 0, "/tmp/massif-native-"), Uid);
}

/// A file of the directory: <pid><Suffix>.
inline void fileName(char *Buf, size_t Len, int Pid, const char *Suffix) {
  putText(Buf, Len, putDecimal(Buf, Len, 0, uint64_t(Pid)), Suffix);
}

} // namespace control
} // namespace massif

#endif // MASSIF_SUPPORT_CONTROLCHANNEL_H
