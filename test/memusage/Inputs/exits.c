// Leaves by exit() from an atexit handler's world: stderr made fully
// buffered with text still in it, a locale loaded, a child process that
// allocates and exits too (each process writes its own summary; the parent
// waits, so the child's comes first), and a status of its own.
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char ErrBuffer[8192];
static void *volatile Sink;

static void goodbye(void) {
  Sink = malloc(77);
  fputs("atexit handler ran\n", stderr);
}

int main(void) {
  setlocale(LC_ALL, "C.UTF-8");
  // One child at a time: children share the data file's descriptor (and
  // its offset) with the parent, so their writes must not interleave.
  int Status;
  pid_t Child = fork();
  if (Child == 0) {
    Sink = calloc(3, 1000);
    _exit(0); // no summary: memusage's is written by exit's destructors
  }
  waitpid(Child, &Status, 0);
  pid_t Second = fork();
  if (Second == 0) {
    Sink = malloc(4242);
    exit(5);
  }
  waitpid(Second, &Status, 0);
  setvbuf(stderr, ErrBuffer, _IOFBF, sizeof(ErrBuffer));
  atexit(goodbye);
  fprintf(stderr, "child status %d\n", WEXITSTATUS(Status));
  char *Text = strdup("still buffered when main returns");
  Sink = Text;
  fputs(Text, stderr);
  fputc('\n', stderr);
  exit(3);
}
