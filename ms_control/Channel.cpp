//===- Channel.cpp - ms_control's side of the control channel -------------===//
//
// Part of massif-native, under the MIT licence.
//
// The checks, in order, each with its own message: the process exists;
// it is the caller's own user's (also for root: a command writes files
// with the program's rights, and the runtime would ignore a request that
// is not its own user's anyway); the user's directory is the user's and
// closed to others; the process has a live channel (its <pid>.ctl page
// says so, and the process maps it); no other request is pending. Then the request is linked into
// place, the page's word raised, and the reply awaited; on timeout the
// request is unlinked (taken back) and the bit lowered.
//
//===----------------------------------------------------------------------===//

#include "Channel.h"

#include "ControlChannel.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

using namespace massif;
using namespace massif::control;

namespace {

std::string name(int Pid, const char *Suffix) {
  char Buf[48];
  fileName(Buf, sizeof(Buf), Pid, Suffix);
  return Buf;
}

long nowMs() {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000L + T.tv_nsec / 1000000L;
}

/// Reads the whole file Name of Dir; false when absent.
bool readFile(int Dir, const std::string &Name, std::string &Out) {
  int Fd = openat(Dir, Name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (Fd < 0)
    return false;
  char Buf[4096];
  ssize_t N;
  Out.clear();
  while ((N = read(Fd, Buf, sizeof(Buf))) > 0)
    Out.append(Buf, size_t(N));
  close(Fd);
  return true;
}

/// Whether process Pid maps Path: its runtime has the channel open (a
/// file left by a dead process whose pid was reused is mapped by nobody).
bool mapsFile(int Pid, const std::string &Path) {
  FILE *F = fopen(("/proc/" + std::to_string(Pid) + "/maps").c_str(), "r");
  if (!F)
    return false;
  char Line[4096];
  bool Found = false;
  while (!Found && fgets(Line, sizeof(Line), F)) {
    std::string L(Line);
    while (!L.empty() && L.back() == '\n')
      L.pop_back();
    Found = L.size() >= Path.size() &&
            L.compare(L.size() - Path.size(), Path.size(), Path) == 0;
  }
  fclose(F);
  return Found;
}

} // namespace

Outcome control::sendCommand(int Pid, const std::string &Command,
                             long TimeoutMs) {
  Outcome R;
  std::string P = std::to_string(Pid);
  if (Pid <= 0 || (kill(Pid, 0) != 0 && errno == ESRCH)) {
    R.Error = "no process with pid " + P;
    return R;
  }
  struct stat Proc;
  if (stat(("/proc/" + P).c_str(), &Proc) != 0) {
    R.Error = "no process with pid " + P;
    return R;
  }
  uid_t Me = getuid();
  if (Proc.st_uid != Me) {
    R.Error = "process " + P + " belongs to uid " +
              std::to_string(Proc.st_uid) + ", not to uid " +
              std::to_string(Me) +
              ": refused (only the program's own user may control it, root "
              "included: a command writes files with the program's rights)";
    return R;
  }
  char DirPath[64];
  dirPath(DirPath, sizeof(DirPath), unsigned(Me));
  std::string NotOurs = "process " + P +
                        " is not an mscc-built program with an active "
                        "massif runtime (no control channel in " +
                        std::string(DirPath) + ")";
  int Dir = open(DirPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (Dir < 0) {
    R.Error = NotOurs;
    return R;
  }
  struct stat St;
  if (fstat(Dir, &St) != 0 || St.st_uid != Me || (St.st_mode & 077) != 0) {
    R.Error = std::string(DirPath) +
              " is not a directory of this user's closed to others: refused";
    close(Dir);
    return R;
  }
  int Ctl = openat(Dir, name(Pid, ".ctl").c_str(),
                   O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  void *Page = MAP_FAILED;
  if (Ctl >= 0 && fstat(Ctl, &St) == 0 && S_ISREG(St.st_mode) &&
      St.st_uid == Me && St.st_size >= off_t(PageB))
    Page = mmap(nullptr, PageB, PROT_READ | PROT_WRITE, MAP_SHARED, Ctl, 0);
  if (Ctl >= 0)
    close(Ctl);
  auto *Head = static_cast<PageHeader *>(Page);
  if (Page == MAP_FAILED ||
      __atomic_load_n(&Head->Magic, __ATOMIC_ACQUIRE) != ControlMagic ||
      Head->Pid != Pid ||
      !mapsFile(Pid, std::string(DirPath) + "/" + name(Pid, ".ctl"))) {
    if (Page != MAP_FAILED)
      munmap(Page, PageB);
    R.Error = NotOurs;
    close(Dir);
    return R;
  }

  // The request: written aside, then linked into place (fails if another
  // request is pending).
  std::string Req = name(Pid, ".req");
  std::string Tmp = Req + "." + std::to_string(getpid());
  std::string Rep = name(Pid, ".rep");
  unlinkat(Dir, Rep.c_str(), 0); // a reply nobody collected
  int Fd = openat(Dir, Tmp.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  std::string Line = Command + "\n";
  bool Written = Fd >= 0 && write(Fd, Line.data(), Line.size()) ==
                                ssize_t(Line.size());
  if (Fd >= 0)
    close(Fd);
  int Linked = Written ? linkat(Dir, Tmp.c_str(), Dir, Req.c_str(), 0) : -1;
  int LinkErr = errno;
  unlinkat(Dir, Tmp.c_str(), 0);
  if (Linked != 0) {
    R.Error = LinkErr == EEXIST && Written
                  ? "process " + P + " has a command pending already"
                  : "cannot write the request in " + std::string(DirPath) +
                        ": " + strerror(LinkErr);
    munmap(Page, PageB);
    close(Dir);
    return R;
  }
  __atomic_fetch_or(&Head->Pending, RequestBit, __ATOMIC_ACQ_REL);

  long Deadline = nowMs() + TimeoutMs;
  bool Taken = false;
  std::string Reply;
  for (;;) {
    if (readFile(Dir, Rep, Reply)) {
      unlinkat(Dir, Rep.c_str(), 0);
      R.Answered = true;
      size_t Eol = Reply.find('\n');
      R.Status = Reply.empty() ? ReplyNotRecognised : Reply[0] - '0';
      R.Text = Eol == std::string::npos ? "" : Reply.substr(Eol + 1);
      break;
    }
    if (kill(Pid, 0) != 0 && errno == ESRCH) {
      unlinkat(Dir, Req.c_str(), 0);
      R.Error = "process " + P + " ended before it answered";
      break;
    }
    if (nowMs() >= Deadline && Taken) {
      R.Error = "process " + P + " took the command but did not answer";
      break;
    }
    if (nowMs() >= Deadline) {
      // Take the request back; if the program took it meanwhile, give it
      // a moment more to answer.
      if (unlinkat(Dir, Req.c_str(), 0) == 0) {
        __atomic_fetch_and(&Head->Pending, ~RequestBit, __ATOMIC_ACQ_REL);
        R.Error = "process " + P + " did not answer within " +
                  std::to_string(TimeoutMs) +
                  " ms; the command was cancelled (commands run when the "
                  "program next enters the allocator: malloc, free, new, "
                  "delete, ...; a program that is blocked, or never "
                  "allocates, does not answer)";
        break;
      }
      Taken = true;
      Deadline = nowMs() + 1000;
    }
    struct timespec Nap = {0, 5 * 1000 * 1000};
    nanosleep(&Nap, nullptr);
  }
  munmap(Page, PageB);
  close(Dir);
  return R;
}
