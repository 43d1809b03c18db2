//===- Output.cpp - The massif.out file -----------------------------------===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// The name is expanded by Valgrind (%p, %q{VAR}, %n) at the end, so a
// forked child writes its own file; the file is opened as Massif opens it
// (mode 0644, truncated) and the model writes the text through a buffer.
//
//===----------------------------------------------------------------------===//

#include "Tool.h"

#include "massif/format.h"

using namespace massif;
using namespace massif::vex;

namespace {

struct FileSink {
  Int Fd;
  bool Failed;
  UInt Used;
  char Buf[1 << 16];

  bool flush() {
    UInt Done = 0;
    while (!Failed && Done < Used) {
      Int N = VG_(write)(Fd, Buf + Done, (Int)(Used - Done));
      if (N <= 0)
        Failed = true;
      else
        Done += (UInt)N;
    }
    Used = 0;
    return !Failed;
  }
};

FileSink TheSink;

bool writeBuffered(void *Ctx, const char *Data, size_t Len) {
  FileSink &F = *static_cast<FileSink *>(Ctx);
  while (Len && !F.Failed) {
    if (F.Used == sizeof(F.Buf))
      F.flush();
    size_t Room = sizeof(F.Buf) - F.Used;
    size_t N = Len < Room ? Len : Room;
    VG_(memcpy)(F.Buf + F.Used, Data, N);
    F.Used += (UInt)N;
    Data += N;
    Len -= N;
  }
  return !F.Failed;
}

} // namespace

const char **vex::clientArgv(UInt &Argc) {
  // The profile's cmd: line is the client's command as Valgrind has it.
  XArray *Args = VG_(args_for_client);
  Argc = 1 + (UInt)VG_(sizeXA)(Args);
  const char **Argv =
      (const char **)VG_(malloc)("msvex.argv", Argc * sizeof(char *));
  Argv[0] = VG_(args_the_exename);
  for (UInt I = 1; I < Argc; ++I)
    Argv[I] = *(const char **)VG_(indexXA)(Args, I - 1);
  return Argv;
}

Sink vex::openFileSink(Int Fd) {
  TheSink.Fd = Fd;
  TheSink.Failed = false;
  TheSink.Used = 0;
  return Sink{writeBuffered, &TheSink};
}

bool vex::flushFileSink() { return TheSink.flush(); }

bool vex::writeXtreeReport(const HChar *Path, bool Announce) {
  State &S = state();
  if (!S.Ready)
    return false;
  Int Fd = VG_(fd_open)(Path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                        VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
  bool Ok = false;
  if (Fd < 0) {
    VG_(umsg)("Error: can not open xtree output file `%s'\n", Path);
  } else {
    UInt Argc;
    const char **Argv = clientArgv(Argc);
    Ok = S.Prof.writeXtree(openFileSink(Fd), RunInfo{Argv, Argc},
                           xtreeNameIsMassifFormat(Path),
                           VG_(getpid)(), VG_(read_millisecond_timer)());
    Ok = flushFileSink() && Ok;
    VG_(close)(Fd);
    VG_(free)(Argv);
  }
  // Valgrind names the report also when its file could not be opened.
  if (Announce)
    VG_(umsg)("xtree memory report: %s\n", Path);
  return Ok;
}

void vex::writeProfile() {
  State &S = state();
  if (!S.Ready)
    return;
  // Valgrind writes the xtree report first (its %n comes first).
  if (S.Opts.XtreeMemory != XtreeMode::None) {
    HChar *XtPath =
        VG_(expand_file_name)("--xtree-memory-file", S.Opts.XtreeMemoryFile);
    writeXtreeReport(XtPath, VG_(clo_verbosity) >= 1);
    VG_(free)(XtPath);
  }
  HChar *Path = VG_(expand_file_name)("--massif-out-file", S.Opts.OutFile);
  Int Fd = VG_(fd_open)(Path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                        VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
  if (Fd < 0) {
    VG_(umsg)("Error: can not open xtree output file `%s'\n", Path);
    VG_(free)(Path);
    return;
  }
  UInt Argc;
  const char **Argv = clientArgv(Argc);
  bool Ok = S.Prof.write(openFileSink(Fd), RunInfo{Argv, Argc});
  Ok = flushFileSink() && Ok;
  VG_(close)(Fd);
  if (!Ok)
    VG_(umsg)("error: could not write the whole output file '%s'\n", Path);
  // Beside a massif.out file (not a device or a pipe), its site
  // statistics, as the native runtime writes them.
  struct vg_stat St;
  HChar SitesPath[4200];
  if (Ok && !sr_isError(VG_(stat)(Path, &St)) && VKI_S_ISREG(St.mode) &&
      format::sitesPathOf(Path, SitesPath, sizeof(SitesPath))) {
    Int SitesFd =
        VG_(fd_open)(SitesPath, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                     VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
    if (SitesFd < 0) {
      VG_(umsg)("error: cannot open output file '%s'\n", SitesPath);
      // An older run's statistics must not pass for this profile's.
      VG_(unlink)(SitesPath);
    } else {
      bool SitesOk = S.Prof.writeSites(openFileSink(SitesFd), RunInfo{Argv, Argc});
      SitesOk = flushFileSink() && SitesOk;
      VG_(close)(SitesFd);
      if (!SitesOk)
        VG_(umsg)("error: could not write the whole output file '%s'\n",
                  SitesPath);
    }
  }
  VG_(free)(Argv);
  VG_(free)(Path);
}
