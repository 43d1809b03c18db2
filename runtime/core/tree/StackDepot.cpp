//===- StackDepot.cpp - Lock-free interning of call stacks ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// Layout:
//
//   Levels[k].Buckets[hash & Mask_k] --> Node --> Node --> ...  (CAS push)
//   Node = { Next, Hash, Id, NumPcs, Pcs[NumPcs] }   (never freed)
//   ById[Id >> ChunkBits][Id & ChunkMask] --> Node   (chunks installed by CAS)
//
// The buckets come in levels: 1,024 of them first (8 KB), then eight
// times as many each time the newest level holds as many stacks as it has
// buckets (8K, 64K, 512K). A program with a few hundred stacks keeps a few
// pages of buckets, where one large table would have every page of it
// resident; a stack stays in the level it was put in, and a lookup looks
// in each level's bucket for its hash, oldest first.
//
// intern() hashes the PCs and looks in every level. Otherwise it builds a
// node in a bump arena (chunks from the Allocator, bump by fetch-add) and
// puts it into the newest level: it first freezes the bucket of that hash
// in every older level (a tag bit in the bucket's head, set by CAS), after
// which nothing can be added there, and looks through those chains once
// more; then it takes the next Id from an atomic counter, publishes the
// node in ById, and pushes it on the newest level's bucket with a CAS.
// When the CAS loses, only the nodes pushed meanwhile can hold an equal
// trace, so only they are searched again; if one does, the new node and
// its Id are abandoned (a hole in the Ids, harmless: every array indexed by
// StackId tolerates unused slots; the Id goes back when no later one was
// taken). When the bucket turns out frozen, a newer level exists and the
// insertion starts over there. So every trace has one node: a trace can
// only be added to a bucket whose older counterparts are frozen and were
// searched, and within a bucket the CAS orders the additions. No step
// waits for another thread, so interning is safe from signal handlers.
//
//===----------------------------------------------------------------------===//

#include "StackDepot.h"

#include <string.h>

namespace massif {
namespace {

constexpr uint32_t FirstLevelBits = 10; // 1,024 buckets
constexpr uint32_t LevelStepBits = 3;   // each level 8 times the last
constexpr uint32_t MaxLevels = 4;       // 1K, 8K, 64K, 512K buckets
constexpr uint32_t ChunkBits = 12;
constexpr uint32_t ChunkSize = 1u << ChunkBits;
constexpr uint32_t NumChunks = 1u << 14; // 64M stacks at most
constexpr size_t ArenaChunkB = 256 * 1024;

struct Node {
  Node *Next;
  uint64_t Hash;
  StackId Id;
  uint32_t NumPcs;
  uint64_t Pcs[1]; // NumPcs of them
};

struct ArenaChunk {
  ArenaChunk *Prev;
  size_t SizeB;
  size_t UsedB; // bumped atomically
};

template <typename T> T loadAcquire(const T *P) {
  return __atomic_load_n(P, __ATOMIC_ACQUIRE);
}

/// A bucket's head: its first node, and bit 0 set once the bucket is
/// frozen (a newer level takes that hash's new traces).
constexpr uintptr_t Frozen = 1;
Node *firstOf(uintptr_t Head) {
  return reinterpret_cast<Node *>(Head & ~Frozen);
}

constexpr uint32_t levelBits(uint32_t K) {
  return FirstLevelBits + K * LevelStepBits;
}
constexpr size_t levelSizeB(uint32_t K) {
  return (size_t(1) << levelBits(K)) * sizeof(uintptr_t);
}

struct Level {
  uintptr_t *Buckets; ///< heads; null until the level is made
  uint32_t Count;     ///< traces put in this level
};

/// A multiplier for each frame's position: odd, from splitmix64.
constexpr uint32_t NumMultipliers = 256;
struct Multipliers {
  uint64_t M[NumMultipliers];
  constexpr Multipliers() : M() {
    uint64_t X = 0;
    for (uint32_t I = 0; I < NumMultipliers; ++I) {
      uint64_t Z = (X += 0x9E3779B97F4A7C15ull);
      Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
      Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
      M[I] = (Z ^ (Z >> 31)) | 1;
    }
  }
};
constexpr Multipliers FrameMultipliers;

/// Each frame times its position's multiplier, summed: one multiply per
/// frame, none waiting for another (a chained hash costs a multiply's
/// latency per frame), and the sum mixed once at the end. Frames past the
/// table share its last multipliers. Not vectorised: without 64-bit vector
/// multiplies a vector loop emulates each one in ten instructions.
uint64_t hashPcs(const uint64_t *Pcs, uint32_t NumPcs) {
  uint64_t A = 0x9E3779B97F4A7C15ull * (NumPcs + 1), B = 0;
  uint32_t I = 0;
#pragma clang loop vectorize(disable) interleave(disable)
  for (; I + 2 <= NumPcs; I += 2) {
    uint32_t J = I < NumMultipliers - 2 ? I : NumMultipliers - 2;
    A += Pcs[I] * FrameMultipliers.M[J];
    B += Pcs[I + 1] * FrameMultipliers.M[J + 1];
  }
  if (I < NumPcs)
    A += Pcs[I] *
         FrameMultipliers.M[I < NumMultipliers ? I : NumMultipliers - 1];
  uint64_t H = A + B;
  H ^= H >> 29;
  H *= 0xBF58476D1CE4E5B9ull;
  H ^= H >> 32;
  H *= 0x94D049BB133111EBull;
  return H ^ (H >> 29);
}

size_t nodeSizeB(uint32_t NumPcs) {
  size_t B = sizeof(Node) + (NumPcs ? NumPcs - 1 : 0) * sizeof(uint64_t);
  return (B + 15) & ~size_t(15);
}

} // namespace

struct StackDepot::Impl {
  Allocator A;
  Level Levels[MaxLevels];
  uint32_t NumLevels; // levels made, each published before this grows
  Node ***ById;       // NumChunks pointers to chunks of ChunkSize nodes
  StackId NextId;
  ArenaChunk *Arena;

  void *allocate(size_t SizeB);
  bool makeLevel(uint32_t K);
  bool publish(StackId Id, Node *N);
  void giveBack(StackId Id);
  const Node *find(Node *From, Node *Until, uint64_t Hash, const uint64_t *Pcs,
                   uint32_t NumPcs) const;
  StackId insert(Node *N, const uint64_t *Pcs);
  uintptr_t *bucket(uint32_t K, uint64_t Hash) const {
    return &Levels[K].Buckets[Hash & ((uint64_t(1) << levelBits(K)) - 1)];
  }
};

/// Makes level K (its buckets, then NumLevels), unless another thread
/// did; false when memory is exhausted (the levels made take every trace
/// then, in longer chains).
bool StackDepot::Impl::makeLevel(uint32_t K) {
  auto *Fresh = static_cast<uintptr_t *>(A.allocate(levelSizeB(K)));
  if (!Fresh)
    return false;
  uintptr_t *None = nullptr;
  if (!__atomic_compare_exchange_n(&Levels[K].Buckets, &None, Fresh, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    A.deallocate(Fresh, levelSizeB(K));
    return true;
  }
  uint32_t Made = K;
  __atomic_compare_exchange_n(&NumLevels, &Made, K + 1, false, __ATOMIC_ACQ_REL,
                              __ATOMIC_ACQUIRE);
  return true;
}

void *StackDepot::Impl::allocate(size_t SizeB) {
  for (;;) {
    ArenaChunk *C = __atomic_load_n(&Arena, __ATOMIC_ACQUIRE);
    if (C) {
      size_t Off = __atomic_fetch_add(&C->UsedB, SizeB, __ATOMIC_RELAXED);
      if (Off + SizeB <= C->SizeB)
        return reinterpret_cast<char *>(C) + Off;
    }
    size_t Want = sizeof(ArenaChunk) + SizeB;
    size_t ChunkB = Want > ArenaChunkB ? Want : ArenaChunkB;
    auto *N = static_cast<ArenaChunk *>(A.allocate(ChunkB));
    if (!N)
      return nullptr;
    N->Prev = C;
    N->SizeB = ChunkB;
    N->UsedB = (sizeof(ArenaChunk) + 15) & ~size_t(15);
    if (!__atomic_compare_exchange_n(&Arena, &C, N, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
      A.deallocate(N, ChunkB); // another thread installed a chunk first
  }
}

bool StackDepot::Impl::publish(StackId Id, Node *N) {
  uint32_t ChunkI = Id >> ChunkBits;
  if (ChunkI >= NumChunks)
    return false;
  Node **Chunk = loadAcquire(&ById[ChunkI]);
  if (!Chunk) {
    auto **Fresh = static_cast<Node **>(A.allocate(ChunkSize * sizeof(Node *)));
    if (!Fresh)
      return false;
    if (__atomic_compare_exchange_n(&ById[ChunkI], &Chunk, Fresh, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      Chunk = Fresh;
    } else {
      A.deallocate(Fresh, ChunkSize * sizeof(Node *));
    }
  }
  __atomic_store_n(&Chunk[Id & (ChunkSize - 1)], N, __ATOMIC_RELEASE);
  return true;
}

// A node that lost the race to its bucket leaves its Id. Nobody else can
// hold that Id (the node was never in a bucket), so its slot is cleared
// and, if no later Id was taken meanwhile, the counter steps back: with
// threads interning the same stacks at once, most lost races cost no Id.
// Otherwise the Id stays unused, its slot empty.
void StackDepot::Impl::giveBack(StackId Id) {
  Node **Chunk = loadAcquire(&ById[Id >> ChunkBits]);
  __atomic_store_n(&Chunk[Id & (ChunkSize - 1)], nullptr, __ATOMIC_RELEASE);
  StackId Next = Id + 1;
  __atomic_compare_exchange_n(&NextId, &Next, Id, false, __ATOMIC_ACQ_REL,
                              __ATOMIC_RELAXED);
}

const Node *StackDepot::Impl::find(Node *From, Node *Until, uint64_t Hash,
                                   const uint64_t *Pcs, uint32_t NumPcs) const {
  for (const Node *N = From; N && N != Until; N = loadAcquire(&N->Next))
    if (N->Hash == Hash && N->NumPcs == NumPcs &&
        (NumPcs == 0 || memcmp(N->Pcs, Pcs, NumPcs * sizeof(uint64_t)) == 0))
      return N;
  return nullptr;
}

void StackDepot::init(const Allocator &A) {
  auto *I = static_cast<Impl *>(A.allocate(sizeof(Impl)));
  if (!I)
    return;
  memset(I, 0, sizeof(Impl));
  I->A = A;
  I->ById = static_cast<Node ***>(A.allocate(NumChunks * sizeof(Node **)));
  I->NextId = 1;
  if (!I->ById || !I->makeLevel(0)) {
    if (I->ById)
      A.deallocate(I->ById, NumChunks * sizeof(Node **));
    A.deallocate(I, sizeof(Impl));
    return;
  }
  P = I;
}

StackId StackDepot::intern(const uint64_t *Pcs, uint32_t NumPcs) {
  if (!P)
    return 0;
  uint64_t Hash = hashPcs(Pcs, NumPcs);
  uint32_t NumLevels = loadAcquire(&P->NumLevels);
  for (uint32_t K = 0; K < NumLevels; ++K)
    if (const Node *Found = P->find(firstOf(loadAcquire(P->bucket(K, Hash))),
                                    nullptr, Hash, Pcs, NumPcs))
      return Found->Id;

  auto *N = static_cast<Node *>(P->allocate(nodeSizeB(NumPcs)));
  if (!N)
    return 0;
  N->Hash = Hash;
  N->Id = 0;
  N->NumPcs = NumPcs;
  if (NumPcs)
    memcpy(N->Pcs, Pcs, NumPcs * sizeof(uint64_t));
  return P->insert(N, Pcs);
}

/// Puts N (not yet in any bucket, Id 0) into the newest level, or gives
/// the Id of an equal trace another thread put in meanwhile.
StackId StackDepot::Impl::insert(Node *N, const uint64_t *Pcs) {
  uint64_t Hash = N->Hash;
  uint32_t NumPcs = N->NumPcs;
  // An equal trace found: N is abandoned, and its Id if it took one.
  auto existing = [&](const Node *Found) {
    if (N->Id)
      giveBack(N->Id);
    return Found->Id;
  };
  for (;;) {
    uint32_t Top = loadAcquire(&NumLevels) - 1;
    // Nothing more can come into the older levels' buckets of this hash
    // once they are frozen: what they hold now is all they will hold.
    for (uint32_t K = 0; K < Top; ++K) {
      uintptr_t *Older = bucket(K, Hash);
      uintptr_t Head = loadAcquire(Older);
      while (!(Head & Frozen) &&
             !__atomic_compare_exchange_n(Older, &Head, Head | Frozen, false,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      }
      if (const Node *Found = find(firstOf(Head), nullptr, Hash, Pcs, NumPcs))
        return existing(Found);
    }
    uintptr_t *Bucket = bucket(Top, Hash);
    uintptr_t Head = loadAcquire(Bucket);
    if (Head & Frozen)
      continue; // a newer level is being made: go there
    // Another thread may have interned the trace while this one built its
    // node: look before taking an Id, so that a lost race costs the node's
    // bytes and not a hole in the Ids.
    if (const Node *Found = find(firstOf(Head), nullptr, Hash, Pcs, NumPcs))
      return existing(Found);
    if (!N->Id) {
      N->Id = __atomic_fetch_add(&NextId, 1, __ATOMIC_RELAXED);
      if (!publish(N->Id, N))
        return 0;
    }
    for (;;) {
      __atomic_store_n(&N->Next, firstOf(Head), __ATOMIC_RELAXED);
      uintptr_t Seen = Head;
      if (__atomic_compare_exchange_n(Bucket, &Seen, uintptr_t(N), false,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        uint32_t Count =
            __atomic_add_fetch(&Levels[Top].Count, 1, __ATOMIC_RELAXED);
        if (Count == (1u << levelBits(Top)) && Top + 1 < MaxLevels)
          makeLevel(Top + 1);
        return N->Id;
      }
      if (Seen & Frozen)
        break; // start over in the newer level, with the same Id
      // Only the nodes pushed since Head was read can be new duplicates.
      if (const Node *Found =
              find(firstOf(Seen), firstOf(Head), Hash, Pcs, NumPcs))
        return existing(Found);
      Head = Seen;
    }
  }
}

const uint64_t *StackDepot::frames(StackId Id, uint32_t &NumPcs) const {
  NumPcs = 0;
  if (!P || Id == 0 || (Id >> ChunkBits) >= NumChunks)
    return nullptr;
  Node **Chunk = loadAcquire(&P->ById[Id >> ChunkBits]);
  if (!Chunk)
    return nullptr;
  const Node *N = loadAcquire(&Chunk[Id & (ChunkSize - 1)]);
  if (!N)
    return nullptr;
  NumPcs = N->NumPcs;
  return N->Pcs;
}

StackId StackDepot::end() const {
  return P ? __atomic_load_n(&P->NextId, __ATOMIC_ACQUIRE) : 1;
}

} // namespace massif
