//===- RuntimeText.h - The runtime's code, in a section of its own -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Force-included into every file of the native runtime (CMakeLists.txt):
// its functions go to the section massif_rt_text, which the linker keeps
// together, after .text, and bounds with __start_massif_rt_text and
// __stop_massif_rt_text. A stack captured through one of the runtime's
// interposers that calls on into glibc (the DTV that glibc's pthread_create
// allocates, under the runtime's pthread_create) holds the runtime's frame;
// Massif's would hold glibc's function called from the program's. The
// unwinder drops every frame in that range (isRuntimeCode, Unwind.h).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_RUNTIMETEXT_H
#define MASSIF_NATIVE_RUNTIMETEXT_H

#pragma clang section text = "massif_rt_text"

#endif // MASSIF_NATIVE_RUNTIMETEXT_H
