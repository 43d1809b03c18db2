//===- Fork.h - What each part of the runtime does across fork --*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// fork copies the process as it is at one instant, and only the forking
// thread lives on in the child. Whatever another thread of the runtime was
// halfway through at that instant (a lock held, a list being linked, a
// batch of blocks being handed back to glibc) would stay halfway in the
// child for ever. So fork runs one handler (Fork.cpp) that makes every part
// of the runtime reach a quiet point first: it takes each part's lock, in
// the order below, and in the child each part drops what belonged to the
// threads that are gone.
//
// Each part's three steps are declared here, in the order the handler
// takes them; they are defined in the part's own file. Before: the lock is
// taken (the model's first, since it is the only one held while others are
// taken; then the leaves). Parent: released. Child: released or reset, and
// the part made consistent for a process of one thread.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_FORK_H
#define MASSIF_NATIVE_FORK_H

namespace massif {
namespace native {

/// Registers the fork handler; called once, at start-up.
void installForkHandlers();

/// The model (Runtime.h): its lock. The child keeps the profile.
void modelBeforeFork();
void modelAfterForkParent();
void modelAfterForkChild();

/// The event rings (EventRing.cpp): no other thread is handing blocks of
/// its applied frees back to glibc. The child applies the rings of the
/// threads that are gone, releases their blocks and forgets them. Model
/// lock held.
void ringsBeforeFork();
void ringsAfterForkParent();
void ringsAfterForkChild();

/// The signal view (Signals.cpp): no thread is changing a disposition. The
/// child forgets a signal the parent was about to die of.
void signalsBeforeFork();
void signalsAfterForkParent();
void signalsAfterForkChild();

/// The loaded objects (Modules.cpp): no thread is classifying one.
void modulesBeforeFork();
void modulesAfterForkParent();
void modulesAfterForkChild();

/// The instruction counters (Counters.cpp): no thread is registering or
/// retiring its counter. The child adds the gone threads' counts to the
/// exited total.
void countersBeforeFork();
void countersAfterForkParent();
void countersAfterForkChild();

// The arena's steps come last (Arena.h: arenaBeforeFork, ...).

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_FORK_H
