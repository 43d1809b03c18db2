//===- jsonbench.cpp - A jsoncpp workload for the benchmark -----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Reads a JSON file with jsoncpp, walks the document (numbers summed, strings
// measured and copied into std::vector<std::string>), builds a second
// document that groups the records by their first tag, serializes it and
// parses the result again. Every step allocates: Json::Value trees, maps,
// std::string and std::vector growth. Prints a checksum so that the work
// cannot be optimized away and the builds can be compared.
//
// usage: jsonbench FILE [PASSES]
//
//===----------------------------------------------------------------------===//

#include <json/json.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Totals {
  double Numbers = 0;
  size_t StringBytes = 0;
  size_t Nodes = 0;
  std::vector<std::string> Keys;
};

void walk(const Json::Value &V, Totals &T) {
  ++T.Nodes;
  switch (V.type()) {
  case Json::intValue:
  case Json::uintValue:
  case Json::realValue:
    T.Numbers += V.asDouble();
    break;
  case Json::stringValue:
    T.StringBytes += V.asString().size();
    break;
  case Json::arrayValue:
    for (const Json::Value &E : V)
      walk(E, T);
    break;
  case Json::objectValue:
    for (const std::string &K : V.getMemberNames()) {
      // Keep a copy of every key: a growing vector of small strings.
      T.Keys.push_back(K);
      walk(V[K], T);
    }
    break;
  default:
    break;
  }
}

bool parse(const std::string &Text, Json::Value &Out) {
  Json::CharReaderBuilder Builder;
  std::unique_ptr<Json::CharReader> Reader(Builder.newCharReader());
  std::string Errors;
  if (!Reader->parse(Text.data(), Text.data() + Text.size(), &Out, &Errors)) {
    std::cerr << "jsonbench: " << Errors << "\n";
    return false;
  }
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::cerr << "usage: jsonbench FILE [PASSES]\n";
    return 2;
  }
  int Passes = Argc > 2 ? std::atoi(Argv[2]) : 1;
  std::ifstream In(Argv[1], std::ios::binary);
  std::stringstream Buf;
  Buf << In.rdbuf();
  const std::string Text = Buf.str();

  double Check = 0;
  for (int P = 0; P < Passes; ++P) {
    Json::Value Doc;
    if (!parse(Text, Doc))
      return 1;
    Totals T;
    walk(Doc, T);

    // Group the records by their first tag.
    Json::Value Groups(Json::objectValue);
    for (const Json::Value &R : Doc["records"]) {
      const Json::Value &Tags = R["tags"];
      std::string Key = Tags.empty() ? std::string("untagged") : Tags[0].asString();
      Json::Value Entry(Json::objectValue);
      Entry["id"] = R["id"];
      Entry["name"] = R["name"].asString() + "/" + Key;
      Entry["payload"] = R["payload"];
      Groups[Key].append(Entry);
    }
    Json::StreamWriterBuilder Writer;
    Writer["indentation"] = " ";
    std::string Out = Json::writeString(Writer, Groups);
    Json::Value Again;
    if (!parse(Out, Again))
      return 1;
    Check += T.Numbers * 1e-9 + double(T.StringBytes) + double(T.Nodes) +
             double(T.Keys.size()) + double(Out.size()) +
             double(Again.getMemberNames().size());
  }
  std::printf("passes=%d checksum=%.6e\n", Passes, Check);
  return 0;
}
