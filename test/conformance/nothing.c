// A program that allocates nothing: just the start-up snapshot.
// RUN: %conform %s %t.b -- --time-unit=B
// RUN: %conform %s %t.d -- --time-unit=B --detailed-freq=1
int main(void) { return 7; }
