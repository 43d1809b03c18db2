//===- Channel.h - ms_control's side of the control channel -----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Finds a process's control channel (runtime/support/ControlChannel.h),
// checking every step as the runtime does, and runs one request through it.
// Every failure is one line for the user, in Error.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_MS_CONTROL_CHANNEL_H
#define MASSIF_MS_CONTROL_CHANNEL_H

#include <string>

namespace massif {
namespace control {

struct Outcome {
  bool Answered = false; ///< a reply came
  int Status = 0;        ///< its ReplyStatus
  std::string Text;      ///< its text (what vgdb prints)
  std::string Error;     ///< when not answered: why, one line
};

/// Sends Command to process Pid and waits up to TimeoutMs for the reply.
Outcome sendCommand(int Pid, const std::string &Command, long TimeoutMs);

} // namespace control
} // namespace massif

#endif // MASSIF_MS_CONTROL_CHANNEL_H
