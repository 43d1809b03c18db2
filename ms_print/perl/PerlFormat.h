//===- PerlFormat.h - The printf formats and helpers ms_print prints with -===//
//
// Part of massif-native, under the MIT licence.
//
// Every number ms_print prints goes through one of a handful of formats:
// "%5d", "%5.3f", "%5.2f", "%5.1f" for graph labels, "%05.2f" for tree
// percentages and the threshold, "%Ns" for padded table cells, and
// commify() for byte counts. Perl hands finite doubles to the C library
// but spells infinities and NaN itself ("Inf", "-Inf", "NaN", padded with
// '0' under the 0 flag); both are reproduced here. The "%05.2f" path is
// hot (one call per tree line), so it has an exact fast path that avoids
// snprintf.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_PERLFORMAT_H
#define MSPRINT_PERLFORMAT_H

#include "PerlNumber.h"

#include <string>
#include <string_view>

namespace msprint {

/// ms_print's commify(): inserts a comma every three digits of the run of
/// digits the text starts with ("1234567" -> "1,234,567", "12345abc" ->
/// "12,345abc"); the rest of the text is copied unchanged.
void appendCommified(std::string &Out, std::string_view Text);
std::string commify(std::string_view Text);

/// sprintf("%<Width>s", Text): right-justified, never truncated.
void appendRightAligned(std::string &Out, std::string_view Text,
                        size_t Width);

/// sprintf("%<Width>.<Precision>f", V), with '0' padding when ZeroPad.
void appendFixed(std::string &Out, const PerlNumber &V, int Width,
                 int Precision, bool ZeroPad);

/// sprintf("%05.2f", V), the format of tree percentages.
void appendPercent(std::string &Out, const PerlNumber &V);
/// The same for a plain double (used by tests and the fast path).
void appendPercent(std::string &Out, double V);

/// sprintf("%<Width>d", V).
void appendInteger(std::string &Out, const PerlNumber &V, int Width);

} // namespace msprint

#endif // MSPRINT_PERLFORMAT_H
