// Linking an instrumented program without the runtime fails, naming the ABI
// version symbol; a stand-in that defines the symbol satisfies the linker.
// The stand-in is built without the plugin, which would refuse it.
//
// RUN: %clang -O2 -fpass-plugin=%plugin -c %s -o %t.o
// RUN: not %clang %t.o -o %t 2>&1 | %FileCheck %s --check-prefix=MISSING
// RUN: %clang -DSTAND_IN -c %s -o %t.stand-in.o
// RUN: %clang %t.o %t.stand-in.o -o %t
// RUN: %t
//
// bfd and gold quote the name differently, lld says "symbol".
// MISSING: {{undefined (reference to .|symbol: )}}__massif_abi_version_1

#ifdef STAND_IN
const int __massif_abi_version_1 = 1;
#else
int main(void) { return 0; }
#endif
