/* Forty call sites of very different sizes under one caller: wide trees,
   and many entries below both Massif's and ms_print's thresholds. */
#include <stdlib.h>

#define SITE(k)                                                                \
  __attribute__((noinline)) static void *site##k(void) {                       \
    return malloc((size_t)(k) * (k) * 37 + 8);                                 \
  }
SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7) SITE(8) SITE(9)
SITE(10) SITE(11) SITE(12) SITE(13) SITE(14) SITE(15) SITE(16) SITE(17)
SITE(18) SITE(19) SITE(20) SITE(21) SITE(22) SITE(23) SITE(24) SITE(25)
SITE(26) SITE(27) SITE(28) SITE(29) SITE(30) SITE(31) SITE(32) SITE(33)
SITE(34) SITE(35) SITE(36) SITE(37) SITE(38) SITE(39) SITE(40)

static void *(*const sites[])(void) = {
    site1,  site2,  site3,  site4,  site5,  site6,  site7,  site8,
    site9,  site10, site11, site12, site13, site14, site15, site16,
    site17, site18, site19, site20, site21, site22, site23, site24,
    site25, site26, site27, site28, site29, site30, site31, site32,
    site33, site34, site35, site36, site37, site38, site39, site40};

int main(void) {
  void *blocks[40 * 3];
  int i, n = 0, round;
  for (round = 0; round < 3; round++)
    for (i = 0; i < 40; i++)
      blocks[n++] = sites[(i * 7 + round) % 40]();
  for (i = 0; i < n; i += 3)
    free(blocks[i]);
  for (i = 1; i < n; i += 3)
    free(blocks[i]);
  return 0;
}
