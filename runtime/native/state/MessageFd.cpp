//===- MessageFd.cpp - The descriptor of the runtime's messages -----------===//
//
// Part of massif-native, under the MIT licence.
//
// Every part of the runtime writes its lines to the descriptors kept here,
// which start-up and fork set from Valgrind's core options
// (lifecycle/Messages.cpp): stderr until then.
//
//===----------------------------------------------------------------------===//

#include "Messages.h"

using namespace massif;
using namespace massif::native;

namespace {
// Constant-initialised: messages before start-up go to stderr.
int LogFd = 2;
bool Quiet = false;
bool Silent = false;
} // namespace

int native::messageFd() { return Silent ? -1 : LogFd; }

int native::warningFd() { return Quiet ? -1 : messageFd(); }

void native::setMessageFd(int Fd) { LogFd = Fd; }

void native::setMessageLevel(bool QuietNow, bool SilentNow) {
  Quiet = QuietNow;
  Silent = SilentNow;
}
