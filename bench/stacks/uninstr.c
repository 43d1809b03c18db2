/* Part of massif-native, under the MIT licence.
   A library built by gcc -O2 without frame pointers: Depth levels of its
   own frames (two per level: descend and a static helper gcc keeps out of
   line) before calling back into the program. */
__attribute__((noinline)) static void uninstr_step(int Depth,
                                                   void (*Callback)(void));

volatile int uninstr_sink;

void uninstr_descend(int Depth, void (*Callback)(void)) {
  uninstr_step(Depth, Callback);
  uninstr_sink++;
}

__attribute__((noinline)) static void uninstr_step(int Depth,
                                                   void (*Callback)(void)) {
  if (Depth <= 1)
    Callback();
  else
    uninstr_descend(Depth - 1, Callback);
  uninstr_sink++;
}
