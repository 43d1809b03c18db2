/*===- Launch.c - Valgrind's launcher, for the tool ------------------------===
 *
 * Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
 * later (see LICENSE in this folder).
 *
 * msrun --engine=vex starts the tool through this launcher, which does what
 * Valgrind's launcher does for an amd64 program (names itself in
 * VALGRIND_LAUNCHER, at the end of the environment, and runs the tool with
 * the same arguments) but runs the tool beside it, in the tool's folder,
 * without VALGRIND_LIB: Valgrind's core then takes its other files from the
 * system Valgrind's folder and, with --tool=massif, preloads the system's
 * vgpreload_massif, whose code is the tool's own preload's. The program so
 * starts exactly as under Valgrind's Massif: same environment, same
 * preloaded paths, same stack. Where the system's valgrind command is a
 * wrapper script (Debian's sets LD_LIBRARY_PATH and GLIBCXX_FORCE_NEW), the
 * folder's "valgrind" links to it and this file is its "valgrind.bin", so
 * the wrapper's environment is the program's too.
 *
 *===----------------------------------------------------------------------===*/

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  (void)argc;
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    fprintf(stderr, "msrun: cannot find the Valgrind tool: %s\n",
            strerror(errno));
    return 1;
  }
  self[n] = 0;
  char *slash = strrchr(self, '/');
  *slash = 0;
  char tool[PATH_MAX + 32];
  snprintf(tool, sizeof(tool), "%s/msvex-amd64-linux", self);
  /* The core re-runs this path for --trace-children=yes: the system's. */
  setenv("VALGRIND_LAUNCHER", MASSIF_VALGRIND_LAUNCHER, 1);
  execv(tool, argv);
  fprintf(stderr, "msrun: cannot run the Valgrind tool %s: %s\n", tool,
          strerror(errno));
  return 126;
}
