//===- Options.cpp - Massif's options: parsing, help, printing ------------===//
//
// Part of massif-native, under the MIT licence.
//
// Every option row of Options.def becomes one matcher here, so the parser,
// the help text and the documentation cannot disagree. Values follow
// Valgrind's own rules (m_options.h): booleans are exactly yes/no; integers
// are decimal with an optional sign and leading blanks, nothing may follow,
// an empty value is 0 and then range-checked; decimals use Valgrind's own
// parser (digits accumulated in a double, fraction digits weighted 0.1,
// 0.01, ... by repeated division; no exponent). Error text is Massif's
// reason, completed with what the option accepts when the reason does not
// already say so. Valgrind's core options (MASSIF_CORE_* rows: -q and -v
// counted into Verbosity as Valgrind counts them) and msrun's two internal
// words (--msrun-pid, --msrun-path) are parsed here too; none of them is
// listed in desc:, as in Massif's file.
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "TextWriter.h"
#include "Memory.h"

#include <string.h>

namespace massif {
namespace {

bool isValgrindSpace(char C) {
  return C == ' ' || C == '\n' || C == '\t' || C == '\v' || C == '\f' ||
         C == '\r';
}

/// Valgrind's VG_(strtoll10): leading blanks, optional sign, decimal
/// digits. End points at the first unconverted character (at S itself when
/// no digit was converted).
int64_t parseValgrindInt(const char *S, const char *&End) {
  const char *P = S;
  while (isValgrindSpace(*P))
    ++P;
  bool Neg = false;
  if (*P == '-') {
    Neg = true;
    ++P;
  } else if (*P == '+') {
    ++P;
  }
  bool Converted = false;
  uint64_t N = 0; // wraps like Valgrind's Long on overflow
  while (*P >= '0' && *P <= '9') {
    N = N * 10 + uint64_t(*P - '0');
    Converted = true;
    ++P;
  }
  End = Converted ? P : S;
  return int64_t(Neg ? 0 - N : N);
}

/// Valgrind's VG_(strtod). See §6.3 of the spec: no exponent, fraction
/// digits weighted by a repeatedly divided x = 0.1.
double parseValgrindDouble(const char *S, const char *&End) {
  const char *P = S;
  while (isValgrindSpace(*P))
    ++P;
  bool Neg = false;
  if (*P == '-') {
    Neg = true;
    ++P;
  } else if (*P == '+') {
    ++P;
  }
  double N = 0, Frac = 0, X = 0.1;
  while (*P >= '0' && *P <= '9') {
    N = 10 * N + (*P - '0');
    ++P;
  }
  if (*P == '.') {
    ++P;
    while (*P >= '0' && *P <= '9') {
      Frac += X * (*P - '0');
      X /= 10;
      ++P;
    }
  }
  N += Frac;
  End = P;
  return Neg ? -N : N;
}

/// The value part of Arg if Arg is "--<Name>=...", else nullptr.
const char *valueOf(const char *Arg, const char *Name) {
  if (Arg[0] != '-' || Arg[1] != '-')
    return nullptr;
  size_t N = strlen(Name);
  if (strncmp(Arg + 2, Name, N) != 0 || Arg[2 + N] != '=')
    return nullptr;
  return Arg + 3 + N;
}

/// Starts an error: "Bad option: <Arg>" and a newline.
FixedText badOption(OptionError &E, const char *Arg) {
  FixedText T(E.Text, sizeof(E.Text));
  T.add("Bad option: ").add(Arg).add("\n");
  return T;
}

/// Makes room for one more item.
bool reserveOne(StringList &L, const Allocator &A) {
  if (L.Count < L.Capacity)
    return true;
  size_t Cap = L.Capacity;
  if (!growArray(A, L.Items, L.Count, Cap, Cap ? Cap * 2 : 8))
    return false;
  L.Capacity = uint32_t(Cap);
  return true;
}

bool appendItem(StringList &L, const char *S, const Allocator &A) {
  if (!reserveOne(L, A))
    return false;
  L.Items[L.Count++] = S;
  return true;
}

/// "i|ms|B" -> "i, ms or B".
void addChoices(FixedText &T, const char *Choices) {
  size_t Bars = 0;
  for (const char *C = Choices; *C; ++C)
    Bars += *C == '|';
  size_t Seen = 0;
  for (const char *C = Choices; *C; ++C) {
    if (*C != '|') {
      T.add(C, 1);
      continue;
    }
    ++Seen;
    T.add(Seen == Bars ? " or " : ", ");
  }
}

/// Prints a default like Valgrind's help: 1.0, 0.5, 100.0.
size_t formatDefaultDouble(double V, char *Buf) {
  size_t N = formatValgrindFixed2(V, Buf);
  if (N >= 2 && Buf[N - 1] == '0')
    Buf[--N] = 0;
  return N;
}

void addDouble(FixedText &T, double V) {
  char Buf[32];
  formatDefaultDouble(V, Buf);
  T.add(Buf);
}

enum class Step : uint8_t { NoMatch, Ok, Error };

Step parseBool(const char *Arg, const char *V, bool &Out, OptionError &E) {
  if (strcmp(V, "yes") == 0) {
    Out = true;
    return Step::Ok;
  }
  if (strcmp(V, "no") == 0) {
    Out = false;
    return Step::Ok;
  }
  badOption(E, Arg)
      .add("Invalid boolean value '")
      .add(V)
      .add("' (should be 'yes' or 'no')");
  return Step::Error;
}

Step parseInt(const char *Arg, const char *Name, const char *V, int64_t Min,
              int64_t Max, int64_t &Out, OptionError &E) {
  const char *End;
  int64_t N = parseValgrindInt(V, End);
  if (*End) {
    badOption(E, Arg)
        .add("Invalid integer value '")
        .add(V)
        .add("'\n--")
        .add(Name)
        .add(" accepts an integer from ")
        .addInt(Min)
        .add(" to ")
        .addInt(Max);
    return Step::Error;
  }
  if (N < Min || N > Max) {
    badOption(E, Arg)
        .add("'--")
        .add(Name)
        .add("' argument must be between ")
        .addInt(Min)
        .add(" and ")
        .addInt(Max);
    return Step::Error;
  }
  Out = N;
  return Step::Ok;
}

/// --alignment is an allocator option of Valgrind's core, with its own
/// message for every out-of-range or non-power-of-2 value.
Step parseAlignment(const char *Arg, const char *V, int64_t Min, int64_t Max,
                    int64_t &Out, OptionError &E) {
  const char *End;
  int64_t N = parseValgrindInt(V, End);
  if (*End) {
    badOption(E, Arg)
        .add("Invalid integer value '")
        .add(V)
        .add("'\n--alignment accepts a power of 2 from ")
        .addInt(Min)
        .add(" to ")
        .addInt(Max);
    return Step::Error;
  }
  if (N < Min || N > Max || (N & (N - 1)) != 0) {
    badOption(E, Arg)
        .add("Alignment must be a power of 2 in the range ")
        .addInt(Min)
        .add("..")
        .addInt(Max)
        .add(".");
    return Step::Error;
  }
  Out = N;
  return Step::Ok;
}

Step parseDouble(const char *Arg, const char *Name, const char *V, double Min,
                 double Max, bool Checked, double &Out, OptionError &E) {
  const char *End;
  double D = parseValgrindDouble(V, End);
  if (*End) {
    FixedText T = badOption(E, Arg);
    T.add("Invalid floating point value '").add(V).add("'\n--").add(Name);
    if (Checked) {
      T.add(" accepts a decimal number from ");
      addDouble(T, Min);
      T.add(" to ");
      addDouble(T, Max);
    } else {
      T.add(" accepts a decimal number");
    }
    T.add(" (digits with an optional fraction, no exponent)");
    return Step::Error;
  }
  if (Checked && (D < Min || D > Max)) {
    FixedText T = badOption(E, Arg);
    T.add("--").add(Name).add(" must be between ");
    addDouble(T, Min);
    T.add(" and ");
    addDouble(T, Max);
    return Step::Error;
  }
  Out = D;
  return Step::Ok;
}

/// Matches V against the '|'-separated Choices; sets Index to its position.
Step parseChoice(const char *Arg, const char *Name, const char *V,
                 const char *Choices, uint8_t &Index, OptionError &E) {
  uint8_t I = 0;
  for (const char *C = Choices; *C; ++I) {
    size_t Len = 0;
    while (C[Len] && C[Len] != '|')
      ++Len;
    if (strlen(V) == Len && strncmp(V, C, Len) == 0) {
      Index = I;
      return Step::Ok;
    }
    C += Len;
    if (*C == '|')
      ++C;
  }
  // Valgrind matches each value as an option of its own (Massif's
  // --time-unit, the core's --xtree-memory): any other value is an
  // unknown option to it.
  FixedText T(E.Text, sizeof(E.Text));
  T.add("Unknown option: ").add(Arg).add("\n--").add(Name).add(" accepts ");
  addChoices(T, Choices);
  return Step::Error;
}

Step outOfMemory(const char *Arg, OptionError &E) {
  badOption(E, Arg).add("out of memory while recording the option");
  return Step::Error;
}

/// Matches Arg against every row; string values point into Copy, the
/// argument's own long-lived copy.
Step applyRow(Options &O, const char *Arg, const char *Copy, const Allocator &A,
              OptionError &E) {
  const char *V;
  (void)Copy;
  (void)A;
#define MASSIF_BOOL(Name, Field, Default, Help)                                \
  if ((V = valueOf(Arg, Name)))                                                \
    return parseBool(Arg, V, O.Field, E);
#define MASSIF_INT(Name, Field, Default, Min, Max, Help)                       \
  if ((V = valueOf(Arg, Name))) {                                              \
    if (strcmp(Name, "alignment") == 0)                                        \
      return parseAlignment(Arg, V, Min, Max, O.Field, E);                     \
    return parseInt(Arg, Name, V, Min, Max, O.Field, E);                       \
  }
#define MASSIF_DOUBLE(Name, Field, Default, Min, Max, Checked, Help)           \
  if ((V = valueOf(Arg, Name)))                                                \
    return parseDouble(Arg, Name, V, Min, Max, Checked, O.Field, E);
#define MASSIF_ENUM(Name, Field, Default, Choices, Help)                       \
  if ((V = valueOf(Arg, Name))) {                                              \
    uint8_t Index;                                                             \
    Step S = parseChoice(Arg, Name, V, Choices, Index, E);                     \
    if (S == Step::Ok)                                                         \
      O.Field = Field##Type(Index);                                            \
    return S;                                                                  \
  }
#define MASSIF_STRING(Name, Field, Default, Help)                              \
  if ((V = valueOf(Arg, Name))) {                                              \
    O.Field = valueOf(Copy, Name);                                             \
    return Step::Ok;                                                           \
  }
#define MASSIF_LIST(Name, Field, Help)                                         \
  if ((V = valueOf(Arg, Name)))                                                \
    return appendItem(O.Field, valueOf(Copy, Name), A) ? Step::Ok              \
                                                       : outOfMemory(Arg, E);
#define MASSIF_CORE_COUNT(Short, Long, Step_, Help)                            \
  if (strcmp(Arg, "-" Short) == 0 || strcmp(Arg, "--" Long) == 0) {            \
    O.Verbosity += Step_;                                                      \
    return Step::Ok;                                                           \
  }
#define MASSIF_CORE_INT(Name, Field, Default, Min, Max, Help)                  \
  if ((V = valueOf(Arg, Name)))                                                \
    return parseInt(Arg, Name, V, Min, Max, O.Field, E);
#define MASSIF_CORE_STRING(Name, Field, Default, Help)                         \
  if ((V = valueOf(Arg, Name))) {                                              \
    if (strcmp(Name, "tool") == 0 && strcmp(V, "massif") != 0) {               \
      FixedText(E.Text, sizeof(E.Text))                                        \
          .add(Arg)                                                            \
          .add(": msrun runs Massif only (--tool=massif)");                    \
      return Step::Error;                                                      \
    }                                                                          \
    O.Field = valueOf(Copy, Name);                                             \
    return Step::Ok;                                                           \
  }
#include "Options.def"
  return Step::NoMatch;
}

/// The MASSIF_NATIVE_REFUSED row Arg sets, or null.
const char *nativeRefusalOf(const char *Arg) {
#define MASSIF_NATIVE_REFUSED(Name, Why)                                       \
  if (valueOf(Arg, Name))                                                      \
    return Name;
#include "Options.def"
  return nullptr;
}

} // namespace

bool engineCanProfile(const Options &O, bool SeesPages, OptionError &E) {
  if (!O.PagesAsHeap || SeesPages)
    return true;
  badOption(E, "--pages-as-heap=yes")
      .add("--pages-as-heap=yes needs page-level profiling, which this engine "
           "does not do: it sees the program's allocations, not its page "
           "mappings (msrun --engine=vex does)");
  return false;
}

bool nativeTakesOptions(const Options &O, OptionError &E) {
  if (!O.NativeRefused)
    return true;
#define MASSIF_NATIVE_REFUSED(Name, Why)                                       \
  if (strcmp(O.NativeRefused, Name) == 0) {                                    \
    FixedText(E.Text, sizeof(E.Text))                                          \
        .add("--" Name " is not taken by the native engine: " Why              \
             " (msrun --engine=vex takes it)");                                \
    return false;                                                              \
  }
#include "Options.def"
  return true;
}

/// Options of Valgrind's core rather than Massif's (MASSIF_CORE_* rows):
/// some change the profile, but Massif's desc: line does not list them.
bool isCoreOption(const char *Arg) {
#define MASSIF_CORE_BOOL(Name, Field, Default, Help)                           \
  if (valueOf(Arg, Name))                                                      \
    return true;
#define MASSIF_CORE_LIST(Name, Field, Help)                                    \
  if (valueOf(Arg, Name))                                                      \
    return true;
#define MASSIF_CORE_COUNT(Short, Long, Step_, Help)                            \
  if (strcmp(Arg, "-" Short) == 0 || strcmp(Arg, "--" Long) == 0)              \
    return true;
#define MASSIF_CORE_INT(Name, Field, Default, Min, Max, Help)                  \
  if (valueOf(Arg, Name))                                                      \
    return true;
#define MASSIF_CORE_STRING(Name, Field, Default, Help)                         \
  if (valueOf(Arg, Name))                                                      \
    return true;
#include "Options.def"
  return false;
}

/// True when Arg's value lives in the argument's copy: a MASSIF_CORE_LIST
/// row's items or a MASSIF_CORE_STRING row's value.
bool keepsCoreValue(const char *Arg) {
#define MASSIF_CORE_LIST(Name, Field, Help)                                    \
  if (valueOf(Arg, Name))                                                      \
    return true;
#define MASSIF_CORE_STRING(Name, Field, Default, Help)                         \
  if (valueOf(Arg, Name))                                                      \
    return true;
#include "Options.def"
  return false;
}

ParseResult parseOption(Options &O, const char *Arg, const Allocator &A,
                        OptionError &E) {
  E.Text[0] = 0;
  if (strcmp(Arg, "--help") == 0 || strcmp(Arg, "-h") == 0)
    return ParseResult::Help;
  // The argument's long-lived copy; string and list values point into it.
  size_t Len = strlen(Arg);
  char *Copy = copyString(A, Arg, Len);
  if (!Copy || !reserveOne(O.Given, A)) {
    freeArray(A, Copy, Copy ? Len + 1 : 0);
    outOfMemory(Arg, E);
    return ParseResult::Error;
  }
  // msrun's own word, outside Valgrind's options and the desc: line.
  if (const char *V = valueOf(Arg, MsrunPidOption)) {
    freeArray(A, Copy, Len + 1);
    int64_t Pid;
    if (parseInt(Arg, MsrunPidOption, V, -1, INT32_MAX, Pid, E) != Step::Ok)
      return ParseResult::Error;
    O.MsrunPid = Pid;
    return ParseResult::Ok;
  }
  if (valueOf(Arg, MsrunPathOption)) {
    O.MsrunPath = valueOf(Copy, MsrunPathOption);
    return ParseResult::Ok;
  }
  // Parsers assign their field only on success, so a rejected argument
  // leaves O unchanged.
  Step S = applyRow(O, Arg, Copy, A, E);
  if (S != Step::Ok) {
    freeArray(A, Copy, Len + 1);
    if (S == Step::NoMatch)
      FixedText(E.Text, sizeof(E.Text)).add("Unknown option: ").add(Arg);
    return ParseResult::Error;
  }
  if (const char *Refused = nativeRefusalOf(Arg))
    if (!O.NativeRefused)
      O.NativeRefused = Refused;
  // Massif's options go to the desc: list; core ones do not, and give
  // their copy back unless a value (a string, a list's items) points into
  // it.
  if (!isCoreOption(Arg))
    O.Given.Items[O.Given.Count++] = Copy;
  else if (!keepsCoreValue(Arg))
    freeArray(A, Copy, Len + 1);
  return ParseResult::Ok;
}

bool forEachOptionWord(const char *Text, const Allocator &A,
                       bool (*Word)(void *Ctx, const char *W), void *Ctx) {
  // Words are separated by blanks; a backslash takes the next character
  // literally (msrun escapes blanks and backslashes that way).
  const char *P = Text;
  while (*P) {
    while (isValgrindSpace(*P))
      ++P;
    if (!*P)
      break;
    size_t Len = 0;
    for (const char *Q = P; *Q && !isValgrindSpace(*Q); ++Q, ++Len)
      if (*Q == '\\' && Q[1])
        ++Q;
    char *W = allocArray<char>(A, Len + 1);
    if (!W)
      return false;
    size_t N = 0;
    while (*P && !isValgrindSpace(*P)) {
      if (*P == '\\' && P[1])
        ++P;
      W[N++] = *P++;
    }
    W[N] = 0;
    bool More = Word(Ctx, W);
    freeArray(A, W, Len + 1);
    if (!More)
      return false;
  }
  return true;
}

namespace {
struct StringParse {
  Options &O;
  const Allocator &A;
  OptionError &E;
  ParseResult Result;
};

bool parseWord(void *Ctx, const char *Word) {
  auto &S = *static_cast<StringParse *>(Ctx);
  ParseResult R = parseOption(S.O, Word, S.A, S.E);
  if (R != ParseResult::Ok)
    S.Result = R;
  return R != ParseResult::Error;
}
} // namespace

ParseResult parseOptionString(Options &O, const char *Text, const Allocator &A,
                              OptionError &E) {
  StringParse S{O, A, E, ParseResult::Ok};
  if (!forEachOptionWord(Text, A, parseWord, &S) &&
      S.Result != ParseResult::Error) {
    FixedText(E.Text, sizeof(E.Text)).add("out of memory reading options");
    return ParseResult::Error;
  }
  return S.Result;
}

size_t formatValgrindFixed2(double V, char *Buf) {
  // Valgrind's own printf: integer part by truncation, fraction scaled by
  // 100 and truncated, then rounded up only when the remainder is strictly
  // more than a half.
  size_t N = 0;
  if (V < 0) {
    Buf[N++] = '-';
    V = -V;
  }
  if (!(V < 1.8e19))
    V = 1.8e19; // beyond uint64; Valgrind cannot print it either
  uint64_t Ip = uint64_t(V);
  double Frac = V - double(Ip);
  uint64_t Fr = uint64_t(Frac * 100);
  if (Frac * 100 - double(Fr) > 0.5)
    ++Fr;
  if (Fr == 100) {
    ++Ip;
    Fr = 0;
  }
  char Tmp[24];
  size_t T = 0;
  do {
    Tmp[T++] = char('0' + Ip % 10);
    Ip /= 10;
  } while (Ip);
  while (T)
    Buf[N++] = Tmp[--T];
  Buf[N++] = '.';
  Buf[N++] = char('0' + Fr / 10);
  Buf[N++] = char('0' + Fr % 10);
  Buf[N] = 0;
  return N;
}

namespace {

/// One help entry: "    <usage><pad><help> [<default>]", wrapped at 78
/// columns with continuation lines under the help column.
void writeHelpRow(const Sink &Out, const char *Usage, const char *Help,
                  const char *Default) {
  constexpr size_t HelpColumn = 30, Width = 78;
  char Line[256];
  FixedText T(Line, sizeof(Line));
  T.add("    ").add(Usage);
  do
    T.add(" ");
  while (T.size() < HelpColumn);

  // Words of "<help> [<default>]", flowed into lines.
  char Text[512];
  FixedText Body(Text, sizeof(Text));
  Body.add(Help);
  if (Default)
    Body.add(" [").add(Default).add("]");
  const char *P = Text;
  bool First = true;
  while (*P) {
    const char *WordEnd = P;
    while (*WordEnd && *WordEnd != ' ')
      ++WordEnd;
    size_t WordLen = size_t(WordEnd - P);
    if (!First && T.size() + 1 + WordLen > Width) {
      T.add("\n");
      Out.Write(Out.Ctx, Line, T.size());
      T = FixedText(Line, sizeof(Line));
      while (T.size() < HelpColumn)
        T.add(" ");
      First = true;
    }
    if (!First)
      T.add(" ");
    T.add(P, WordLen);
    First = false;
    P = *WordEnd ? WordEnd + 1 : WordEnd;
  }
  T.add("\n");
  Out.Write(Out.Ctx, Line, T.size());
}

void writeHelpRow(const Sink &Out, const char *Name, const char *UsageValue,
                  const char *Help, const char *Default) {
  char Usage[96];
  FixedText(Usage, sizeof(Usage)).add("--").add(Name).add("=").add(UsageValue);
  writeHelpRow(Out, Usage, Help, Default);
}

void writeIntHelpRow(const Sink &Out, const char *Name, int64_t Default,
                     const char *Help) {
  char Buf[24];
  FixedText(Buf, sizeof(Buf)).addInt(Default);
  writeHelpRow(Out, Name, "<number>", Help, Buf);
}

void writeDoubleHelpRow(const Sink &Out, const char *Name, double Default,
                        const char *Help) {
  char Buf[32];
  formatDefaultDouble(Default, Buf);
  writeHelpRow(Out, Name, "<m.n>", Help, Buf);
}

} // namespace

void writeHelp(const Sink &Out) {
#define MASSIF_BOOL(Name, Field, Default, Help)                                \
  writeHelpRow(Out, Name, "no|yes", Help, (Default) ? "yes" : "no");
#define MASSIF_INT(Name, Field, Default, Min, Max, Help)                       \
  writeIntHelpRow(Out, Name, Default, Help);
#define MASSIF_DOUBLE(Name, Field, Default, Min, Max, Checked, Help)           \
  writeDoubleHelpRow(Out, Name, Default, Help);
#define MASSIF_ENUM(Name, Field, Default, Choices, Help)                       \
  writeHelpRow(Out, Name, Choices, Help, Default);
#define MASSIF_STRING(Name, Field, Default, Help)                              \
  writeHelpRow(Out, Name, "<file>", Help, Default);
#define MASSIF_LIST(Name, Field, Help)                                         \
  writeHelpRow(Out, Name, "<name>", Help, "empty");
#define MASSIF_CORE_COUNT(Short, Long, Step_, Help)                            \
  writeHelpRow(Out, "-" Short " --" Long, Help, nullptr);
#define MASSIF_CORE_INT(Name, Field, Default, Min, Max, Help)                  \
  writeIntHelpRow(Out, Name, Default, Help);
#define MASSIF_CORE_STRING(Name, Field, Default, Help)                         \
  writeHelpRow(Out, Name, "<text>", Help, *(Default) ? (Default) : "none");
#include "Options.def"
}

} // namespace massif
