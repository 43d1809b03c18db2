//===- ProtobufTest.cpp - The protocol buffers encoder of the pprof view --===//
//
// Part of massif-native, under the MIT licence.
//
// The wire format the pprof export is written in (views/Protobuf.h):
// varints at their byte boundaries, field keys, length-delimited strings
// and nested messages, packed repeated fields, and int64's ten-byte
// negative numbers. The expected bytes follow from the format's rules
// (base 128, low group first, continuation bit; key = field << 3 | wire
// type).
//
//===----------------------------------------------------------------------===//

#include "Protobuf.h"

#include <gtest/gtest.h>

using namespace msprint::views;

namespace {

std::string hex(const std::string &Bytes) {
  static const char Digits[] = "0123456789abcdef";
  std::string Out;
  for (unsigned char C : Bytes) {
    if (!Out.empty())
      Out += ' ';
    Out += Digits[C >> 4];
    Out += Digits[C & 15];
  }
  return Out;
}

std::string varint(uint64_t V) {
  std::string Out;
  ProtoWriter::appendVarint(Out, V);
  return hex(Out);
}

TEST(ProtobufTest, VarintBoundaries) {
  EXPECT_EQ(varint(0), "00");
  EXPECT_EQ(varint(1), "01");
  EXPECT_EQ(varint(127), "7f");
  EXPECT_EQ(varint(128), "80 01");
  EXPECT_EQ(varint(300), "ac 02");
  EXPECT_EQ(varint(16383), "ff 7f");
  EXPECT_EQ(varint(16384), "80 80 01");
  EXPECT_EQ(varint(uint64_t(1) << 32), "80 80 80 80 10");
  EXPECT_EQ(varint(UINT64_MAX), "ff ff ff ff ff ff ff ff ff 01");
}

TEST(ProtobufTest, ScalarFields) {
  ProtoWriter W;
  W.uint64(1, 150);
  EXPECT_EQ(hex(W.data()), "08 96 01");
  W.clear();
  W.uint64(15, 0);
  W.uint64(16, 1); // the first field number whose key takes two bytes
  EXPECT_EQ(hex(W.data()), "78 00 80 01 01");
  W.clear();
  W.int64(2, -1);
  EXPECT_EQ(hex(W.data()), "10 ff ff ff ff ff ff ff ff ff 01");
  W.clear();
  W.int64(2, -2);
  EXPECT_EQ(hex(W.data()), "10 fe ff ff ff ff ff ff ff ff 01");
}

TEST(ProtobufTest, LengthDelimited) {
  ProtoWriter W;
  W.bytes(2, "testing");
  EXPECT_EQ(hex(W.data()), "12 07 74 65 73 74 69 6e 67");
  W.clear();
  W.bytes(6, "");
  EXPECT_EQ(hex(W.data()), "32 00");
  W.clear();
  std::string Long(200, 'x');
  W.bytes(1, Long);
  EXPECT_EQ(W.data().size(), 1u + 2u + 200u);
  EXPECT_EQ(hex(W.data().substr(0, 3)), "0a c8 01");
}

TEST(ProtobufTest, NestedAndAppended) {
  ProtoWriter Inner, Outer;
  Inner.uint64(1, 150);
  Outer.message(3, Inner);
  EXPECT_EQ(hex(Outer.data()), "1a 03 08 96 01");

  ProtoWriter Rest;
  Rest.uint64(4, 2);
  Outer.append(Rest);
  EXPECT_EQ(hex(Outer.data()), "1a 03 08 96 01 20 02");
  EXPECT_EQ(hex(Outer.take()), "1a 03 08 96 01 20 02");
}

TEST(ProtobufTest, Packed) {
  ProtoWriter W;
  W.packed(4, std::vector<uint64_t>{3, 270, 86942});
  EXPECT_EQ(hex(W.data()), "22 06 03 8e 02 9e a7 05");
  W.clear();
  W.packed(13, std::vector<int64_t>{-1, 1});
  EXPECT_EQ(hex(W.data()), "6a 0b ff ff ff ff ff ff ff ff ff 01 01");
  W.clear();
  W.packed(1, std::vector<uint64_t>{});
  EXPECT_EQ(W.data(), "");
}

} // namespace
