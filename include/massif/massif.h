/*===- massif/massif.h - What a profiled program may ask of Massif --------===*
 *
 * Part of massif-native, under the MIT licence.
 *
 * A program asks for a Massif monitor command itself:
 *
 *     #include <massif/massif.h>
 *     ...
 *     massif_monitor_command("detailed_snapshot phase1.massif");
 *
 * The commands are Massif's (help, snapshot, detailed_snapshot,
 * all_snapshots, xtmemory; see docs/USER-GUIDE.md): the file is written
 * before the call returns. The call is Valgrind's client request
 * VG_USERREQ__GDB_MONITOR_COMMAND (0x1202), the request valgrind.h's
 * VALGRIND_MONITOR_COMMAND makes, written from Valgrind's documented
 * client-request ABI, so one build works everywhere:
 *
 *   - built with mscc/mscxx: the pass turns the request into a call to the
 *     runtime, which runs the command at once (the program's own thread,
 *     not a signal handler);
 *   - run under Valgrind's Massif, or msrun --engine=vex: the tool runs it;
 *   - any other build or run: nothing happens.
 *
 * massif_monitor_command returns 1 when the command was handled, 0 when
 * it was not (not recognised, or no Massif is there). Valgrind's own
 * macro, MASSIF_MONITOR_COMMAND below as VALGRIND_MONITOR_COMMAND,
 * returns the raw request's result instead: 0 when recognised, 1 when not
 * recognised, and 0 when no Valgrind is there.
 *
 * Only x86-64 has the request sequence here; elsewhere both return their
 * "nothing happened" values.
 *
 *===----------------------------------------------------------------------===*/

#ifndef MASSIF_MASSIF_H
#define MASSIF_MASSIF_H

#define MASSIF_USERREQ_GDB_MONITOR_COMMAND 0x1202ULL

/* Valgrind's client request: the address of six words (request code and
 * five arguments) in %rax, the default result in %rdx; a no-op sequence of
 * rotations of %rdi by 64 bits in all, then xchg %rbx,%rbx, which Valgrind's
 * translator (and mscc's pass) recognise; the result in %rdx. */
static inline unsigned long long
massif_client_request_(unsigned long long request, unsigned long long arg1,
                       unsigned long long default_result) {
#if defined(__x86_64__)
  volatile unsigned long long args[6];
  unsigned long long result;
  args[0] = request;
  args[1] = arg1;
  args[2] = 0;
  args[3] = 0;
  args[4] = 0;
  args[5] = 0;
  __asm__ volatile("rolq $3,  %%rdi ; rolq $13, %%rdi\n\t"
                   "rolq $61, %%rdi ; rolq $51, %%rdi\n\t"
                   "xchgq %%rbx,%%rbx"
                   : "=d"(result)
                   : "a"(&args[0]), "0"(default_result)
                   : "cc", "memory");
  return result;
#else
  (void)request;
  (void)arg1;
  return default_result;
#endif
}

/* Valgrind's spelling: 0 when recognised (or nobody there), 1 when not. */
#define MASSIF_MONITOR_COMMAND(command)                                        \
  ((int)massif_client_request_(MASSIF_USERREQ_GDB_MONITOR_COMMAND,            \
                               (unsigned long long)(__SIZE_TYPE__)(command),   \
                               0))

/* Runs a Massif monitor command in the calling program. Returns 1 when it
 * was handled, 0 otherwise. */
static inline int massif_monitor_command(const char *command) {
  /* The default (no Valgrind, no mscc runtime) reads as "not recognised". */
  return massif_client_request_(MASSIF_USERREQ_GDB_MONITOR_COMMAND,
                                (unsigned long long)(__SIZE_TYPE__)command,
                                1) == 0;
}

#endif /* MASSIF_MASSIF_H */
