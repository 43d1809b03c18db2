/* Allocates nothing: every snapshot is empty and every total is zero. */
int main(void) {
  volatile int x = 0;
  for (int i = 0; i < 1000; i++)
    x += i;
  return 0;
}
