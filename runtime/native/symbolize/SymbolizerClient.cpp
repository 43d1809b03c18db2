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
// away is an error (MSG_NOSIGNAL), never a SIGPIPE for the program. Every
// signal is blocked while the children share the program's memory: a
// handler of the program's must not run in them (the symbolizer unblocks
// its signals itself).
//
// Every wait for the symbolizer is bounded: the program must not hang
// because another process does. A wait goes on while the symbolizer
// works (it is running, or reading the disk, or its CPU time grows) and
// ends when it has done nothing for the stall bound (10 s, or
// MASSIF_SYMBOLIZER_TIMEOUT seconds), or has answered nothing for 30 times
// that: the symbolizer is then killed, and the profile is written with
// frames named by their object only, after one warning.
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
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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
  int Pid = -1;     ///< the symbolizer's process, while one runs
  int PidFd = -1;   ///< a pidfd of it (to kill it), or -1
  bool Broken = false; ///< it could not start or went away: no more tries
  bool TimedOut = false; ///< it stopped working without answering
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

/// How long the symbolizer may do nothing before the runtime stops
/// waiting for it (setSymbolizerStallBound).
uint32_t StallMs = 10000;

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
  int Pid;         ///< set by the intermediate child: the symbolizer's pid
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
  SpawnArgs &A = *(SpawnArgs *)P;
  int Image = (int)syscall(SYS_fcntl, A.Image, F_DUPFD, 10);
  int Socket = (int)syscall(SYS_fcntl, A.Socket, F_DUPFD, 10);
  if (Image < 0 || Socket < 0 || syscall(SYS_dup2, Socket, 0) < 0 ||
      syscall(SYS_dup2, Socket, 1) < 0 || syscall(SYS_dup2, Image, 3) < 0)
    syscall(SYS_exit, 127);
  if (syscall(SYS_close_range, 4, ~0u, 0) != 0)
    for (int Fd = 4; Fd < 1024; ++Fd)
      syscall(SYS_close, Fd);
  A.Pid = clone(execChild, A.ExecStack, CLONE_VM | CLONE_VFORK | SIGCHLD,
               nullptr);
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
      SpawnArgs Args = {Image, Pair[1], (char *)Stack + StackB / 2, -1};
      sigset_t All, Old;
      sigfillset(&All);
      pthread_sigmask(SIG_SETMASK, &All, &Old);
      // Exit signal 0 (the low byte of the flags): no SIGCHLD.
      pid_t Child = clone(spawnChild, (char *)Stack + StackB,
                          CLONE_VM | CLONE_VFORK, &Args);
      if (Child > 0) {
        int Status;
        while (waitpid(Child, &Status, __WCLONE) < 0 && errno == EINTR)
          ;
        Pid = Args.Pid;
      }
      pthread_sigmask(SIG_SETMASK, &Old, nullptr);
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
  State.Pid = Pid;
  State.PidFd = (int)syscall(SYS_pidfd_open, Pid, 0);
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
  if (State.PidFd >= 0)
    close(State.PidFd);
  State.Fd = State.PidFd = State.Pid = -1;
  State.InPos = State.InEnd = 0;
  errno = SavedErrno;
}

/// Kills the current symbolizer, which stopped working without answering.
void killSymbolizer() {
  if (State.PidFd >= 0)
    syscall(SYS_pidfd_send_signal, State.PidFd, SIGKILL, nullptr, 0);
  else if (State.Pid > 0)
    syscall(SYS_kill, State.Pid, SIGKILL); // not the runtime's kill
}

/// The symbolizer went away, answered nonsense or stopped working: no more
/// names.
void broken(const char *Why) {
  if (State.TimedOut) {
    killSymbolizer();
    Why = "stopped working without answering";
  }
  stop();
  State.Broken = true;
  warnOnce(Why);
}

//===-- Bounded waits -----------------------------------------------------===//

uint64_t nowMs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (uint64_t)T.tv_sec * 1000 + (uint64_t)T.tv_nsec / 1000000;
}

/// Whether the symbolizer is at work: running, waiting for the disk, or
/// with more CPU time than *LastTicks (which this updates). A symbolizer
/// that waits for input, is stopped or traced, or cannot be read is not.
bool working(uint64_t &LastTicks) {
  char Path[40], Buf[512];
  char *P = Path;
  const char Prefix[] = "/proc/";
  memcpy(P, Prefix, sizeof(Prefix) - 1);
  P += sizeof(Prefix) - 1;
  char Digits[12];
  int N = 0;
  for (unsigned V = (unsigned)State.Pid; V || N == 0; V /= 10)
    Digits[N++] = char('0' + V % 10);
  while (N)
    *P++ = Digits[--N];
  memcpy(P, "/stat", 6);
  int Fd = open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  ssize_t Len = read(Fd, Buf, sizeof(Buf) - 1);
  close(Fd);
  if (Len <= 0)
    return false;
  Buf[Len] = 0;
  // "pid (comm) S ppid ... utime stime ...": fields after the name, which
  // may hold spaces and parentheses, so from the last ')'.
  char *F = strrchr(Buf, ')');
  if (!F || F[1] != ' ')
    return false;
  char StateChar = F[2];
  uint64_t Ticks = 0;
  int Field = 3; // the state is field 3; utime and stime are 14 and 15
  for (char *C = F + 2; *C && Field <= 15; ++C) {
    if (*C == ' ') {
      ++Field;
      continue;
    }
    if (Field == 14 || Field == 15) {
      uint64_t V = 0;
      for (; *C >= '0' && *C <= '9'; ++C)
        V = V * 10 + uint64_t(*C - '0');
      Ticks += V;
      --C;
    }
  }
  bool More = Ticks > LastTicks;
  LastTicks = Ticks;
  return StateChar == 'R' || StateChar == 'D' || More;
}

/// Waits until the socket is ready for Events (POLLIN, POLLOUT) or
/// reports an error or hang-up (the read or send that follows says which);
/// false, with TimedOut, when the symbolizer stopped working meanwhile.
bool waitReady(short Events) {
  constexpr int SliceMs = 100;
  uint64_t Start = nowMs(), LastWork = Start, Ticks = ~uint64_t(0);
  working(Ticks);
  for (;;) {
    pollfd P = {State.Fd, Events, 0};
    int R = poll(&P, 1, SliceMs);
    if (R > 0)
      return true;
    if (R < 0 && errno != EINTR)
      return true;
    uint64_t Now = nowMs();
    if (working(Ticks))
      LastWork = Now;
    if (Now - LastWork >= StallMs || Now - Start >= 30 * uint64_t(StallMs)) {
      State.TimedOut = true;
      return false;
    }
  }
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
  return putWhole(State.Out, N, [](const char *D, size_t K) -> ssize_t {
    for (;;) {
      ssize_t W = ::send(State.Fd, D, K, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (W >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        return W;
      if (!waitReady(POLLOUT))
        return -1;
    }
  });
}

bool receive(void *Out, size_t N) {
  char *P = (char *)Out;
  if (!State.In && !(State.In = (char *)arenaAllocate(InCapB)))
    return false;
  while (N) {
    if (State.InPos == State.InEnd) {
      if (!waitReady(POLLIN))
        return false;
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

/// The path of the object mapped at Pc, in arena memory, for frames
/// without names; null when none maps it.
const char *objectPath(uint64_t Pc) {
  dl_phdr_info Info;
  const uint8_t *EhFrameHdr;
  if (!findLoadedObject(Pc, Info, EhFrameHdr))
    return nullptr;
  if (Info.dlpi_name && Info.dlpi_name[0])
    return arenaStrdup(Info.dlpi_name);
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  return N > 0 ? arenaStrdup(Exe, (size_t)N) : nullptr;
}

/// E without names: one frame, its object.
void describeUnnamed(CacheEntry &E) {
  auto *F = (FrameInfo *)arenaAllocate(sizeof(FrameInfo));
  if (!F)
    return;
  *F = FrameInfo{nullptr, nullptr, 0, objectPath(E.Pc)};
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

/// Notes the executable's layout: the object that holds the runtime.
void noteExecutable() {
  dl_phdr_info Info;
  const uint8_t *EhFrameHdr;
  Exe.Bias = 0;
  Exe.Lo = ~uint64_t(0);
  Exe.Hi = 0;
  if (!findLoadedObject((uint64_t)(uintptr_t)&noteExecutable, Info,
                        EhFrameHdr))
    return;
  Exe.Bias = Info.dlpi_addr;
  for (int I = 0; I < Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info.dlpi_phdr[I];
    if (Ph.p_type != PT_LOAD)
      continue;
    uint64_t Lo = Info.dlpi_addr + Ph.p_vaddr;
    if (Lo < Exe.Lo)
      Exe.Lo = Lo;
    if (Lo + Ph.p_memsz > Exe.Hi)
      Exe.Hi = Lo + Ph.p_memsz;
  }
}

/// The executable's code addresses as Valgrind would have them: a PIE is
/// loaded at ValgrindPieBaseAddr there, wherever address-space
/// randomisation put it here. (Shared libraries keep their own addresses:
/// under Valgrind they would follow Valgrind's own preloaded libraries.)
uint64_t printedAddress(void *, uint64_t Pc) {
  if (!Exe.Known) {
    Exe.Known = true;
    noteExecutable();
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

void native::setSymbolizerStallBound(uint32_t Ms) {
  if (Ms)
    StallMs = Ms;
}

void native::symbolizerAfterForkChild() {
  if (State.Fd >= 0)
    close(State.Fd); // the parent's; it goes on talking to it
  if (State.PidFd >= 0)
    close(State.PidFd);
  State.Fd = State.PidFd = State.Pid = -1;
  State.ClosedSent = 0;
  State.InPos = State.InEnd = 0;
}
