//===- JsonText.h - Writing JSON strings and numbers ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The one JSON string escaper of the views and ms_diff. Besides what JSON
// requires it escapes '<', '>' and '&' (so the text can sit inside an HTML
// <script> element) and replaces bytes that are not UTF-8 with U+FFFD (a
// massif.out file may hold any bytes in a function or file name).
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_VIEWS_JSONTEXT_H
#define MSPRINT_VIEWS_JSONTEXT_H

#include <cstdint>
#include <string>
#include <string_view>

namespace msprint::views {

/// Appends S to Out as a quoted JSON string.
void appendJsonString(std::string &Out, std::string_view S);

/// Appends V in decimal.
void appendNumber(std::string &Out, uint64_t V);

/// Appends `,"Key":` and the value: a member after an object's first. Key
/// is a plain name, written as it is.
void appendJsonMember(std::string &Out, std::string_view Key,
                      std::string_view Value);
void appendJsonMember(std::string &Out, std::string_view Key, uint64_t Value);

} // namespace msprint::views

#endif // MSPRINT_VIEWS_JSONTEXT_H
