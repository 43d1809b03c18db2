//===- main.cpp - ms_memusage: glibc's memusage(1) for any program --------===//
//
// Part of massif-native, under the MIT licence.
//
// Runs the program with libmsmemusage.so preloaded and memusage's
// environment (MEMUSAGE_OUTPUT, MEMUSAGE_PROG_NAME, MEMUSAGE_BUFFER_SIZE,
// MEMUSAGE_NO_TIMER, MEMUSAGE_TRACE_MMAP), as memusage's script does; the
// library writes the summary when the program exits. With -p or --svg the
// picture is drawn afterwards from the data file (a temporary one when -d
// is not given), if the run wrote one. The exit status is the program's,
// or 128 plus the signal that ended it, as from the shell. The picture is
// drawn by a process of its own (GraphMain.cpp), as memusage's by
// memusagestat, so that the launcher does not load libgd.
//
// Unlike the script, nothing is started when it cannot finish: the
// program must exist and be executable, and the data and picture files
// writable, before it runs.
//
//===----------------------------------------------------------------------===//

#include "Graph.h"
#include "Options.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace massif::memusage;

namespace {

constexpr const char *Tool = "ms_memusage";

/// The temporary data file, removed on the way out, signals included.
char TempData[PATH_MAX];

void removeTempAndExit(int) {
  if (TempData[0])
    unlink(TempData);
  _exit(1);
}

/// A file of this installation's private folder, <prefix>/lib/massif-native
/// beside <prefix>/bin.
std::string privateFile(const char *Name) {
  char Self[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (N <= 0)
    return "";
  Self[N] = 0;
  std::string Dir = Self;
  Dir.erase(Dir.rfind('/'));     // bin
  Dir.erase(Dir.rfind('/') + 1); // prefix/
  return Dir + "lib/massif-native/" + Name;
}

/// Waits for Child; its status as the shell gives it.
int waitFor(pid_t Child) {
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(Status))
    return 128 + WTERMSIG(Status);
  return WEXITSTATUS(Status);
}

/// Draws the picture with ms_memusage-graph (GraphMain.cpp), as memusage
/// draws with memusagestat. Whether it was drawn.
bool drawPicture(const std::string &DataFile, const GraphOptions &G,
                 const std::string &Png, const std::string &Svg) {
  std::string Graph = privateFile("ms_memusage-graph");
  std::vector<std::string> Args = {Graph};
  if (G.TimeBased)
    Args.push_back("-t");
  if (G.Total)
    Args.push_back("-T");
  if (G.HasTitle)
    Args.insert(Args.end(), {"-s", G.Title});
  Args.insert(Args.end(), {"-x", std::to_string(G.XSize), "-y",
                           std::to_string(G.YSize)});
  if (!Png.empty())
    Args.insert(Args.end(), {"--png", Png});
  if (!Svg.empty())
    Args.insert(Args.end(), {"--svg", Svg});
  Args.push_back(DataFile);
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(&A[0]);
  Argv.push_back(nullptr);
  pid_t Child = fork();
  if (Child < 0)
    return false;
  if (Child == 0) {
    execv(Graph.c_str(), Argv.data());
    fprintf(stderr, "%s: cannot run %s: %s\n", Tool, Graph.c_str(),
            strerror(errno));
    _exit(1);
  }
  return waitFor(Child) == 0;
}

/// Finds the program as the shell would; on failure says why, with the
/// shell's exit status for it (127: not found, 126: not executable).
bool findProgram(const std::string &Name, std::string &Path, int &Status) {
  struct stat St;
  auto Exists = [&](const std::string &P) {
    Path = P;
    return stat(P.c_str(), &St) == 0;
  };
  bool Found = false;
  if (Name.find('/') != std::string::npos) {
    Found = Exists(Name);
  } else if (!Name.empty()) {
    const char *Env = getenv("PATH");
    std::string Dirs = Env ? Env : "/usr/local/bin:/usr/bin:/bin";
    for (size_t Start = 0; !Found && Start <= Dirs.size();) {
      size_t End = std::min(Dirs.find(':', Start), Dirs.size());
      std::string Dir = Dirs.substr(Start, End - Start);
      Found = Exists((Dir.empty() ? "." : Dir) + "/" + Name);
      Start = End + 1;
    }
  }
  const char *Why = nullptr;
  if (!Found)
    Why = Name.find('/') != std::string::npos ? strerror(errno) // stat's
                                              : "command not found";
  else if (S_ISDIR(St.st_mode))
    Why = "Is a directory";
  else if (access(Path.c_str(), X_OK) != 0)
    Why = strerror(errno);
  if (!Why)
    return true;
  fprintf(stderr, "%s: %s: %s\n", Tool, Name.c_str(), Why);
  Status = Found ? 126 : 127;
  return false;
}

/// Whether Path can be written, creating it if need be; Created says so.
bool checkWritable(const char *What, const std::string &Path, bool &Created) {
  Created = access(Path.c_str(), F_OK) != 0;
  int Fd = open(Path.c_str(), O_WRONLY | O_CREAT, 0666);
  if (Fd < 0) {
    fprintf(stderr, "%s: cannot write the %s '%s': %s\n", Tool, What,
            Path.c_str(), strerror(errno));
    return false;
  }
  close(Fd);
  return true;
}

/// Runs the program; its exit status as the shell gives it.
int runProgram(const RunOptions &O, const std::string &Path,
               const std::string &DataFile) {
  pid_t Child = fork();
  if (Child < 0) {
    fprintf(stderr, "%s: cannot start the program: %s\n", Tool,
            strerror(errno));
    return 1;
  }
  if (Child == 0) {
    signal(SIGHUP, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    setenv("LD_PRELOAD", privateFile("libmsmemusage.so").c_str(), 1);
    if (!DataFile.empty())
      setenv("MEMUSAGE_OUTPUT", DataFile.c_str(), 1);
    if (!O.ProgName.empty())
      setenv("MEMUSAGE_PROG_NAME", O.ProgName.c_str(), 1);
    if (!O.Buffer.empty())
      setenv("MEMUSAGE_BUFFER_SIZE", O.Buffer.c_str(), 1);
    if (O.NoTimer)
      setenv("MEMUSAGE_NO_TIMER", "yes", 1);
    if (O.TraceMmap)
      setenv("MEMUSAGE_TRACE_MMAP", "yes", 1);
    std::vector<char *> Args;
    for (const std::string &A : O.Program)
      Args.push_back(const_cast<char *>(A.c_str()));
    Args.push_back(nullptr);
    execv(Path.c_str(), Args.data());
    fprintf(stderr, "%s: %s: %s\n", Tool, O.Program[0].c_str(),
            strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  return waitFor(Child);
}

} // namespace

int main(int Argc, char **Argv) {
  RunOptions O;
  int Status = 0;
  if (parseCommandLine(Argc, Argv, O, Status) == Parsed::Exit)
    return Status;

  std::string Path;
  if (!findProgram(O.Program[0], Path, Status))
    return Status;

  // memusage's script names the picture <FILE>.png unless it ends so.
  std::string Png = O.Png;
  if (!Png.empty() && (Png.size() < 4 || Png.compare(Png.size() - 4, 4, ".png")))
    Png += ".png";
  bool Drawing = !Png.empty() || !O.Svg.empty();
  bool PngCreated = false, SvgCreated = false, DataCreated = false;
  if ((!O.Data.empty() && !checkWritable("data file", O.Data, DataCreated)) ||
      (!Png.empty() && !checkWritable("PNG file", Png, PngCreated)) ||
      (!O.Svg.empty() && !checkWritable("SVG file", O.Svg, SvgCreated))) {
    if (DataCreated)
      unlink(O.Data.c_str());
    if (PngCreated)
      unlink(Png.c_str());
    return 1;
  }

  std::string DataFile = O.Data;
  if (DataFile.empty() && Drawing) {
    const char *Dir = getenv("TMPDIR");
    snprintf(TempData, sizeof(TempData), "%s/memusage.XXXXXX",
             Dir && *Dir ? Dir : "/tmp");
    int Fd = mkstemp(TempData);
    if (Fd < 0) {
      fprintf(stderr, "%s: cannot create a temporary data file in %s: %s\n",
              Tool, Dir && *Dir ? Dir : "/tmp", strerror(errno));
      TempData[0] = 0;
      return 1;
    }
    close(Fd);
    DataFile = TempData;
    for (int Sig : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE})
      signal(Sig, removeTempAndExit);
  }

  Status = runProgram(O, Path, DataFile);

  struct stat St;
  bool HaveData = !DataFile.empty() && stat(DataFile.c_str(), &St) == 0 &&
                  St.st_size > 0;
  if (Drawing && HaveData) {
    drawPicture(DataFile, O.Graph, Png, O.Svg); // it says what went wrong
  } else {
    // Nothing to draw from: no picture, as memusage leaves none.
    if (PngCreated)
      unlink(Png.c_str());
    if (SvgCreated)
      unlink(O.Svg.c_str());
  }
  if (TempData[0])
    unlink(TempData);
  return Status;
}
