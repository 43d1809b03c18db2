//===- SymbolizeTest.cpp - Naming this test binary's addresses ------------===//
//
// Part of massif-native, under the MIT licence.
//
// Through the runtime's symbolizer: the client starts the embedded
// massif-symbolizer process on this test's own pid and asks it. The test
// binary is built with -O0 -g -gdwarf-4; an always_inline function
// still yields an inlined-subroutine entry, which the symbolizer must expand
// into a frame of its own, named by its DWARF name and placed at the call
// line inside it, followed by the enclosing function at the inlined call.
//
//===----------------------------------------------------------------------===//

#include "Symbolize.h"
#include "SymbolTable.h"
#include "SymbolizerClient.h"

#include <gtest/gtest.h>

#include <string.h>

using namespace massif;
using massif::native::processSymbolizer;
using massif::symbolizer::demangle;
using massif::symbolizer::preferName;

namespace {

__attribute__((noinline)) uintptr_t returnAddress() {
  return (uintptr_t)__builtin_return_address(0);
}

uint32_t InlinedCallLine;

__attribute__((always_inline)) inline uintptr_t inlinedHelper() {
  InlinedCallLine = __LINE__ + 1;
  return returnAddress();
}

// The line table's name for this file: bare when the sources and the build
// share no directory, else relative to the directory they share (clang's
// split, which Valgrind prints as it is).
bool isThisFile(const char *File) {
  const char *Want = "SymbolizeTest.cpp";
  size_t N = strlen(File), W = strlen(Want);
  return N >= W && strcmp(File + N - W, Want) == 0 &&
         (N == W || File[N - W - 1] == '/') && File[0] != '/';
}

uint32_t OuterLine, InnerLine;

__attribute__((always_inline)) inline uintptr_t innerHelper() {
  InnerLine = __LINE__ + 1;
  return returnAddress();
}

__attribute__((always_inline)) inline uintptr_t outerHelper() {
  OuterLine = __LINE__ + 1;
  return innerHelper();
}

uint32_t describe(uintptr_t Pc, FrameInfo *Out, uint32_t Max) {
  const Symbolizer &S = processSymbolizer();
  return S.Describe(S.Ctx, Pc, Out, Max);
}

TEST(SymbolizeTest, CallSiteGivesFunctionFileAndLine) {
  uint32_t Line = __LINE__ + 1;
  uintptr_t Ret = returnAddress();
  FrameInfo F[8];
  uint32_t N = describe(Ret - 1, F, 8);
  ASSERT_EQ(N, 1u);
  ASSERT_NE(F[0].Function, nullptr);
  EXPECT_STREQ(F[0].Function,
               "(anonymous namespace)::SymbolizeTest_"
               "CallSiteGivesFunctionFileAndLine_Test::TestBody()");
  ASSERT_NE(F[0].File, nullptr);
  EXPECT_TRUE(isThisFile(F[0].File)) << F[0].File;
  EXPECT_EQ(F[0].Line, Line);
  ASSERT_NE(F[0].Object, nullptr);
  EXPECT_NE(strstr(F[0].Object, "native-unit-tests"), nullptr) << F[0].Object;
}

TEST(SymbolizeTest, InlinedCallGivesOneFramePerLevel) {
  uint32_t Line = __LINE__ + 1;
  uintptr_t Ret = inlinedHelper();
  FrameInfo F[8];
  uint32_t N = describe(Ret - 1, F, 8);
  ASSERT_EQ(N, 2u);
  ASSERT_NE(F[0].Function, nullptr);
  EXPECT_STREQ(F[0].Function, "inlinedHelper");
  EXPECT_EQ(F[0].Line, InlinedCallLine);
  EXPECT_STREQ(F[1].Function,
               "(anonymous namespace)::SymbolizeTest_"
               "InlinedCallGivesOneFramePerLevel_Test::TestBody()");
  EXPECT_TRUE(isThisFile(F[1].File)) << F[1].File;
  EXPECT_EQ(F[1].Line, Line);
  // Max cuts inner levels but always keeps the out-of-line function.
  FrameInfo One;
  ASSERT_EQ(describe(Ret - 1, &One, 1), 1u);
  EXPECT_STREQ(One.Function, F[1].Function);
}

TEST(SymbolizeTest, NestedInlinedCallsGiveTheWholeChain) {
  uint32_t Line = __LINE__ + 1;
  uintptr_t Ret = outerHelper();
  FrameInfo F[8];
  uint32_t N = describe(Ret - 1, F, 8);
  ASSERT_EQ(N, 3u);
  EXPECT_STREQ(F[0].Function, "innerHelper");
  EXPECT_EQ(F[0].Line, InnerLine);
  EXPECT_STREQ(F[1].Function, "outerHelper");
  EXPECT_EQ(F[1].Line, OuterLine);
  EXPECT_STREQ(F[2].Function,
               "(anonymous namespace)::SymbolizeTest_"
               "NestedInlinedCallsGiveTheWholeChain_Test::TestBody()");
  EXPECT_EQ(F[2].Line, Line);
}

TEST(SymbolizeTest, CachedAnswersAreStable) {
  uintptr_t Ret = returnAddress();
  FrameInfo A, B;
  describe(Ret - 1, &A, 1);
  describe(Ret - 1, &B, 1);
  EXPECT_EQ(A.Function, B.Function);
  EXPECT_EQ(A.Line, B.Line);
}

TEST(SymbolizeTest, LibraryFunctionsAreNamedByTheirPreferredSymbol) {
  // strndup's ELF aliases include __strndup; Valgrind shows the shorter.
  FrameInfo F[8];
  uint32_t N = describe((uintptr_t)&strndup + 1, F, 8);
  ASSERT_GE(N, 1u);
  ASSERT_NE(F[N - 1].Function, nullptr);
  EXPECT_STREQ(F[N - 1].Function, "strndup");
  ASSERT_NE(F[N - 1].Object, nullptr);
  EXPECT_NE(strstr(F[N - 1].Object, "libc.so"), nullptr);
}

} // namespace

// An assembler label: no type, no size. Valgrind names no code by such a
// symbol (ld.so's _dl_start_user prints as "???"), and neither do we.
extern "C" char massifTestLabel[];
asm(".text\n"
    ".globl massifTestLabel\n"
    "massifTestLabel:\n"
    "  nop\n"
    "  nop\n"
    "  ret\n");

namespace {

TEST(SymbolizeTest, UntypedLabelsAreNotNames) {
  FrameInfo F[2];
  ASSERT_EQ(describe((uintptr_t)massifTestLabel + 1, F, 2), 1u);
  EXPECT_EQ(F[0].Function, nullptr);
  ASSERT_NE(F[0].Object, nullptr);
  EXPECT_NE(strstr(F[0].Object, "native-unit-tests"), nullptr);
}

TEST(SymbolizeTest, AliasesArePreferredAsValgrindDoes) {
  // Shorter without the version suffix first, then versioned, then
  // alphabetical.
  EXPECT_TRUE(preferName("strndup", "__strndup"));
  EXPECT_FALSE(preferName("__strndup", "strndup"));
  EXPECT_TRUE(preferName("__libc_start_main@@GLIBC_2.34",
                         "__libc_start_main_impl"));
  EXPECT_TRUE(preferName("__libc_start_main@@GLIBC_2.34",
                         "__libc_start_main"));
  EXPECT_TRUE(preferName("__libc_start_main@@GLIBC_2.34",
                         "__libc_start_main@GLIBC_2.2.5"));
  EXPECT_TRUE(preferName("_IO_file_xsputn@@GLIBC_2.2.5",
                         "_IO_new_file_xsputn"));
  EXPECT_TRUE(preferName("bcmp", "memcmp"));
}

TEST(SymbolizeTest, UnmappedAddressIsUnknown) {
  FrameInfo F[2];
  ASSERT_EQ(describe(0x10, F, 2), 1u);
  EXPECT_EQ(F[0].Function, nullptr);
  EXPECT_EQ(F[0].File, nullptr);
  EXPECT_EQ(F[0].Object, nullptr);
}

TEST(SymbolizeTest, DemanglesItaniumNamesAndKeepsVersions) {
  EXPECT_STREQ(demangle("_Znwm"), "operator new(unsigned long)");
  EXPECT_STREQ(demangle("_ZnwmRKSt9nothrow_t"),
               "operator new(unsigned long, std::nothrow_t const&)");
  EXPECT_STREQ(demangle("main"), "main");
  EXPECT_STREQ(demangle("_ZNSt8ios_base4InitC1Ev@@GLIBCXX_3.4"),
               "std::ios_base::Init::Init()@@GLIBCXX_3.4");
  EXPECT_STREQ(demangle("_Znot_mangled"), "_Znot_mangled");
}

} // namespace
