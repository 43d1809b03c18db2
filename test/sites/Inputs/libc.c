// glibc as a library that allocates, for compare_heaptrack.py: regular
// expressions compiled and freed, lines read with getline, strings from
// strdup and asprintf, a stream opened and closed, a search tree.
#define _GNU_SOURCE
#include <regex.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare(const void *A, const void *B) {
  return strcmp((const char *)A, (const char *)B);
}

__attribute__((noinline)) int patterns(int N) {
  int Matches = 0;
  for (int I = 0; I < N; ++I) {
    regex_t R;
    if (regcomp(&R, "^a[b-d]+(x|y)*$", REG_EXTENDED) != 0)
      return -1;
    Matches += regexec(&R, "abcbdxyx", 0, NULL, 0) == 0;
    regfree(&R);
  }
  return Matches;
}

__attribute__((noinline)) size_t lines(const char *Text) {
  FILE *F = fmemopen((void *)Text, strlen(Text), "r");
  char *Line = NULL;
  size_t Cap = 0, Total = 0;
  ssize_t N;
  while ((N = getline(&Line, &Cap, F)) > 0)
    Total += (size_t)N;
  free(Line);
  fclose(F);
  return Total;
}

__attribute__((noinline)) void *words(int N) {
  void *Root = NULL;
  for (int I = 0; I < N; ++I) {
    char *W;
    if (asprintf(&W, "word-%d", I % 40) < 0)
      return NULL;
    char **Found = tsearch(W, &Root, compare);
    if (*Found != W)
      free(W);
  }
  return Root;
}

int main(void) {
  int M = patterns(10);
  size_t L = lines("one\ntwo lines\nthree lines here\n");
  void *Tree = words(200);
  char *Copy = strdup("kept to the end");
  printf("%d %zu %p %s\n", M, L, Tree != NULL ? (void *)1 : NULL, Copy);
  return 0;
}
