//===- Messages.h - Where the runtime's messages go -------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The destination of the runtime's lines, as Valgrind's core options
// choose it (--log-file, -q, --child-silent-after-fork): see Messages.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_MESSAGES_H
#define MASSIF_NATIVE_MESSAGES_H

#include "Options.h"

namespace massif {
namespace native {

/// Reads the message options of O (kept for the process's life) and opens
/// --log-file. Returns false, after saying why on stderr, when the log
/// file cannot be created (Valgrind then stops).
bool setUpMessages(const Options &O);

/// The descriptor for errors: the log file, stderr, or -1 when silenced
/// (state/MessageFd.cpp, as the two setters).
int messageFd();

/// The descriptor for warnings: messageFd(), or -1 with -q.
int warningFd();

/// Sets the descriptor messageFd() gives when not silenced.
void setMessageFd(int Fd);

/// Quiet drops warnings, Silent every line.
void setMessageLevel(bool Quiet, bool Silent);

/// A forked child's step: silent with --child-silent-after-fork=yes, else
/// its own log file when the name has %p.
void messagesAfterForkChild(const Options &O);

/// Prints Massif's complaint about a bad option: each line of Text after
/// "massif: ", then Valgrind's pointer to --help.
void reportBadOption(const char *Text);

/// Writes each line of Text as Valgrind's verbose lines of Massif:
/// "--PID-- Massif: <line>".
void writeVerboseLine(const char *Text);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_MESSAGES_H
