// A small function in its own file: -flto inlines it into lto-main.c's
// recursion after the pass has probed it (see lto-main.c).
int helper(int X) { return X * 3 + 1; }
