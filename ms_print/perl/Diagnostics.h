//===- Diagnostics.h - Perl's warnings, deaths and exit statuses ----------===//
//
// Part of massif-native, under the MIT licence.
//
// stderr and the exit status are compared byte for byte with the Perl
// script, so its messages are reproduced here, including the parts Perl
// adds itself: " at /usr/bin/ms_print line L, <INPUTFILE> line N." after a
// warning or a die message without a trailing newline, the escaped
// argument in 'Argument "..." isn't numeric', and die's exit status (the
// current errno if non-zero, else 255). The errno Perl would see is
// tracked as the input is read: ENOTTY after opening a file (PerlIO checks
// isatty), 0 once a read hits end of file.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_DIAGNOSTICS_H
#define MSPRINT_DIAGNOSTICS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace msprint {

class OutputBuffer;

/// The path the reference script names in its messages.
inline constexpr char ScriptPath[] = "/usr/bin/ms_print";

/// Line numbers of /usr/bin/ms_print that its messages mention.
namespace perl_line {
inline constexpr int ThresholdCheck = 119;
inline constexpr int EqualsNumLine = 168;
inline constexpr int NodeNotLarger = 176;
inline constexpr int ThresholdIsZero = 179;
inline constexpr int TreeNodeLine = 198;
inline constexpr int RecursiveCall = 224;
inline constexpr int MissingCmd = 383;
inline constexpr int MissingTimeUnit = 388;
inline constexpr int TotalSum = 423;
inline constexpr int NoSnapshots = 491;
inline constexpr int EndTimeNegative = 493;
inline constexpr int ColumnDivision = 544;
inline constexpr int LastColumn = 550;
inline constexpr int HorizontalLine = 561;
inline constexpr int PeakCompare = 567;
inline constexpr int DrawDecision = 576;
inline constexpr int DrawPeak = 590;
inline constexpr int NegativeRepeat = 629;
} // namespace perl_line

/// Writes Perl-shaped messages to stderr and ends the process like die.
class Diagnostics {
public:
  /// Silent diagnostics drop warnings (used when re-reading a file whose
  /// warnings were already printed).
  void setSilent(bool S) { Silent = S; }
  bool isSilent() const { return Silent; }

  /// Output flushed before the process ends, so stdout holds what Perl
  /// would have printed up to its death.
  void setStdout(OutputBuffer *Out) { Stdout = Out; }

  /// The input line counter ($.); zero or a closed file drops the
  /// ", <INPUTFILE> line N" part of messages.
  void setInputLine(uint64_t LineNo) { InputLine = LineNo; }
  void setInputOpen(bool Open) { InputOpen = Open; }
  uint64_t inputLine() const { return InputLine; }

  /// The errno value Perl would see now.
  void setErrno(int E) { Errno = E; }
  int errnoValue() const { return Errno; }

  /// warn(): Message, then the location, then a newline.
  void warn(std::string_view Message, int PerlLine);
  /// 'Argument "<Text>" isn't numeric in <OpDesc>'.
  void warnNotNumeric(std::string_view Text, std::string_view OpDesc,
                      int PerlLine);
  /// die(Message): the location is added unless Message ends in '\n'.
  [[noreturn]] void die(std::string_view Message, int PerlLine);
  /// die with no message: "Died at ...".
  [[noreturn]] void dieBare(int PerlLine);

  /// Perl's escaping of a non-numeric argument in a warning: control
  /// characters as ^X, high bytes as M-x, at most ~56 characters.
  static std::string displayArgument(std::string_view Text);

  /// The exit status of die for an errno value.
  static int dieStatus(int Errno) { return (Errno & 255) ? Errno : 255; }

  /// Writes raw text to stderr (or drops it, see setStderrFd).
  static void writeStderr(std::string_view Text);

  /// Where messages go: 2 by default, -1 to drop them (the fuzzer).
  static void setStderrFd(int Fd);
  /// Called with the exit status instead of ending the process, so a
  /// harness can run ms_print many times in one process; the handler must
  /// not return (it throws).
  using DeathHandler = void (*)(int Status);
  static void setDeathHandler(DeathHandler Handler);

private:
  void appendLocation(std::string &Out, int PerlLine) const;

  bool Silent = false;
  bool InputOpen = false;
  uint64_t InputLine = 0;
  int Errno = 0;
  OutputBuffer *Stdout = nullptr;
};

} // namespace msprint

#endif // MSPRINT_DIAGNOSTICS_H
