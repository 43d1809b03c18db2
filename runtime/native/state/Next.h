//===- Next.h - The libc functions the runtime stands in for ----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime defines functions of libc's (the malloc family, the exits,
// the exec family, signal functions, pthread_create, dlclose) and calls
// libc's own in turn. In a dynamically linked program the executable's
// definitions come first in every lookup and libc's are the next ones
// (dlsym's RTLD_NEXT). A statically linked program cannot hold two
// definitions of one name: `mscc -static` links the runtime built with
// MASSIF_STATIC_LINK and passes --wrap=NAME for each (driver/mscc.in), which
// sends every call of NAME, libc's own included, to __wrap_NAME, the
// runtime's, and lets the runtime reach libc's as __real_NAME.
//
//   MASSIF_STANDS_IN_FOR(malloc)   the runtime's definition's name
//   MASSIF_DECLARE_NEXT(malloc);   declares libc's (static links only)
//   MASSIF_RESOLVE_NEXT(F, malloc) sets F to libc's, once
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_NEXT_H
#define MASSIF_NATIVE_NEXT_H

#ifndef MASSIF_STATIC_LINK
#define MASSIF_STATIC_LINK 0
#endif

#define MASSIF_STRINGIFY_(X) #X
#define MASSIF_STRINGIFY(X) MASSIF_STRINGIFY_(X)

#if MASSIF_STATIC_LINK
#define MASSIF_STANDS_IN_FOR(Name) __wrap_##Name
#define MASSIF_DECLARE_NEXT(Name) extern "C" decltype(::Name) __real_##Name
#define MASSIF_STATIC_NEXT(Name) (&__real_##Name)
#else
#define MASSIF_STANDS_IN_FOR(Name) Name
#define MASSIF_DECLARE_NEXT(Name) static_assert(true, "")
#define MASSIF_STATIC_NEXT(Name) ((decltype(&::Name))nullptr)
#endif

#define MASSIF_RESOLVE_NEXT(Fn, Name)                                          \
  massif::native::resolveNext(Fn, #Name, MASSIF_STATIC_NEXT(Name))

namespace massif {
namespace native {

/// The next definition of Name after the executable's (dlsym RTLD_NEXT,
/// with the runtime's guard set: dlsym may allocate), or null.
void *nextDefinition(const char *Name);

/// Sets Fn, once, to libc's Name: Static in a statically linked program,
/// else the next definition.
template <typename FnT, typename StaticT>
void resolveNext(FnT &Fn, const char *Name, StaticT Static) {
  if (__atomic_load_n(&Fn, __ATOMIC_ACQUIRE))
    return;
  FnT F = Static ? (FnT)Static : (FnT)nextDefinition(Name);
  __atomic_store_n(&Fn, F, __ATOMIC_RELEASE);
}

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_NEXT_H
