//===- LineIndexInput5.h - A unit with DWARF 5 line tables ------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_TEST_LINEINDEXINPUT5_H
#define MASSIF_TEST_LINEINDEXINPUT5_H

/// Something to compile: a checksum of the first N bytes of S.
unsigned lineIndexInput5(const char *S, unsigned N);

#endif
