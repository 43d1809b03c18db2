//===- Control.cpp - The control channel: ms_control's requests -----------===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime's half of runtime/support/ControlChannel.h. The control
// page is a page of the runtime's own data whose first word is
// PendingSignal, the word every allocator entry already reads at its end
// (state/State.h): mapping the user's <pid>.ctl over it, shared, lets
// ms_control raise that word from outside without a signal, so the
// program is never interrupted (no EINTR, no handler of its own
// disturbed) and a program never asked pays nothing.
//
// The request runs in deliverPendingSignal, on the thread that ended an
// event: outside the runtime, at a safe point (Monitor.cpp). Only the
// program's own user can reach the directory (0700, checked), and the
// runtime also checks the request file's owner, so even root's planted
// request is ignored: a command writes files with the program's rights.
//
// A program in secure mode (set-user-ID, ...) opens no channel. A forked
// child gets a private page again (the parent's stays the
// parent's) and a channel of its own; exec and exit remove the file.
//
//===----------------------------------------------------------------------===//

#include "Lifecycle.h"

#include "Arena.h"
#include "ControlChannel.h"
#include "Monitor.h"
#include "Process.h"
#include "State.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

namespace massif {
namespace native {

/// The control page: PendingSignal (its first word, an alias of it:
/// state/State.h) and the page header, alone in a page.
struct alignas(control::PageB) ControlPage {
  control::PageHeader Header;
  char Rest[control::PageB - sizeof(control::PageHeader)];
};
ControlPage TheControlPage MASSIF_HIDDEN;

} // namespace native
} // namespace massif

// PendingSignal is the page's first word: the same address under the
// name the allocator entries read.
__asm__(".globl _ZN6massif6native13PendingSignalE\n"
        ".hidden _ZN6massif6native13PendingSignalE\n"
        ".set _ZN6massif6native13PendingSignalE, "
        "_ZN6massif6native14TheControlPageE\n");

namespace {

bool ChannelOpen = false;
char DirPath[64];
char CtlName[32];

/// Opens the user's directory, creating it, and checks it is the user's
/// own and closed to others. -1 otherwise.
int openDir(bool Create) {
  control::dirPath(DirPath, sizeof(DirPath), unsigned(geteuid()));
  if (Create)
    mkdir(DirPath, 0700);
  int Fd = open(DirPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (Fd < 0)
    return -1;
  struct stat St;
  if (fstat(Fd, &St) != 0 || St.st_uid != geteuid() ||
      (St.st_mode & 077) != 0) {
    close(Fd);
    return -1;
  }
  return Fd;
}

/// Writes all of Data to Fd.
bool writeAll(int Fd, const char *Data, size_t Len) {
  while (Len) {
    ssize_t N = write(Fd, Data, Len);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Len -= size_t(N);
  }
  return true;
}

/// The reply, gathered in arena memory.
struct ReplyBuffer {
  char *Data;
  size_t Len, Cap;
};

bool appendReply(void *Ctx, const char *Data, size_t Len) {
  ReplyBuffer &R = *static_cast<ReplyBuffer *>(Ctx);
  if (R.Len + Len > R.Cap)
    Len = R.Cap - R.Len; // an over-long reply is cut
  memcpy(R.Data + R.Len, Data, Len);
  R.Len += Len;
  return true;
}

constexpr size_t ReplyCapB = 64 * 1024;

void serveRequest() {
  int Dir = openDir(/*Create=*/false);
  if (Dir < 0)
    return;
  int Pid = getpid();
  char Req[32], Rep[32], RepTmp[32];
  control::fileName(Req, sizeof(Req), Pid, ".req");
  control::fileName(Rep, sizeof(Rep), Pid, ".rep");
  control::fileName(RepTmp, sizeof(RepTmp), Pid, ".rep.tmp");
  int Fd = openat(Dir, Req, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  struct stat St;
  char *Line = (char *)arenaAllocate(MonitorMaxLine); // small stacks
  ssize_t N = -1;
  if (Fd >= 0 && fstat(Fd, &St) == 0 && S_ISREG(St.st_mode) &&
      St.st_uid == geteuid()) {
    do
      N = Line ? read(Fd, Line, MonitorMaxLine - 1) : -1;
    while (N < 0 && errno == EINTR);
  }
  if (Fd >= 0) {
    close(Fd);
    // Taken, or refused (someone else's): either way it is gone.
    unlinkat(Dir, Req, 0);
  }
  if (N < 0) {
    if (Line)
      arenaDeallocate(Line, MonitorMaxLine);
    close(Dir);
    return;
  }
  Line[N] = '\0';
  if (N && Line[N - 1] == '\n')
    Line[N - 1] = '\0';

  ReplyBuffer R = {(char *)arenaAllocate(ReplyCapB), 0, ReplyCapB};
  int Status = 0;
  if (R.Data)
    Status = runMonitorCommand(Line, Sink{appendReply, &R});
  arenaDeallocate(Line, MonitorMaxLine);
  if (!R.Data) {
    close(Dir);
    return;
  }
  char Head[4] = {char('0' + Status), '\n', 0, 0};
  int Out = openat(Dir, RepTmp,
                   O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (Out >= 0) {
    bool Ok = writeAll(Out, Head, 2) && writeAll(Out, R.Data, R.Len);
    close(Out);
    if (!Ok || renameat(Dir, RepTmp, Dir, Rep) != 0)
      unlinkat(Dir, RepTmp, 0);
  }
  arenaDeallocate(R.Data, ReplyCapB);
  close(Dir);
}

} // namespace

void native::openControlChannel() {
  ChannelOpen = false;
  // A program running with privileges its user did not give it takes no
  // orders from outside.
  if (secureMode())
    return;
  int Dir = openDir(/*Create=*/true);
  if (Dir < 0)
    return;
  int Pid = getpid();
  control::fileName(CtlName, sizeof(CtlName), Pid, ".ctl");
  // A file of an earlier process with this pid is stale.
  unlinkat(Dir, CtlName, 0);
  int Fd = openat(Dir, CtlName,
                  O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  close(Dir);
  if (Fd < 0)
    return;
  // The page as it is now (a fatal signal may be pending), then the header.
  ControlPage Copy;
  memcpy(&Copy, &TheControlPage, sizeof(Copy));
  Copy.Header.Magic = control::ControlMagic;
  Copy.Header.Pid = Pid;
  bool Ok = writeAll(Fd, (const char *)&Copy, sizeof(Copy));
  void *At = Ok ? mmap(&TheControlPage, sizeof(TheControlPage),
                       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, Fd, 0)
                : MAP_FAILED;
  close(Fd);
  if (At == MAP_FAILED) {
    removeControlChannel();
    return;
  }
  ChannelOpen = true;
}

void native::removeControlChannel() {
  int Dir = openDir(/*Create=*/false);
  if (Dir < 0)
    return;
  unlinkat(Dir, CtlName, 0);
  close(Dir);
  ChannelOpen = false;
}

void native::controlAfterForkChild() {
  if (!ChannelOpen)
    return;
  // The page is the parent's file: take a private copy back, then open
  // the child's own channel.
  ControlPage Copy;
  memcpy(&Copy, &TheControlPage, sizeof(Copy));
  Copy.Header.Pending &= ~control::RequestBit; // the parent's request
  void *At = mmap(&TheControlPage, sizeof(TheControlPage),
                  PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                  -1, 0);
  if (At != MAP_FAILED)
    memcpy(&TheControlPage, &Copy, sizeof(Copy));
  ChannelOpen = false;
  openControlChannel();
}

bool native::takeControlRequest() {
  int Was = __atomic_fetch_and(&TheControlPage.Header.Pending,
                               ~control::RequestBit, __ATOMIC_ACQ_REL);
  if (!(Was & control::RequestBit))
    return false;
  if (ownsRuntime())
    serveRequest();
  return true;
}
