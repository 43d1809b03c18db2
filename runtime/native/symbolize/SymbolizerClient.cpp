//===- SymbolizerClient.cpp - Names from the symbolizer process -----------===//
//
// Part of massif-native, under the MIT licence.
//
// See SymbolizerClient.h. Starting the symbolizer: its executable (linked
// into the runtime by SymbolizerImage.S) is copied into a memfd, and a
// clone child sharing the runtime's memory (CLONE_VM | CLONE_VFORK: the
// caller waits until it is done) puts one end of a socket pair on its
// standard input and output, closes every other descriptor (the
// program's must not stay open in another process) and starts, the same
// way, a child of its own that execs the memfd with an empty environment;
// then it exits. The symbolizer is thus an orphan from the start, adopted
// by init: the program never has it as a child (exec resets a child's exit
// signal to SIGCHLD, and the program's wait() would see it and might
// reap it, or wait for it). The intermediate child has exit signal 0 and
// never execs: no SIGCHLD, and only a wait for clone children (__WCLONE),
// right away, reaps it. A socket, not pipes, so that a symbolizer gone
// away is an error (MSG_NOSIGNAL), never a SIGPIPE for the program.
//
//===----------------------------------------------------------------------===//

#include "SymbolizerClient.h"
#include "LoaderWalk.h"
#include "Messages.h"
#include "SystemMemory.h"

#include "Arena.h"
#include "LoadedObject.h"
#include "Modules.h"
#include "OutFile.h"
#include "Protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

// The symbolizer's executable, linked in whole (SymbolizerImage.S).
extern "C" const char __massif_symbolizer_image[]
    __attribute__((visibility("hidden")));
extern "C" const char __massif_symbolizer_image_end[]
    __attribute__((visibility("hidden")));

namespace {

/// What is known of one address: the out-of-line function's name, and
/// once described, its frames, innermost first.
struct CacheEntry {
  uint64_t Pc;
  const char *Name;
  bool NameKnown;
  uint32_t NumFrames; ///< 0 until described
  FrameInfo *Frames;
};

struct ClientState {
  int Fd = -1;      ///< our end of the socket; -1 while none runs
  bool Broken = false; ///< it could not start or went away: no more tries
  bool Introduced = false;  ///< the current one knows which process
  uint32_t ClosedSent = 0; ///< closed objects told to the current one
  CacheEntry **Table = nullptr; ///< open addressing, power-of-two capacity
  uint32_t Capacity = 0;
  uint32_t Count = 0;
  // The request being built, and the answer being read.
  char *Out = nullptr;
  size_t OutB = 0, OutCap = 0;
  char *In = nullptr;
  size_t InPos = 0, InEnd = 0;
};

/// The answer is read through a buffer of this size.
constexpr size_t InCapB = 64 * 1024;

ClientState State;

void warnOnce(const char *Why) {
  static bool Warned = false;
  if (Warned)
    return;
  Warned = true;
  const char *Parts[] = {"massif: warning: the symbolizer ", Why,
                         "; frames are printed without function names"};
  writeLine(warningFd(), Parts, 3);
}

//===-- Starting and stopping ---------------------------------------------===//

struct SpawnArgs {
  int Image, Socket;
  char *ExecStack; ///< the top of the stack the exec'ing child runs on
};

/// The exec'ing child: its descriptors are ready (spawnChild).
int execChild(void *) {
  const char *Argv[] = {"massif-symbolizer", nullptr};
  const char *Envp[] = {nullptr};
  syscall(SYS_execveat, 3, "", Argv, Envp, AT_EMPTY_PATH);
  syscall(SYS_exit, 127);
  return 127;
}

/// The intermediate child: the socket on 0 and 1, the image on 3, nothing
/// else open, then the exec'ing child, then its own end. Raw system calls
/// only (it runs on a stack of its own in the caller's memory).
int spawnChild(void *P) {
  const SpawnArgs &A = *(const SpawnArgs *)P;
  int Image = (int)syscall(SYS_fcntl, A.Image, F_DUPFD, 10);
  int Socket = (int)syscall(SYS_fcntl, A.Socket, F_DUPFD, 10);
  if (Image < 0 || Socket < 0 || syscall(SYS_dup2, Socket, 0) < 0 ||
      syscall(SYS_dup2, Socket, 1) < 0 || syscall(SYS_dup2, Image, 3) < 0)
    syscall(SYS_exit, 127);
  if (syscall(SYS_close_range, 4, ~0u, 0) != 0)
    for (int Fd = 4; Fd < 1024; ++Fd)
      syscall(SYS_close, Fd);
  clone(execChild, A.ExecStack, CLONE_VM | CLONE_VFORK | SIGCHLD, nullptr);
  syscall(SYS_exit, 0);
  return 0;
}

/// Hands N bytes to Put (write or send, returning what it took) until all
/// are taken; false on an error.
template <typename PutFn>
bool putWhole(const char *Data, size_t N, PutFn Put) {
  while (N) {
    ssize_t W = Put(Data, N);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return false;
    Data += W;
    N -= (size_t)W;
  }
  return true;
}

bool writeWhole(int Fd, const char *Data, size_t N) {
  return putWhole(Data, N, [Fd](const char *D, size_t K) {
    return write(Fd, D, K);
  });
}

/// Starts the symbolizer; false (and Broken) when it cannot.
bool start() {
  if (State.Fd >= 0)
    return true;
  if (State.Broken)
    return false;
  int SavedErrno = errno;
  int Image = (int)syscall(SYS_memfd_create, "massif-symbolizer", MFD_CLOEXEC);
  int Pair[2] = {-1, -1};
  size_t ImageB = (size_t)(__massif_symbolizer_image_end -
                           __massif_symbolizer_image);
  constexpr size_t StackB = 64 * 1024;
  void *Stack = MAP_FAILED;
  pid_t Pid = -1;
  if (Image >= 0 && writeWhole(Image, __massif_symbolizer_image, ImageB) &&
      socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pair) == 0) {
    Stack = systemMmap(nullptr, StackB, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (Stack != MAP_FAILED) {
      SpawnArgs Args = {Image, Pair[1], (char *)Stack + StackB / 2};
      // Exit signal 0 (the low byte of the flags): no SIGCHLD.
      Pid = clone(spawnChild, (char *)Stack + StackB, CLONE_VM | CLONE_VFORK,
                  &Args);
      if (Pid > 0) {
        int Status;
        while (waitpid(Pid, &Status, __WCLONE) < 0 && errno == EINTR)
          ;
      }
    }
  }
  if (Stack != MAP_FAILED)
    systemMunmap(Stack, StackB);
  if (Image >= 0)
    close(Image);
  if (Pair[1] >= 0)
    close(Pair[1]);
  errno = SavedErrno;
  if (Pid <= 0) {
    if (Pair[0] >= 0)
      close(Pair[0]);
    State.Broken = true;
    warnOnce("could not be started");
    return false;
  }
  State.Fd = Pair[0];
  State.Introduced = false;
  State.ClosedSent = 0;
  return true;
}

/// Ends the current symbolizer: it exits at the end of its input.
void stop() {
  if (State.Fd < 0)
    return;
  int SavedErrno = errno;
  close(State.Fd);
  State.Fd = -1;
  State.InPos = State.InEnd = 0;
  errno = SavedErrno;
}

/// The symbolizer went away or answered nonsense: no more names.
void broken(const char *Why) {
  stop();
  State.Broken = true;
  warnOnce(Why);
}

//===-- The conversation (Protocol.h) -------------------------------------===//

bool reserve(size_t MoreB) {
  if (State.OutB + MoreB <= State.OutCap)
    return true;
  size_t NewCap = State.OutCap ? State.OutCap : 4096;
  while (NewCap < State.OutB + MoreB)
    NewCap *= 2;
  char *New = (char *)arenaAllocate(NewCap);
  if (!New)
    return false;
  memcpy(New, State.Out, State.OutB);
  arenaDeallocate(State.Out, State.OutCap);
  State.Out = New;
  State.OutCap = NewCap;
  return true;
}

void put(const void *Data, size_t N) {
  if (reserve(N)) {
    memcpy(State.Out + State.OutB, Data, N);
    State.OutB += N;
  }
}

template <typename T> void putNumber(T V) { put(&V, sizeof(V)); }

/// Sends the request built so far.
bool send() {
  size_t N = State.OutB;
  State.OutB = 0;
  return putWhole(State.Out, N, [](const char *D, size_t K) {
    return ::send(State.Fd, D, K, MSG_NOSIGNAL);
  });
}

bool receive(void *Out, size_t N) {
  char *P = (char *)Out;
  if (!State.In && !(State.In = (char *)arenaAllocate(InCapB)))
    return false;
  while (N) {
    if (State.InPos == State.InEnd) {
      ssize_t R = read(State.Fd, State.In, InCapB);
      if (R < 0 && errno == EINTR)
        continue;
      if (R <= 0)
        return false;
      State.InPos = 0;
      State.InEnd = (size_t)R;
    }
    size_t Take = State.InEnd - State.InPos < N ? State.InEnd - State.InPos : N;
    memcpy(P, State.In + State.InPos, Take);
    State.InPos += Take;
    P += Take;
    N -= Take;
  }
  return true;
}

/// A string of the answer, copied into arena memory; false when the
/// answer breaks off.
bool receiveString(const char *&S) {
  uint32_t Len;
  if (!receive(&Len, sizeof(Len)))
    return false;
  S = nullptr;
  if (Len == protocol::NullString)
    return true;
  if (Len > (1u << 20))
    return false;
  char *Copy = (char *)arenaAllocate(Len + 1);
  if (!Copy) {
    char Skip[256];
    for (uint32_t Left = Len; Left;) {
      uint32_t N = Left < sizeof(Skip) ? Left : sizeof(Skip);
      if (!receive(Skip, N))
        return false;
      Left -= N;
    }
    return true;
  }
  if (!receive(Copy, Len))
    return false;
  S = Copy; // zeroed by the arena: terminated
  return true;
}

/// Starts a request: the symbolizer running, told who it describes and
/// which objects have been unloaded since it last heard.
bool beginRequest() {
  if (!start())
    return false;
  int SavedErrno = errno;
  if (!State.Introduced) {
    State.Introduced = true;
    putNumber<uint8_t>(protocol::Hello);
    putNumber<uint32_t>((uint32_t)getpid());
    putNumber<uint32_t>((uint32_t)gettid());
  }
  uint32_t Count;
  const ClosedModule *Closed = closedModules(Count);
  for (; State.ClosedSent < Count; ++State.ClosedSent) {
    const ClosedModule &M = Closed[State.ClosedSent];
    uint32_t Len = (uint32_t)strlen(M.Path);
    putNumber<uint8_t>(protocol::ClosedObject);
    putNumber<uint64_t>(M.Base);
    putNumber<uint32_t>(Len);
    put(M.Path, Len);
  }
  errno = SavedErrno;
  return true;
}

//===-- The cache ---------------------------------------------------------===//

uint32_t hashPc(uint64_t Pc) {
  Pc ^= Pc >> 33;
  Pc *= 0xff51afd7ed558ccdULL;
  Pc ^= Pc >> 33;
  return (uint32_t)Pc;
}

bool growTable() {
  uint32_t NewCapacity = State.Capacity ? State.Capacity * 2 : 1024;
  auto **NewTable =
      (CacheEntry **)arenaAllocate(NewCapacity * sizeof(CacheEntry *));
  if (!NewTable)
    return false;
  for (uint32_t I = 0; I < State.Capacity; ++I) {
    CacheEntry *E = State.Table[I];
    if (!E)
      continue;
    uint32_t Slot = hashPc(E->Pc) & (NewCapacity - 1);
    while (NewTable[Slot])
      Slot = (Slot + 1) & (NewCapacity - 1);
    NewTable[Slot] = E;
  }
  arenaDeallocate(State.Table, State.Capacity * sizeof(CacheEntry *));
  State.Table = NewTable;
  State.Capacity = NewCapacity;
  return true;
}

/// The cache entry of Pc, created empty when new; null when memory ran out.
CacheEntry *entryOf(uint64_t Pc) {
  if ((State.Count + 1) * 2 > State.Capacity && !growTable())
    return nullptr;
  uint32_t Mask = State.Capacity - 1;
  uint32_t Slot = hashPc(Pc) & Mask;
  while (State.Table[Slot] && State.Table[Slot]->Pc != Pc)
    Slot = (Slot + 1) & Mask;
  if (!State.Table[Slot]) {
    auto *E = (CacheEntry *)arenaAllocate(sizeof(CacheEntry));
    if (!E)
      return nullptr;
    *E = CacheEntry{Pc, nullptr, false, 0, nullptr};
    State.Table[Slot] = E;
    ++State.Count;
  }
  return State.Table[Slot];
}

/// The path of the object mapped at Pc, for frames without names.
struct ObjectSearch {
  uint64_t Pc;
  const char *Path;
};

int findObject(dl_phdr_info *Info, size_t, void *P) {
  auto &S = *(ObjectSearch *)P;
  if (!containsAddress(*Info, S.Pc))
    return 0;
  if (Info->dlpi_name && Info->dlpi_name[0]) {
    S.Path = arenaStrdup(Info->dlpi_name);
  } else {
    char Exe[4096];
    ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
    if (N > 0)
      S.Path = arenaStrdup(Exe, (size_t)N);
  }
  return 1;
}

/// E without names: one frame, its object.
void describeUnnamed(CacheEntry &E) {
  auto *F = (FrameInfo *)arenaAllocate(sizeof(FrameInfo));
  if (!F)
    return;
  ObjectSearch S = {E.Pc, nullptr};
  walkLoadedObjects(findObject, &S);
  *F = FrameInfo{nullptr, nullptr, 0, S.Path};
  E.Frames = F;
  E.NumFrames = 1;
  E.Name = nullptr;
  E.NameKnown = true;
}

/// Describes the entries given, in one request.
void describeEntries(CacheEntry **Entries, uint32_t N) {
  if (N == 0)
    return;
  if (beginRequest()) {
    putNumber<uint8_t>(protocol::Describe);
    putNumber<uint32_t>(N);
    for (uint32_t I = 0; I < N; ++I)
      putNumber<uint64_t>(Entries[I]->Pc);
    bool Ok = send();
    for (uint32_t I = 0; Ok && I < N; ++I) {
      CacheEntry &E = *Entries[I];
      uint32_t Count;
      Ok = receive(&Count, sizeof(Count)) && Count >= 1 &&
           Count <= protocol::MaxFrames;
      FrameInfo Frames[protocol::MaxFrames];
      for (uint32_t F = 0; Ok && F < Count; ++F)
        Ok = receiveString(Frames[F].Function) &&
             receiveString(Frames[F].File) &&
             receiveString(Frames[F].Dir) &&
             receiveString(Frames[F].Object) &&
             receive(&Frames[F].Line, sizeof(uint32_t));
      auto *Copy = Ok ? (FrameInfo *)arenaAllocate(Count * sizeof(FrameInfo))
                      : nullptr;
      if (!Copy)
        break;
      memcpy(Copy, Frames, Count * sizeof(FrameInfo));
      E.Frames = Copy;
      E.NumFrames = Count;
      E.Name = Copy[Count - 1].Function;
      E.NameKnown = true;
    }
    if (!Ok)
      broken("stopped answering");
  }
  for (uint32_t I = 0; I < N; ++I)
    if (!Entries[I]->NumFrames)
      describeUnnamed(*Entries[I]);
}

//===-- massif::Symbolizer ------------------------------------------------===//

uint32_t describe(void *, uint64_t Pc, FrameInfo *Out, uint32_t Max) {
  if (Max == 0)
    return 0;
  CacheEntry *E = entryOf(Pc);
  if (E && !E->NumFrames)
    describeEntries(&E, 1);
  if (!E || !E->NumFrames) {
    Out[0] = FrameInfo{nullptr, nullptr, 0, nullptr};
    return 1;
  }
  // Keep the innermost frames and always the out-of-line one, last.
  uint32_t N = E->NumFrames < Max ? E->NumFrames : Max;
  memcpy(Out, E->Frames, (N - 1) * sizeof(FrameInfo));
  Out[N - 1] = E->Frames[E->NumFrames - 1];
  return N;
}

/// The out-of-line function's name at Pc from the symbol table alone; an
/// address no symbol covers is described in full, for its DWARF name.
const char *functionName(void *, uint64_t Pc) {
  CacheEntry *E = entryOf(Pc);
  if (!E)
    return nullptr;
  if (E->NameKnown)
    return E->Name;
  if (beginRequest()) {
    putNumber<uint8_t>(protocol::Names);
    putNumber<uint32_t>(1);
    putNumber<uint64_t>(Pc);
    if (send() && receiveString(E->Name))
      E->NameKnown = E->Name != nullptr;
    else
      broken("stopped answering");
  }
  if (!E->NameKnown)
    describeEntries(&E, 1);
  return E->Name;
}

/// Describes, in batches, every address not known yet.
void prepare(void *, const uint64_t *Pcs, uint32_t NumPcs) {
  constexpr uint32_t BatchMax = 4096;
  CacheEntry *Batch[BatchMax];
  uint32_t N = 0;
  for (uint32_t I = 0; I < NumPcs; ++I) {
    CacheEntry *E = entryOf(Pcs[I]);
    if (!E || E->NumFrames)
      continue;
    Batch[N++] = E;
    if (N == BatchMax) {
      describeEntries(Batch, N);
      N = 0;
    }
  }
  describeEntries(Batch, N);
}

/// Where Valgrind 3.19 maps a position-independent executable on amd64:
/// every address Massif prints for its code is this plus the address in
/// the file.
constexpr uint64_t ValgrindPieBaseAddr = 0x108000;

/// The executable's mapped range and load bias (0 for a fixed-address
/// executable, whose addresses are Valgrind's already).
struct ExecutableLayout {
  bool Known;
  uint64_t Lo, Hi, Bias;
};
ExecutableLayout Exe;

int noteExecutable(dl_phdr_info *Info, size_t, void *) {
  // The first object is the executable.
  Exe.Bias = Info->dlpi_addr;
  Exe.Lo = ~uint64_t(0);
  Exe.Hi = 0;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    if (Ph.p_type != PT_LOAD)
      continue;
    uint64_t Lo = Info->dlpi_addr + Ph.p_vaddr;
    if (Lo < Exe.Lo)
      Exe.Lo = Lo;
    if (Lo + Ph.p_memsz > Exe.Hi)
      Exe.Hi = Lo + Ph.p_memsz;
  }
  return 1;
}

/// The executable's code addresses as Valgrind would have them: a PIE is
/// loaded at ValgrindPieBaseAddr there, wherever address-space
/// randomisation put it here. (Shared libraries keep their own addresses:
/// under Valgrind they would follow Valgrind's own preloaded libraries.)
uint64_t printedAddress(void *, uint64_t Pc) {
  if (!Exe.Known) {
    Exe.Known = true;
    walkLoadedObjects(noteExecutable, nullptr);
  }
  if (Exe.Bias && Pc >= Exe.Lo && Pc < Exe.Hi)
    return Pc - Exe.Bias + ValgrindPieBaseAddr;
  return Pc;
}

const Symbolizer TheSymbolizer = {describe, nullptr, functionName,
                                  printedAddress, prepare};

} // namespace

const Symbolizer &native::processSymbolizer() { return TheSymbolizer; }

void native::stopSymbolizer() { stop(); }

void native::symbolizerAfterForkChild() {
  if (State.Fd >= 0)
    close(State.Fd); // the parent's; it goes on talking to it
  State.Fd = -1;
  State.ClosedSent = 0;
  State.InPos = State.InEnd = 0;
}
