#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  char *p = malloc(argc > 1 ? 3000 : 10);
  strcpy(p, "x");
  free(p);
  return 0;
}
