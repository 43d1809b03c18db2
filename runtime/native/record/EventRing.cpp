//===- EventRing.cpp - Heap events batched per thread ---------------------===//
//
// Part of massif-native, under the MIT licence.
//
// See EventRing.h for why and the rules. A ring is single-producer,
// single-consumer: its thread fills it without a lock (the slot, then the
// release of Tail), and whoever holds the model's lock empties it (the
// slots up to an acquired Tail, then the release of Head). The owner, when
// its ring is full, applies every ring, so the rings of idle threads do
// not lag behind for long; if another thread holds the lock meanwhile
// (most likely applying every ring, its own included), the owner waits for
// its ring to empty rather than for the lock. The blocks of applied frees
// go back to glibc in their own thread: the applier marks each free event
// it settled, and the owner, behind Head, releases the marked blocks
// before it reuses their slots, so that glibc sees a thread free its own
// blocks, as natively. The owner does that under its ring's SettleLock,
// which fork takes too: a child never inherits a ring whose blocks were
// half handed back (it would free them a second time).
//
// The model's thread (Applier.cpp) applies the one ring of a program of
// one thread, in batches, whenever the model's lock is free; that ring's
// frees have their blocks back in glibc already (EventFreeReleased), and
// its reallocs take two slots. It stops at the first event a program of
// several threads makes, which is theirs to apply: it never calls glibc.
//
//===----------------------------------------------------------------------===//

#include "EventRing.h"

#include "Arena.h"
#include "Counters.h"
#include "State.h"

#include "massif/abi.h"

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>

using namespace massif;
using namespace massif::native;

namespace massif {
namespace native {

/// EventFreeApplied: a free the model applied, its block for the owner to
/// release (a parked free's block is released by whoever unparks it).
/// EventFreeReleased: a free whose block is back in glibc already (the one
/// thread's, with the model's thread). EventRealloc: Addr = the new block,
/// ReqB its size, the next slot (EventReallocFrom) the old block.
enum EventKind : uint8_t {
  EventAlloc = 1,
  EventFree = 2,
  EventFreeApplied = 3,
  EventFreeReleased = 4,
  EventRealloc = 5,
  EventReallocFrom = 6,
  EventStack = 7, ///< --stacks=yes: ReqB = the stack's growth (negative: shrink)
};

struct Event {
  uint64_t Addr;
  uint64_t ReqB;  ///< EventAlloc: requested bytes
  uint64_t Clock; ///< the thread's instruction counter, or ms (EventClock)
  StackId Stack;  ///< EventAlloc; EventFree: the free's (xtree), or 0
  uint8_t Kind;
  uint8_t AlignLog2P1; ///< EventAlloc: 0 for malloc's alignment, else log2 + 1
};

constexpr uint32_t RingCap = 1024; // 32 KiB of events per thread
/// The ring of the one thread whose events the model's thread applies:
/// room for the events of the model's thread's longest sleep (Applier.cpp).
constexpr uint32_t SingleRingCap = 8192; // 256 KiB
/// A ring being applied frees its slots every this many events, so that
/// its thread, waiting for room, goes on early.
constexpr uint32_t HeadStep = 64;

struct Ring {
  // The consumer's and the owner's words on lines of their own: the two
  // run on different cores. What both read and the owner never writes
  // comes first: with Cap beside Tail, the consumer's read of it at every
  // event took the line the owner stores Tail to at every event away from
  // its core (a transfer between the cores per event).
  Ring *Prev, *Next; ///< the list of rings (model lock)
  /// The owner's instruction counter (ThreadArea.h), read while its events
  /// are applied; the ring leaves the list before its thread ends.
  const unsigned long long *OwnerCounter;
  uint32_t Cap; ///< slots: RingCap, or SingleRingCap; a power of two
  bool PrefetchW;            ///< the processor has PREFETCHW (nextSlot)
  TimeUnit Unit;             ///< --time-unit: what each event's Clock is
  alignas(64) uint32_t Head; ///< the next event to apply (consumer, model lock)
  alignas(64) uint32_t Tail; ///< the next slot to fill (the owner)
  uint32_t Released; ///< the next applied event to settle (SettleLock)
  /// One past the newest EventFree appended (the owner): settling has
  /// blocks to release only while this lies after Released.
  uint32_t HeldEnd;
  Mutex SettleLock;  ///< the owner settling, or fork
  alignas(64) Event Slots[]; ///< Cap of them
};

static size_t ringBytes(uint32_t Cap) {
  return sizeof(Ring) + Cap * sizeof(Event);
}

} // namespace native
} // namespace massif

namespace {

// Every thread's ring, oldest first (model lock): the rings are applied in
// this order, so a thread's events that come before another thread's start
// (the DTV its pthread_create allocates) come first in the model too.
Ring *Rings = nullptr;
Ring *LastRing = nullptr;

pthread_key_t RingKey;
pthread_once_t RingKeyOnce = PTHREAD_ONCE_INIT;

// ---------------------------------------------------------------------------
// Parked frees: addresses freed before the model knew them, their memory
// held. An open-addressing set (0 is empty), in arena memory.

uint64_t *Parked = nullptr;
uint32_t ParkedCap = 0, NumParked = 0;

uint32_t slotOf(uint64_t Addr, uint32_t Cap) {
  return uint32_t((Addr * 0x9E3779B97F4A7C15ull) >> 32) & (Cap - 1);
}

bool growParked() {
  uint32_t NewCap = ParkedCap ? ParkedCap * 2 : 64;
  auto *New = (uint64_t *)arenaAllocate(NewCap * sizeof(uint64_t));
  if (!New)
    return false;
  for (uint32_t I = 0; I < ParkedCap; ++I)
    if (uint64_t A = Parked[I]) {
      uint32_t S = slotOf(A, NewCap);
      while (New[S])
        S = (S + 1) & (NewCap - 1);
      New[S] = A;
    }
  arenaDeallocate(Parked, ParkedCap * sizeof(uint64_t));
  Parked = New;
  ParkedCap = NewCap;
  return true;
}

bool park(uint64_t Addr) {
  if ((NumParked + 1) * 2 > ParkedCap && !growParked())
    return false;
  uint32_t S = slotOf(Addr, ParkedCap);
  while (Parked[S])
    S = (S + 1) & (ParkedCap - 1);
  Parked[S] = Addr;
  ++NumParked;
  return true;
}

/// Removes Addr from the parked set; whether it was there.
bool unpark(uint64_t Addr) {
  uint32_t Mask = ParkedCap - 1;
  uint32_t S = slotOf(Addr, ParkedCap);
  while (Parked[S] && Parked[S] != Addr)
    S = (S + 1) & Mask;
  if (!Parked[S])
    return false;
  // Shift the rest of the cluster back (no tombstones).
  uint32_t Hole = S;
  for (uint32_t J = (S + 1) & Mask; Parked[J]; J = (J + 1) & Mask) {
    uint32_t Home = slotOf(Parked[J], ParkedCap);
    if (((J - Home) & Mask) >= ((J - Hole) & Mask)) {
      Parked[Hole] = Parked[J];
      Hole = J;
    }
  }
  Parked[Hole] = 0;
  --NumParked;
  return true;
}

/// Releases every parked block: after every ring was applied, none of
/// them has an allocation still to come; the model never knew them.
void releaseParked() {
  for (uint32_t I = 0; I < ParkedCap && NumParked; ++I)
    if (uint64_t A = Parked[I]) {
      Parked[I] = 0;
      --NumParked;
      glibcFree((void *)A);
    }
}

// ---------------------------------------------------------------------------
// Applying.

bool active() {
  return __atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive;
}

/// Applies one event. A settled free is marked for its ring's owner to
/// release (settle); a parked block, rare, is released here once its
/// allocation has come.
MASSIF_ALWAYS_INLINE void apply(Event &E) {
  if (!active()) {
    // The profile is written: only the held memory still matters.
    if (E.Kind == EventFree)
      E.Kind = EventFreeApplied;
    return;
  }
  if (E.Kind == EventReallocFrom)
    return; // a realloc's second slot, applied with its first
  Profile &Prof = *TheModel.Prof;
  if (E.Kind == EventStack) {
    Prof.onStackDelta(int64_t(E.ReqB));
    return;
  }
  if (E.Kind == EventAlloc) {
    uint64_t AlignB = E.AlignLog2P1 ? uint64_t(1) << (E.AlignLog2P1 - 1) : 0;
    Prof.onMalloc(E.Addr, E.ReqB, AlignB, E.Stack);
    if (NumParked && unpark(E.Addr)) {
      Prof.onFree(E.Addr);
      glibcFree((void *)E.Addr);
    }
    return;
  }
  if (E.Kind == EventFreeReleased) {
    Prof.onFree(E.Addr, E.Stack);
    return;
  }
  if (Prof.onFree(E.Addr, E.Stack) || !park(E.Addr))
    E.Kind = EventFreeApplied;
}

/// Applies a realloc logged by the one thread (its block is in glibc's
/// hands already).
void applyRealloc(const Event &E, uint64_t OldAddr) {
  if (active())
    TheModel.Prof->onRealloc(OldAddr, E.Addr, E.ReqB, E.Stack);
}

/// How applyRing stopped.
enum class Applied { All, Max, ForeignEvent };

/// Applies R's events up to its published tail, from at most Max slots
/// (a realloc's second slot is taken with its first, one past Max if need
/// be). With ForApplier it stops before an event only a program thread may
/// apply (EventFree: applying it may release a parked block to glibc).
/// Model lock held.
template <bool ForApplier> Applied applyRing(Ring &R, uint32_t Max) {
  uint32_t H = R.Head;
  uint32_t T = __atomic_load_n(&R.Tail, __ATOMIC_ACQUIRE);
  if (H == T)
    return Applied::All;
  uint32_t End = T - H > Max ? H + Max : T;
  Applied How = End == T ? Applied::All : Applied::Max;
  // Each event's time: with instructions, what the ring's thread had run
  // at the event plus what every other thread has run by now; with
  // milliseconds, the event's own reading; with bytes, the model's own
  // (not read).
  TimeUnit Unit = R.Unit;
  uint64_t Others = 0;
  if (Unit == TimeUnit::Instructions)
    Others = instructionsBesides(R.OwnerCounter);
  // In locals: the events applied could alias R's fields for all the
  // compiler knows, and each read of them would be one more per event.
  Event *Slots = R.Slots;
  const uint32_t Mask = R.Cap - 1;
  ApplyingRingEvent = Unit != TimeUnit::Bytes;
  // H runs up to End, or one past it after a realloc's two slots.
  for (; int32_t(End - H) > 0; ++H) {
    Event &E = Slots[H & Mask];
    uint8_t Kind = E.Kind;
    if (ForApplier && Kind == EventFree) {
      How = Applied::ForeignEvent;
      break;
    }
    TheClock.OverrideTime = Others + E.Clock;
    if (__builtin_expect(Kind == EventRealloc, 0)) {
      if (H + 1 == __atomic_load_n(&R.Tail, __ATOMIC_ACQUIRE)) {
        How = Applied::All;
        break; // its second slot is not published yet
      }
      ++H;
      applyRealloc(E, Slots[H & Mask].Addr);
    } else {
      apply(E);
    }
    if ((H + 1) % HeadStep == 0)
      __atomic_store_n(&R.Head, H + 1, __ATOMIC_RELEASE);
  }
  ApplyingRingEvent = false;
  __atomic_store_n(&R.Head, H, __ATOMIC_RELEASE);
  return How;
}

void applyEveryRing() {
  for (Ring *R = Rings; R; R = R->Next)
    applyRing<false>(*R, ~0u);
}

void unlinkRing(Ring *R) {
  if (R->Prev)
    R->Prev->Next = R->Next;
  else
    Rings = R->Next;
  if (R->Next)
    R->Next->Prev = R->Prev;
  else
    LastRing = R->Prev;
}

// ---------------------------------------------------------------------------
// The owner's side.

/// How far ahead of the slot it fills the owner asks for a slot's line
/// for writing (PREFETCHW). Whoever applied the ring read that line a lap
/// before, so the owner's store must first take it back from the other
/// core's cache; asked for early, it is there when the store comes. When
/// the two cores share no cache (on a virtual machine, cores of different
/// chiplets), every line otherwise stalled the owner for the transfer:
/// 2.2 times the time per malloc/free pair of bench/micro/pairs.c.
constexpr uint32_t PrefetchAhead = 16;

/// Whether the processor has PREFETCHW (CPUID 0x80000001, ECX bit 8).
bool hasPrefetchW() {
  // 0 until asked, then 1 (no) or 2 (yes); CPUID is slow on a virtual
  // machine, which intercepts it.
  static int Known = 0;
  if (int K = __atomic_load_n(&Known, __ATOMIC_RELAXED))
    return K == 2;
  unsigned Max, B, C, D;
  __asm__("cpuid" : "=a"(Max), "=b"(B), "=c"(C), "=d"(D) : "a"(0x80000000u));
  bool Has = false;
  if (Max >= 0x80000001u) {
    unsigned A;
    __asm__("cpuid" : "=a"(A), "=b"(B), "=c"(C), "=d"(D) : "a"(0x80000001u));
    Has = (C >> 8) & 1;
  }
  __atomic_store_n(&Known, Has ? 2 : 1, __ATOMIC_RELAXED);
  return Has;
}

void onThreadEnd(void *) { retireOwnRing(); }

void createRingKey() { pthread_key_create(&RingKey, onThreadEnd); }

/// Makes the calling thread's ring.
__attribute__((noinline)) Ring *createRing() {
  // pthread_once and pthread_setspecific may allocate: inside the event,
  // that goes to glibc.
  pthread_once(&RingKeyOnce, createRingKey);
  uint32_t Cap = singleProducer() ? SingleRingCap : RingCap;
  auto *R = (Ring *)arenaAllocate(ringBytes(Cap));
  if (!R)
    return nullptr;
  R->Cap = Cap;
  R->PrefetchW = hasPrefetchW();
  R->Unit = TheModel.Opts->TimeUnit;
  {
    ModelLock L;
    R->Prev = LastRing;
    R->Next = nullptr;
    R->OwnerCounter = &threadArea().Instructions;
    if (LastRing)
      LastRing->Next = R;
    else
      Rings = R;
    LastRing = R;
  }
  ownRing() = R;
  pthread_setspecific(RingKey, R);
  return R;
}

/// The calling thread's ring, made on its first event once the process
/// has threads; null while it has one (or after the thread's end).
inline Ring *ringForEvent() {
  ThreadArea &A = threadArea();
  if (Ring *R = A.OwnRing)
    return R;
  // Retired at the thread's end: events are applied directly; so are they
  // while the process has one thread and no model's thread.
  if ((__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) &&
       !__atomic_load_n(&ApplierRunning, __ATOMIC_RELAXED)) ||
      (A.RingRetired && endedHere(A)))
    return nullptr;
  return createRing();
}

/// Whether events from Released on may hold blocks to release: frees
/// appended as EventFree (the one thread's frees, EventFreeReleased, hold
/// none).
bool holdsFrees(const Ring &R) { return int32_t(R.HeldEnd - R.Released) > 0; }

/// Releases the blocks of the owner's applied frees up to Head.
void settle(Ring &R) {
  MutexLock L(R.SettleLock);
  uint32_t H = __atomic_load_n(&R.Head, __ATOMIC_ACQUIRE);
  if (!holdsFrees(R)) {
    R.Released = H;
    return;
  }
  for (uint32_t I = R.Released; I != H; ++I) {
    const Event &E = R.Slots[I & (R.Cap - 1)];
    if (E.Kind == EventFreeApplied)
      glibcFree((void *)E.Addr);
  }
  R.Released = H;
}

/// Applies every ring if the model's lock is free; whether it was.
bool tryApplyEveryRing() {
  if (!ModelLock::tryAcquire())
    return false;
  applyEveryRing();
  ModelLock::release();
  return true;
}

/// The slot for the calling thread's next event. Every EagerStep events
/// the thread applies every ring if the model's lock is free: small
/// batches stay in the cache. Then, and whenever the ring is full, the
/// thread releases the blocks of its frees applied so far. While other
/// threads keep the lock busy the ring fills up; full, the thread waits
/// for another to empty it or for the lock to be free, and then applies
/// every ring itself. (Sleeping on the lock instead measured slower: the
/// waiting threads left the cores idle.) While the model's thread runs,
/// the thread leaves the ring to it for SpinWaits pauses before it tries
/// the lock: the one thread had applied a fifth of micro-d0's events
/// itself, between the model's thread's batches, and with a faster model
/// the share grew and the pairs ran 5% slower.
constexpr uint32_t EagerStep = 128;
/// Pauses a thread with a full ring spins before it yields its core.
constexpr uint32_t SpinWaits = 1024;

/// The rest of nextSlot, every EagerStep events and when the ring is full.
__attribute__((noinline)) void makeRoom(Ring &R, uint32_t T) {
  if (__atomic_load_n(&ApplierRunning, __ATOMIC_RELAXED)) {
    // The model's thread applies (and is never woken by this one: the
    // scheduler would then run it on this core, behind this thread). The
    // one thread's frees hold no blocks: then only a full ring settles,
    // to move Released on, and Head's line is read only then.
    if (T % EagerStep == 0 && holdsFrees(R))
      settle(R);
  } else if (T % EagerStep == 0) {
    uint32_t Used = T - __atomic_load_n(&R.Head, __ATOMIC_ACQUIRE);
    if (Used >= EagerStep && Used < R.Cap)
      tryApplyEveryRing();
    settle(R);
  }
  for (uint32_t Wait = 0; T - R.Released == R.Cap; ++Wait) {
    settle(R); // another thread may have applied the ring meanwhile
    if (T - R.Released < R.Cap)
      continue;
    // The model's thread empties the ring: taken between its batches, the
    // lock would move the model's data to this core and back.
    bool LeaveToApplier =
        Wait < SpinWaits && __atomic_load_n(&ApplierRunning, __ATOMIC_RELAXED);
    if (!LeaveToApplier && tryApplyEveryRing())
      continue; // settled on the next check
    if (Wait < SpinWaits)
      __builtin_ia32_pause();
    else
      sched_yield();
  }
}

MASSIF_ALWAYS_INLINE Event &nextSlot(Ring &R) {
  uint32_t T = R.Tail;
  if (__builtin_expect(T % EagerStep == 0 || T - R.Released == R.Cap, 0))
    makeRoom(R, T);
  if (R.PrefetchW)
    __asm__ volatile(
        "prefetchw %0" ::"m"(R.Slots[(T + PrefetchAhead) & (R.Cap - 1)]));
  return R.Slots[T & (R.Cap - 1)];
}

void publish(Ring &R) {
  __atomic_store_n(&R.Tail, R.Tail + 1, __ATOMIC_RELEASE);
}

uint64_t eventTime(const Ring &R) {
  switch (R.Unit) {
  case TimeUnit::Instructions:
    return threadArea().Instructions;
  case TimeUnit::Milliseconds:
    return millisecondClock();
  case TimeUnit::Bytes:
    break;
  }
  return 0;
}

/// 0 for malloc's alignment, else log2 + 1 of AlignB rounded up to a power
/// of two (the model rounds memalign's alignments so too).
uint8_t alignCode(size_t AlignB) {
  if (AlignB == 0)
    return 0;
  uint8_t Log2 = uint8_t(63 - __builtin_clzll(AlignB));
  if (AlignB & (AlignB - 1))
    ++Log2;
  return uint8_t(Log2 + 1);
}

} // namespace

bool native::ringAllocSlow(void *P, size_t ReqB, size_t AlignB, StackId Stack) {
  Ring *R = ringForEvent();
  if (!R)
    return false;
  Event &E = nextSlot(*R);
  E = Event{(uint64_t)P, ReqB,       eventTime(*R),
            Stack,       EventAlloc, alignCode(AlignB)};
  publish(*R);
  return true;
}

/// Frees of blocks this big are applied at once: their memory is worth
/// returning now, not when the ring is next applied.
constexpr size_t HoldMaxB = 64 * 1024;

/// The size of glibc's chunk at P, read from the word before it (the
/// layout of every glibc): the block's size, give or take a word. Not
/// malloc_usable_size, which also reads the next chunk's header: a heap an
/// overrun corrupted would then fault here rather than where glibc's own
/// free finds the damage, as it does without the runtime.
static size_t chunkSizeB(const void *P) { return ((const size_t *)P)[-1] & ~size_t(7); }

bool native::ringFreeSlow(void *P, StackId FreeStack) {
  Ring *R = ringForEvent();
  if (!R)
    return false;
  if (singleProducer()) {
    // The model meets this free before any later allocation of this
    // thread, the only one: the block may go back to glibc now.
    Event &E = nextSlot(*R);
    E = Event{(uint64_t)P, 0, eventTime(*R), FreeStack, EventFreeReleased, 0};
    publish(*R);
    glibcFree(P);
    return true;
  }
  if (chunkSizeB(P) >= HoldMaxB)
    return false;
  Event &E = nextSlot(*R);
  E = Event{(uint64_t)P, 0, eventTime(*R), FreeStack, EventFree, 0};
  R->HeldEnd = R->Tail + 1;
  publish(*R);
  return true;
}

bool native::ringStackDelta(int64_t GrowthB) {
  Ring *R = ringForEvent();
  if (!R)
    return false;
  Event &E = nextSlot(*R);
  E = Event{0, uint64_t(GrowthB), eventTime(*R), 0, EventStack, 0};
  publish(*R);
  return true;
}

void native::ringRealloc(void *Old, void *New, size_t ReqB, StackId Stack) {
  Ring *R = ringForEvent();
  uint64_t Time = eventTime(*R);
  Event &E = nextSlot(*R);
  E = Event{(uint64_t)New, ReqB, Time, Stack, EventRealloc, 0};
  publish(*R);
  Event &From = nextSlot(*R);
  From = Event{(uint64_t)Old, 0, Time, 0, EventReallocFrom, 0};
  publish(*R);
}

void native::applyOwnRingSlow() {
  Ring *R = ownRing();
  applyRing<false>(*R, ~0u);
  settle(*R);
}

void native::applyAllRings() {
  applyEveryRing();
  releaseParked();
}

void native::applyRingsAtThreadStart() {
  if (!__atomic_load_n(&Rings, __ATOMIC_RELAXED) || !active())
    return;
  InsideRuntime Inside;
  ModelLock L;
  applyAllRings();
}

void native::retireOwnRing() {
  Ring *R = ownRing();
  if (!R)
    return;
  InsideRuntime Inside;
  {
    // Settled before it leaves the list, so that a fork meanwhile finds
    // either the ring, to settle in the child, or nothing left to settle.
    ModelLock L;
    // Every ring, oldest first, not only this one: the threads that made
    // this one (and whose rings are older) come first in the model.
    applyAllRings();
    settle(*R);
    unlinkRing(R);
  }
  ownRing() = nullptr;
  markEnded(threadArea(), &ThreadArea::RingRetired);
  arenaDeallocate(R, ringBytes(R->Cap));
}

// Every ring but the forking thread's own: that one a signal handler
// calling fork may have interrupted in the middle of settling, and the
// forking thread finishes it in both processes when the handler returns.
void native::ringsBeforeFork() {
  for (Ring *R = Rings; R; R = R->Next)
    if (R != ownRing())
      R->SettleLock.lock();
}

void native::ringsAfterForkParent() {
  for (Ring *R = Rings; R; R = R->Next)
    if (R != ownRing())
      R->SettleLock.unlock();
}

// The other threads' events are history the child inherits: applied, their
// frees' blocks released, their rings forgotten.
void native::ringsAfterForkChild() {
  for (Ring *R = Rings; R; R = R->Next)
    if (R != ownRing())
      R->SettleLock.reset();
  ModelLock L;
  applyAllRings();
  for (Ring *R = Rings, *Next; R; R = Next) {
    Next = R->Next;
    if (R != ownRing()) {
      settle(*R);
      unlinkRing(R);
      arenaDeallocate(R, ringBytes(R->Cap));
    }
  }
  // A child of one thread, without the model's thread, applies its events
  // directly again.
  if (Ring *Own = ownRing()) {
    if (__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED)) {
      settle(*Own);
      unlinkRing(Own);
      arenaDeallocate(Own, ringBytes(Own->Cap));
      ownRing() = nullptr;
    }
  }
}

alignas(64) bool native::ApplyingRingEvent = false;
// Not internal: the optimiser would split an internal struct into its
// fields, and the padding with it.
ModelClock native::TheClock = {0, 0};

//===-- The model's thread ------------------------------------------------===//

// Read by the program's threads at every event; written once, and when
// the model's thread sleeps or wakes.
alignas(64) bool native::ApplierRunning = false;

int native::applierBatch(uint32_t Max) {
  if (!__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) || !active())
    return -1;
  if (!ModelLock::tryAcquire())
    return 0;
  int Count = 0;
  bool Foreign = false;
  for (Ring *R = Rings; R && !Foreign; R = R->Next) {
    uint32_t Before = R->Head;
    Applied How = applyRing</*ForApplier=*/true>(*R, Max);
    Count += (int)(R->Head - Before);
    Foreign = How == Applied::ForeignEvent;
  }
  ModelLock::release();
  return Foreign ? -1 : Count;
}
