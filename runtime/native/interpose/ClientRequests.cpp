//===- ClientRequests.cpp - Valgrind client requests, natively ------------===//
//
// Part of massif-native, under the MIT licence.
//
// The pass turns valgrind.h's client-request sequence into a call to
// __massif_client_request with the request block (request code, five
// arguments) and the default result. Massif handles three requests (spec
// §2.10); this file does the same:
//
//  - MALLOCLIKE_BLOCK(addr, size, rz, zeroed): a block of `size` useful
//    bytes at `addr`, slop 0, charged to the whole stack at the request
//    (its innermost frame is the code that made it); a Normal snapshot
//    attempt. `rz` and `zeroed` do not matter to Massif.
//  - FREELIKE_BLOCK(addr, rz): like free: a Peak attempt, the release, a
//    Normal attempt; an unknown address is ignored.
//  - RESIZEINPLACE_BLOCK(addr, old, new, rz): a FREELIKE of the block, then
//    a MALLOCLIKE of `new` bytes at the same address, charged to the
//    resize's stack.
//
//  - GDB_MONITOR_COMMAND(command): Massif's monitor command, run at once
//    (lifecycle/Monitor.cpp); 0 when recognised, 1 when not, as Valgrind.
//
// Every other request returns its default, as natively without Valgrind
// (RUNNING_ON_VALGRIND is 0). On Valgrind every request goes to Valgrind,
// as the program wrote it (UnderValgrind.h). The request codes are valgrind.h's, part of
// Valgrind's stable client ABI.
//
//===----------------------------------------------------------------------===//

#include "OutFile.h"
#include "Record.h"
#include "State.h"
#include "UnderValgrind.h"
#include "Unwind.h"

#include "massif/abi.h"

using namespace massif;
using namespace massif::native;

namespace {

enum RequestCode : unsigned long long {
  GdbMonitorCommand = 0x1202,
  MallocLikeBlock = 0x1301,
  FreeLikeBlock = 0x1302,
  ResizeInPlaceBlock = 0x130b,
};

bool active() {
  return __atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive;
}

} // namespace

extern "C" MASSIF_EXPORT unsigned long long
__massif_client_request(unsigned long long *Args, unsigned long long Default) {
  if (underValgrind())
    return valgrindRequest(Args, Default);
  unsigned long long Code = Args[0];
  if (Code == GdbMonitorCommand) {
    // The program's own thread, in its own code: a safe point. The reply
    // goes where Valgrind's goes with no debugger attached, the log
    // (standard error).
    if (!Args[1])
      return 1;
    char Buf[1024];
    FdSink Reply(2, Buf, sizeof(Buf));
    int Status = runMonitorCommand((const char *)Args[1], Reply.sink());
    Reply.flush();
    return Status == 1 ? 1 : 0; // a file error is still "recognised"
  }
  if (Code != MallocLikeBlock && Code != FreeLikeBlock &&
      Code != ResizeInPlaceBlock)
    return Default;
  ThreadState *T = beginEvent();
  if (!T)
    return 0;
  uint64_t Addr = Args[1];
  // Capture before the lock, as every event does.
  StackId Stack = 0;
  if (Code != FreeLikeBlock)
    Stack = captureAndIntern(*T, __builtin_frame_address(0));
  {
    ModelLock L;
    if (active()) {
      catchUpFor(Code == MallocLikeBlock ? 0 : Addr);
      switch (Code) {
      case MallocLikeBlock:
        TheModel.Prof->onAlloc(Addr, Args[2], 0, Stack);
        break;
      case FreeLikeBlock:
        TheModel.Prof->onFree(Addr);
        break;
      case ResizeInPlaceBlock:
        TheModel.Prof->onFree(Addr);
        TheModel.Prof->onAlloc(Addr, Args[3], 0, Stack);
        break;
      }
    }
  }
  endEvent(*T);
  return 0;
}
