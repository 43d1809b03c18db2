// A plugin loaded with dlopen allocates, is closed with dlclose, and only
// then is the profile written: its frames still have their names. Valgrind
// forgets the code of unloaded objects (it prints "???" for them, even with
// --keep-debuginfo=yes), so the comparison reads the plugin's frames as
// Valgrind would print them; FileCheck checks the names. glibc's freeres at
// exit frees the loader's scope arrays, which would take the closed
// plugin's names out of the last snapshot: it is turned off on both sides.
// RUN: %stacks --plugin='Inputs/plugin.c:plugin:clang:-g -gdwarf-4' --unknown='plugin\.c:' %s %t -- --time-unit=B --detailed-freq=1 --threshold=5 --run-libc-freeres=no
// RUN: %FileCheck %s < %t/native-last.txt
// The plugin instrumented (mscc -shared): frame pointers in it too.
// RUN: %stacks --plugin='Inputs/plugin.c:plugin:mscc:' --unknown='plugin\.c:' %s %t.m -- --time-unit=B --detailed-freq=1 --threshold=5 --run-libc-freeres=no
// RUN: %FileCheck %s < %t.m/native-last.txt
#include <dlfcn.h>
#include <stdio.h>

int main(void) {
  // Not linked: libplugin.so sits next to the program.
  void *H = dlopen("./libplugin.so", RTLD_NOW);
  if (!H) {
    puts(dlerror());
    return 1;
  }
  void (*Run)(int) = (void (*)(int))dlsym(H, "plugin_run");
  Run(3);
  dlclose(H);
  // Another object may now load where the plugin was.
  void *Again = dlopen("./libplugin.so", RTLD_NOW);
  if (Again)
    dlclose(Again);
  return 0;
}

// The last snapshot, taken at exit after dlclose:
// CHECK:      plugin_keep ({{.*}}plugin.c:9)
// CHECK-NEXT: plugin_run ({{.*}}plugin.c:14)
// CHECK-NEXT: main ({{.*}}dlclose.c:24)
