//===- TestSupport.cpp - Fakes for driving the core model in tests --------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sys/mman.h>
#include <unistd.h>

namespace massif {
namespace test {

constexpr size_t MapMinB = 64 * 1024;

Allocator CountingAllocator::get() {
  return Allocator{
      [](void *Ctx, size_t SizeB) -> void * {
        auto *Self = static_cast<CountingAllocator *>(Ctx);
        Self->LiveB += int64_t(SizeB);
        if (SizeB < MapMinB)
          return calloc(1, SizeB ? SizeB : 1);
        void *P = mmap(nullptr, SizeB, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (P == MAP_FAILED)
          return nullptr;
        std::lock_guard<std::mutex> G(Self->Lock);
        Self->Mapped[P] = SizeB;
        return P;
      },
      [](void *Ctx, void *P, size_t SizeB) {
        auto *Self = static_cast<CountingAllocator *>(Ctx);
        Self->LiveB -= int64_t(SizeB);
        if (SizeB < MapMinB) {
          free(P);
          return;
        }
        std::lock_guard<std::mutex> G(Self->Lock);
        Self->Mapped.erase(P);
        munmap(P, SizeB);
      },
      this,
      [](void *Ctx, void *P, size_t OldB, size_t NewB) -> void * {
        auto *Self = static_cast<CountingAllocator *>(Ctx);
        if (OldB < MapMinB || NewB < OldB || !Self->Remaps)
          return nullptr;
        void *N = mremap(P, OldB, NewB, MREMAP_MAYMOVE);
        if (N == MAP_FAILED)
          return nullptr;
        std::lock_guard<std::mutex> G(Self->Lock);
        Self->Mapped.erase(P);
        Self->Mapped[N] = NewB;
        Self->LiveB += int64_t(NewB - OldB);
        return N;
      }};
}

int64_t CountingAllocator::residentB() {
  std::lock_guard<std::mutex> G(Lock);
  int64_t B = LiveB;
  const size_t PageB = size_t(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> Pages;
  for (auto [P, SizeB] : Mapped) {
    Pages.assign((SizeB + PageB - 1) / PageB, 0);
    if (mincore(P, SizeB, Pages.data()) != 0)
      continue; // counted in full
    B -= int64_t(SizeB);
    for (unsigned char In : Pages)
      B += (In & 1) ? int64_t(PageB) : 0;
  }
  return B;
}

Sink StringSink::get() {
  return Sink{[](void *Ctx, const char *Data, size_t Len) {
                auto *S = static_cast<StringSink *>(Ctx);
                if (S->Fail)
                  return false;
                S->Text.append(Data, Len);
                return true;
              },
              this};
}

Symbolizer FakeSymbolizer::get() {
  Symbolizer S{describe, this};
  S.Prepare = prepare;
  return S;
}

void FakeSymbolizer::prepare(void *Ctx, const uint64_t *Pcs, uint32_t NumPcs) {
  auto *Self = static_cast<FakeSymbolizer *>(Ctx);
  Self->Prepared.insert(Pcs, Pcs + NumPcs);
}

uint32_t FakeSymbolizer::describe(void *Ctx, uint64_t Pc, FrameInfo *Out,
                                  uint32_t Max) {
  auto *Self = static_cast<FakeSymbolizer *>(Ctx);
  ++Self->Calls;
  if (!Self->Prepared.empty() && !Self->Prepared.count(Pc))
    ++Self->UnpreparedCalls;
  if (Max == 0)
    return 0;
  auto It = Self->Table.find(Pc);
  if (It == Self->Table.end()) {
    Out[0] = FrameInfo{nullptr, nullptr, 0, nullptr};
    return 1;
  }
  uint32_t N = 0;
  for (const FakeFrame &F : It->second) {
    if (N == Max)
      break;
    auto Str = [](const std::string &S) {
      return S.empty() ? nullptr : S.c_str();
    };
    Out[N++] = FrameInfo{Str(F.Function), Str(F.File), F.Line, Str(F.Object)};
  }
  return N;
}

Options parseOptions(const std::string &Args, const Allocator &A) {
  Options O;
  OptionError E;
  EXPECT_NE(parseOptionString(O, Args.c_str(), A, E), ParseResult::Error)
      << E.Text;
  return O;
}

ProfileRig::ProfileRig(const std::string &Args, uint64_t *ClockValue)
    : ClockValue(ClockValue) {
  Allocator A = Memory.get();
  Opts = parseOptions(Args, A);
  Depot.init(A);
  Clock C{ClockValue ? readClock : nullptr, this};
  EXPECT_TRUE(Prof.init(Opts, A, Depot, Sym.get(), C));
}

ProfileRig::~ProfileRig() = default;

uint64_t ProfileRig::readClock(void *Ctx) {
  return *static_cast<ProfileRig *>(Ctx)->ClockValue;
}

std::string ProfileRig::write(const std::vector<std::string> &Cmd) {
  std::vector<const char *> Argv;
  for (const std::string &S : Cmd)
    Argv.push_back(S.c_str());
  StringSink Out;
  EXPECT_TRUE(
      Prof.write(Out.get(), RunInfo{Argv.data(), uint32_t(Argv.size())}));
  return Out.Text;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  EXPECT_TRUE(In.good()) << "cannot read " << Path;
  std::ostringstream S;
  S << In.rdbuf();
  return S.str();
}

std::vector<std::string> lines(const std::string &Text) {
  std::vector<std::string> L;
  std::istringstream In(Text);
  std::string Line;
  while (std::getline(In, Line))
    L.push_back(Line);
  return L;
}

std::vector<std::string> snapshotSummaries(const std::string &Text) {
  std::vector<std::string> Out;
  std::string Cur;
  for (const std::string &L : lines(Text)) {
    auto Value = [&](const char *Key) {
      return L.compare(0, strlen(Key), Key) == 0 ? L.substr(strlen(Key))
                                                 : std::string();
    };
    for (const char *Key :
         {"time=", "mem_heap_B=", "mem_heap_extra_B=", "mem_stacks_B="}) {
      if (L.compare(0, strlen(Key), Key) == 0)
        Cur += Value(Key) + " ";
    }
    if (L.compare(0, 10, "heap_tree=") == 0) {
      Out.push_back(Cur + L.substr(10));
      Cur.clear();
    }
  }
  return Out;
}

} // namespace test
} // namespace massif
