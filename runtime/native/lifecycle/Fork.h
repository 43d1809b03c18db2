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
// Each part declares its three steps in its own header (the model's and
// the signal view's are here, with the handler); Fork.cpp takes them in
// the order below. Before: the lock is
// taken (each before those its holders go on to take). Parent: released.
// Child: released or reset, and the part made consistent for a process of
// one thread.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_FORK_H
#define MASSIF_NATIVE_FORK_H

namespace massif {
namespace native {

/// Registers the fork handler; called once, at start-up. It takes, in this
/// order: the runtime's walks of the dynamic linker's list (LoaderWalk.h:
/// a walk waits for the dynamic linker's lock, whose holder, inside dlopen
/// or dlclose, may be calling malloc or free, which take every lock below),
/// the model's lock, the event rings' (EventRing.h), the signal view's, the
/// loaded objects' (Modules.h, taken inside the walks), the instruction
/// counters' (Counters.h), the arena's (Arena.h); and releases them in the
/// reverse order. This is the one order of the runtime's locks: a thread
/// that holds one takes only those after it, or a fork could wait for ever
/// for a lock whose holder waits for one the fork took (test/stress/).
void installForkHandlers();

/// The model (State.h): its lock. The child keeps the profile.
void modelBeforeFork();
void modelAfterForkParent();
void modelAfterForkChild();

/// The signal view (Signals.cpp): no thread is changing a disposition. The
/// child forgets a signal the parent was about to die of.
void signalsBeforeFork();
void signalsAfterForkParent();
void signalsAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_FORK_H
