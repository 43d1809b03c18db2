//===- StackDepot.cpp - Lock-free interning of call stacks ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// Layout:
//
//   Buckets[hash & Mask] --> Node --> Node --> ...   (push-front by CAS)
//   Node = { Next, Hash, Id, NumPcs, Pcs[NumPcs] }   (never freed)
//   ById[Id >> ChunkBits][Id & ChunkMask] --> Node   (chunks installed by CAS)
//
// intern() hashes the PCs, walks the bucket's chain and returns the Id of
// an equal trace. Otherwise it takes the next Id from an atomic counter,
// builds a node in a bump arena (chunks from the Allocator, bump by
// fetch-add), publishes it in ById, then pushes it on the bucket with a
// compare-and-swap. When the CAS loses, only the nodes pushed meanwhile can
// hold an equal trace, so only they are searched again; if one does, the
// new node and its Id are simply abandoned (a hole in the Ids, harmless:
// every array indexed by StackId tolerates unused slots). The bucket is
// looked at once more before the Id is taken, so that holes come only from
// races within the few stores between the Id and the CAS. No step waits
// for another thread, so interning is safe from signal handlers.
//
//===----------------------------------------------------------------------===//

#include "StackDepot.h"

#include <string.h>

namespace massif {
namespace {

constexpr uint32_t BucketBits = 16;
constexpr uint32_t NumBuckets = 1u << BucketBits;
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

/// Each frame is mixed on its own, with its position, and the results are
/// summed: no frame waits for the one before (a chained hash costs a
/// multiply's latency per frame), and the sum is mixed once at the end.
uint64_t hashPcs(const uint64_t *Pcs, uint32_t NumPcs) {
  uint64_t H = 0x9E3779B97F4A7C15ull * (NumPcs + 1);
  for (uint32_t I = 0; I < NumPcs; ++I) {
    uint64_t K = (Pcs[I] ^ (uint64_t(I) * 0xD6E8FEB86659FD93ull)) *
                 0xC2B2AE3D27D4EB4Full;
    H += K ^ (K >> 32);
  }
  H ^= H >> 29;
  H *= 0xBF58476D1CE4E5B9ull;
  return H ^ (H >> 32);
}

size_t nodeSizeB(uint32_t NumPcs) {
  size_t B = sizeof(Node) + (NumPcs ? NumPcs - 1 : 0) * sizeof(uint64_t);
  return (B + 15) & ~size_t(15);
}

} // namespace

struct StackDepot::Impl {
  Allocator A;
  Node **Buckets;
  Node ***ById; // NumChunks pointers to chunks of ChunkSize nodes
  StackId NextId;
  ArenaChunk *Arena;

  void *allocate(size_t SizeB);
  bool publish(StackId Id, Node *N);
  void giveBack(StackId Id);
  const Node *find(Node *From, Node *Until, uint64_t Hash, const uint64_t *Pcs,
                   uint32_t NumPcs) const;
};

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
  I->A = A;
  I->Buckets = static_cast<Node **>(A.allocate(NumBuckets * sizeof(Node *)));
  I->ById = static_cast<Node ***>(A.allocate(NumChunks * sizeof(Node **)));
  I->NextId = 1;
  I->Arena = nullptr;
  if (!I->Buckets || !I->ById) {
    if (I->Buckets)
      A.deallocate(I->Buckets, NumBuckets * sizeof(Node *));
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
  Node **Bucket = &P->Buckets[Hash & (NumBuckets - 1)];
  Node *Head = loadAcquire(Bucket);
  if (const Node *Found = P->find(Head, nullptr, Hash, Pcs, NumPcs))
    return Found->Id;

  auto *N = static_cast<Node *>(P->allocate(nodeSizeB(NumPcs)));
  if (!N)
    return 0;
  N->Hash = Hash;
  N->NumPcs = NumPcs;
  if (NumPcs)
    memcpy(N->Pcs, Pcs, NumPcs * sizeof(uint64_t));
  // Another thread may have interned the trace while this one built its
  // node: look again before taking an Id, so that a lost race costs the
  // node's bytes and not a hole in the Ids (a thread preempted while
  // building would otherwise nearly always lose).
  if (Node *Now = loadAcquire(Bucket); Now != Head) {
    if (const Node *Found = P->find(Now, Head, Hash, Pcs, NumPcs))
      return Found->Id;
    Head = Now;
  }
  N->Id = __atomic_fetch_add(&P->NextId, 1, __ATOMIC_RELAXED);
  if (!P->publish(N->Id, N))
    return 0;
  for (;;) {
    __atomic_store_n(&N->Next, Head, __ATOMIC_RELAXED);
    Node *Seen = Head;
    if (__atomic_compare_exchange_n(Bucket, &Seen, N, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      return N->Id;
    // Only the nodes pushed since Head was read can be new duplicates.
    if (const Node *Found = P->find(Seen, Head, Hash, Pcs, NumPcs)) {
      P->giveBack(N->Id);
      return Found->Id;
    }
    Head = Seen;
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
