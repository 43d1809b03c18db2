//===- FatalSignals.h - Which signals end the process -----------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The signals whose default action ends the process, which Valgrind reports
// as fatal and after which Massif's file is written (Signals.cpp puts its
// handler on them), and the mask a write in progress sets (Write.cpp) so
// that no signal cuts it short.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_FATALSIGNALS_H
#define MASSIF_NATIVE_FATALSIGNALS_H

#include <signal.h>

namespace massif {
namespace native {

/// Signal numbers the tables below use are below this.
constexpr int MaxSignal = 65;

/// Whether Sig's default action ends the process and Valgrind reports it
/// as fatal: its "core" and "term" lists, and the real-time signals.
bool isFatalSignal(int Sig);

/// Signals a fault raises at the faulting instruction: blocking them would
/// make the kernel kill the process outright on a second fault.
bool isSynchronous(int Sig);

/// Computes the fatal signals' table and mask; once, at start-up, before
/// the handlers are installed (until then nothing is blocked).
void noteFatalSignals();

/// The asynchronous fatal signals, the mask of the runtime's handler.
const sigset_t &asyncFatalSignals();

/// Blocks every asynchronous signal on this thread (Old receives the
/// previous mask, a sigset_t of at least 128 bytes), so that a write in
/// progress is not cut short: not by a fatal signal, nor by a handler of
/// the program's that calls exit; restoreSignals delivers what came
/// meanwhile. Faults stay unblocked (a blocked fault kills outright).
void blockSignalsForWrite(void *Old);
void restoreSignals(const void *Old);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_FATALSIGNALS_H
