//===- Protobuf.h - A small protocol buffers encoder ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Just enough of the protocol buffers wire format for the pprof export
// (Pprof.cpp): varints (wire type 0), length-delimited fields (wire type 2:
// strings, bytes, nested messages) and packed repeated varints. A message
// is built in a ProtoWriter; a nested message is built in its own writer
// and appended with message(). Fields are written in the order they are
// added; zero scalars and empty strings are written too, unless the
// caller skips them (proto3 readers treat an absent field as zero).
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_VIEWS_PROTOBUF_H
#define MSPRINT_VIEWS_PROTOBUF_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprint::views {

/// The protocol buffers wire types used here.
enum class WireType : uint8_t { Varint = 0, LengthDelimited = 2 };

/// Appends one message's encoding to a string.
class ProtoWriter {
public:
  /// Appends V as a base-128 varint, low 7 bits first.
  static void appendVarint(std::string &Out, uint64_t V) {
    while (V >= 0x80) {
      Out.push_back(char(uint8_t(V) | 0x80));
      V >>= 7;
    }
    Out.push_back(char(uint8_t(V)));
  }

  /// A field key: the field number shifted left by 3, or the wire type.
  void key(uint32_t Field, WireType T) {
    appendVarint(Buf, uint64_t(Field) << 3 | uint64_t(T));
  }

  /// A uint64 (or bool, or enum) field.
  void uint64(uint32_t Field, uint64_t V) {
    key(Field, WireType::Varint);
    appendVarint(Buf, V);
  }

  /// An int64 field: negative values take ten bytes (two's complement),
  /// as int64 does on the wire (not zigzag, which is sint64's).
  void int64(uint32_t Field, int64_t V) { uint64(Field, uint64_t(V)); }

  /// A string or bytes field.
  void bytes(uint32_t Field, std::string_view V) {
    key(Field, WireType::LengthDelimited);
    appendVarint(Buf, V.size());
    Buf.append(V.data(), V.size());
  }

  /// A nested message field.
  void message(uint32_t Field, const ProtoWriter &M) { bytes(Field, M.Buf); }

  /// A packed repeated uint64 (or int64) field; nothing when Vs is empty.
  template <typename T> void packed(uint32_t Field, const std::vector<T> &Vs) {
    if (Vs.empty())
      return;
    std::string Body;
    for (T V : Vs)
      appendVarint(Body, uint64_t(V));
    bytes(Field, Body);
  }

  /// Appends the fields another writer holds (a message is just its
  /// fields, so this concatenates two parts of one message).
  void append(const ProtoWriter &Fields) { Buf += Fields.Buf; }

  const std::string &data() const { return Buf; }
  std::string take() { return std::move(Buf); }
  void clear() { Buf.clear(); }

private:
  std::string Buf;
};

} // namespace msprint::views

#endif // MSPRINT_VIEWS_PROTOBUF_H
