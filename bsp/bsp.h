/* bsp.h — BSPlib on bspram: the MulticoreBSP-for-C 2 flavour of the BSPlib
 * standard (Hill, McColl, Stefanescu, Goudreau, Lang, Rao, Suel, Tsantilas,
 * Bisseling: "BSPlib: The BSP programming library", Parallel Computing 24,
 * 1998; Yzelman, Bisseling, Roose, Meerbergen: "MulticoreBSP for C",
 * IJPP 42, 2014). Existing BSPlib programs build against it unchanged:
 *
 *     cc prog.c $(pkg-config --cflags --libs bspram)
 *
 * — programs written to the 1998 standard's int-typed signatures with
 * -DBSPRAM_BSPLIB_INT added ("Int-typed programs" below).
 *
 * The header is the specification (in the style of LPF's core.h): every
 * function says what it does, which misuse it detects, and what it costs.
 *
 * Processes and the machine. bsp_begin(P) starts P BSP processes, one
 * thread each (the library's own, pid 0 the calling thread), as the SPMD style of a bspram machine (bsp/machine.h) with
 * p = T = P. P may exceed the number of cores: waiting processes spin briefly,
 * then sleep in the kernel (docs/bsplib.md). Every put, get and send is a
 * message through the router; every exchange is one record in the machine's
 * log, so BSPRAM_TRACE=file.csv writes a BSPlib program's supersteps too.
 *
 * Cost notation. A superstep ends with bsp_sync. The router records, for each
 * exchange, h = max over processes of max(bytes sent, bytes received) counting
 * the message headers below, and the charge max(q, r) with q (r) the most
 * messages one process sent (received). Its BSP cost is w + g·h + l with g
 * and l measured by `bspram probe`. Message sizes on the router:
 *     bsp_put/bsp_hpput of n bytes     one message of 8 + n bytes to pid
 *                                      (an hpput of ≥ 4096 bytes stores 32
 *                                      and is counted as 8 + n: by reference)
 *     bsp_get/bsp_hpget of n bytes     a 32-byte request to pid, and at the
 *                                      sync one reply of 8 + n bytes back
 *     bsp_send/bsp_hpsend              one message of 8 + ⌈tagsize⌉₈ + n bytes
 * (⌈x⌉₈ is x rounded up to a multiple of 8). 0-byte transfers are legal and
 * are still one message each.
 *
 * How a bsp_sync maps to records (docs/bsplib.md):
 *   - one exchange labelled "bsp_sync" carries every put, get request and
 *     send of the superstep (bsp_end's exchange is labelled "bsp_end");
 *   - only if some process issued a get, a second exchange labelled
 *     "bsp_sync:get" carries the replies: every get is served (the remote
 *     memory read) before any put of the superstep lands, and its result is
 *     written before the superstep's puts land, as BSPlib requires (where a
 *     get and a put write the same bytes, the put wins);
 *   - registrations and tag-size changes cost one extra barrier (no record),
 *     and only in supersteps where some process called bsp_push_reg,
 *     bsp_pop_reg or bsp_set_tagsize.
 *   - an unbuffered bsp_hpput (≥ 4096 bytes) costs one extra barrier (no
 *     record) in the supersteps where some process issued one;
 *   - with the shared-memory extension (bsp_shm.h), a superstep in which some
 *     process issued a request adds that batch's combining phases
 *     ("combine:forward:i", "combine:reverse:j") after the exchanges above.
 * An empty superstep costs one barrier.
 *
 * Over MPI. Linked with libbspram-mpi instead (pkg-config bspram-mpi) and
 * started with `mpirun -np N`, the same program runs on N ranks: rank 0 runs
 * main; the other ranks run main up to their first bsp_init or bsp_begin and
 * there wait for rank 0's sections; a section's P processes are spread over
 * the ranks in blocks (threads within a rank). Variables main sets after
 * bsp_init are then pid 0's alone, as on any distributed-memory BSPlib: send
 * them in the first superstep. Costs as above, with each exchange one
 * MPI_Allreduce (plus an all-to-all when messages move); the records are
 * those of one machine. Not over ranks (one line, exit 1): bsp_direct_get
 * (docs/mpi.md).
 *
 * Errors. Misuse prints one line naming the call, its arguments, the
 * superstep (number of bsp_syncs this process completed) and the pid, e.g.
 *   bspram: bsp_put(pid=9, src=0x…, dst=0x…, offset=0, nbytes=8): pid outside
 *   [0, 4) (superstep 3, pid 2)
 * and the whole program exits with status 1 — every process stops at once,
 * including those waiting in bsp_sync (base/error.h). Nothing hangs.
 * A NULL pointer that a call needs is such a misuse, never a crash:
 *   bspram: bsp_hpmove(tag_ptr=NULL, payload_ptr=0x…): tag_ptr must not be
 *   NULL (superstep 0, pid 1)
 * (docs/limits.md). NULL is legal where a function says so: an address of
 * bsp_push_reg and bsp_pop_reg, bsp_label's name, bsp_qsize's outputs,
 * bsp_init's argv, a buffer of 0 bytes, a tag while the tag size is 0. The
 * address a put names on the other side (dst) or a get reads from (src) is
 * looked up among the registrations, so NULL there names a registration of
 * NULL ("nothing here": 0 bytes).
 *
 * Program shapes (both of the standard; see docs/bsplib.md):
 *  (a) main calls bsp_init(spmd, argc, argv), may call bsp_nprocs(), then
 *      calls spmd(); spmd's first statement is bsp_begin(P) and its last is
 *      bsp_end(). After spmd returns, only the original thread (pid 0)
 *      continues in main.
 *  (b) bsp_begin(P) is the first statement of main and bsp_end() comes just
 *      before main returns; no bsp_init.
 * How: bsp_begin on the original thread starts the team on a helper thread;
 * processes 1..P−1 call the SPMD function (spmd, or main with the program's
 * own argc and argv) from its start, on their own stacks, and join at their
 * bsp_begin; the original thread returns from bsp_begin as process 0. At
 * bsp_end processes 1..P−1 leave the SPMD function (longjmp back to where
 * they entered it), so code after bsp_end runs on pid 0 only.
 * Constraints (as in MulticoreBSP for C): code before bsp_begin in the SPMD
 * function runs on every process; global and static variables are shared by
 * all processes (they are threads); without bsp_init, bsp_begin must be in
 * main. Process 0's locals survive bsp_end; the others' do not. BSP sections
 * may follow one another, not nest.
 *
 * Int-typed programs (docs/bsplib.md). The 1998 standard types sizes,
 * offsets, pids and counts as int (void bsp_set_tagsize(int *),
 * void bsp_qsize(int *, int *), void bsp_get_tag(int *, void *), ...); this
 * header types them as MulticoreBSP for C 2 does (bsp_size_t = size_t,
 * bsp_pid_t = unsigned). An int-typed program builds with one macro:
 *
 *     cc -DBSPRAM_BSPLIB_INT prog.c $(pkg-config --cflags --libs bspram)
 *
 * (or `#define BSPRAM_BSPLIB_INT` before including <bsp.h>; MulticoreBSP's
 * -DMCBSP_COMPATIBILITY_MODE does the same). Then every
 * function of the 1998 standard has its int-typed signature: the standard
 * names are macros for the bspram_bsplib_int_* functions at the end of this
 * file, which report a negative size, offset, pid or P as an error and a
 * result that does not fit in an int likewise; bsp_size_t, bsp_pid_t and
 * bsp_nprocs_t are int, as in BSPonMPI. bsp_direct_get keeps its size_t
 * signature (it is not in the 1998 standard), and the extensions
 * (bsp_shm.h, bsp_coll.h, bsp_sdp.h) are typed size_t and unsigned in
 * both modes.
 * Without the macro, handing an int * to bsp_set_tagsize, bsp_qsize or
 * bsp_get_tag (where the library would store 8 bytes into a 4-byte int) is
 * a compile error in C that says to add -DBSPRAM_BSPLIB_INT; in C++ the
 * mismatched pointer is an error anyway. Both modes link the same library.
 */
#ifndef BSPRAM_BSP_H
#define BSPRAM_BSP_H

/* MulticoreBSP for C's switch to the 1998 standard's int API,
 * -DMCBSP_COMPATIBILITY_MODE (outside Makefiles carry it), selects the
 * int-typed mode as well: the same program, the same meaning. */
#if defined(MCBSP_COMPATIBILITY_MODE) && !defined(BSPRAM_BSPLIB_INT)
#define BSPRAM_BSPLIB_INT
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* as the Oxford BSP toolset's bsp.h: its programs print without it */

#include "base/api.h"

BSPRAM_BEGIN_DECLS

/* Types of MulticoreBSP for C 2, which the library is built with. In the
 * int-typed mode the three names are int (as in the 1998 standard and
 * BSPonMPI; defined at the end of this file), and the declarations here
 * keep the library's types under the names these macros give them. */
#if defined(BSPRAM_BSPLIB_INT)
#define bsp_pid_t bspram_bsplib_pid_t
#define bsp_nprocs_t bspram_bsplib_nprocs_t
#define bsp_size_t bspram_bsplib_size_t
#endif
typedef unsigned int bsp_pid_t;    /* a process id */
typedef unsigned int bsp_nprocs_t; /* a count of processes or of messages */
typedef size_t bsp_size_t;         /* a size in bytes */

/* ---- SPMD ---- */

/* Register the SPMD function for program shape (a): the function that
 * processes 1..P−1 run, whose first statement is bsp_begin.
 *
 * Over MPI (libbspram-mpi), a rank other than 0 does not return from its
 * first bsp_init: it serves rank 0's sections until rank 0's program ends.
 *
 * @param spmd    the SPMD function (its first statement bsp_begin, its last
 *                bsp_end); must not be NULL
 * @param argc    kept for compatibility and not used: every process reads
 *                the program's own arguments
 * @param argv    likewise; may be NULL
 * @pre           Outside every BSP section, before the bsp_begin of the
 *                section the function is for.
 * @par Errors
 *     Inside a section: "bspram: bsp_init(spmd=0x…): called inside a BSP
 *     section (superstep 2, pid 0)"; spmd NULL: "bspram: bsp_init(spmd=NULL):
 *     the SPMD function must not be NULL". Exit status 1.
 * @par BSP cost
 *     None: local, O(1) (no superstep, no record).
 * @par Thread safety
 *     The host only: the program's original thread, outside every BSP
 *     section (the SPMD function is one for the whole program).
 */
void bsp_init(void (*spmd)(void), int argc, char **argv);

/* Start P BSP processes (pid 0..P−1); the caller becomes pid 0. P may exceed
 * the number of cores (oversubscription; each process is a thread).
 * On processes 1..P−1 it only joins the section (P must be the same).
 *
 * @param P       the number of processes, in [1, 65536]; processes 1..P−1
 *                pass the same P as process 0
 * @pre           No section is open on this thread (sections may follow one
 *                another, not nest); without bsp_init, bsp_begin is the
 *                first statement of main.
 * @par Errors
 *     P = 0 or above 65536: "bspram: bsp_begin(P=0): P must be in
 *     [1, 65536]"; inside a section: "bspram: bsp_begin(P=4): already inside
 *     a BSP section; sections may follow one another but not nest (superstep
 *     3, pid 0)"; a process joining with another P: "bspram: bsp_begin(P=3):
 *     process 0 started 4 processes; all must ask for the same P (superstep
 *     0, pid 2)"; more threads than the system maps stacks for (2·P + 1024
 *     mappings above /proc/sys/vm/max_map_count; ceil(P/ranks) over MPI),
 *     before anything is allocated: "bspram: bsp_begin(P=65536): 65536
 *     threads need 132096 memory mappings (a stack and its guard page each,
 *     1024 kept for the rest), above this system's vm.max_map_count of 65530,
 *     which fits 32253 processes; lower P or raise vm.max_map_count"
 *     (docs/limits.md); no thread for the team: "bspram: bsp_begin(P=4): cannot
 *     start the team: …", or "bspram: bsp_begin(P=4000): could not start
 *     4000 threads (Resource temporarily unavailable after 498); lower the
 *     number of threads, or raise the limits on threads and memory (ulimit
 *     -u, ulimit -v) or lower OMP_STACKSIZE". Exit status 1.
 * @par BSP cost
 *     No superstep and no record: starting P threads (tens of µs) and O(P)
 *     memory for the processes' state — each thread's stack (about 12 KB
 *     touched of its mapping) and its process's record — plus the
 *     machine's router, whose per-lane arrays indexed by destination take
 *     O(P) per process (O(P²) in all: about 110 KB per process at P = 4096,
 *     bench/RESULTS.md).
 * @par Thread safety
 *     The host only (the program's original thread, outside every section)
 *     starts a section; processes 1..P−1 call it on their own threads, as
 *     the first statement of the SPMD function, to join it.
 */
void bsp_begin(bsp_pid_t P);

/* End the BSP section: collective, like a last bsp_sync (labelled "bsp_end"
 * in the records; its puts/gets/sends are delivered). Processes 1..P−1 then
 * stop (leave the SPMD function); pid 0 returns from bsp_end, after the
 * machine has written its trace (BSPRAM_TRACE).
 * Over MPI the first process of each rank other than 0 goes back to waiting
 * for rank 0's next section (the program ends there when rank 0's ends).
 *
 * @pre           Inside a section; every process calls it, after as many
 *                bsp_syncs as the others.
 * @par Errors
 *     Outside a section: "bspram: bsp_end(): called outside a bsp_begin/bsp_end
 *     section"; some processes in bsp_end while others are in bsp_sync:
 *     "bspram: bsp_end(): this process reached bsp_end while other processes
 *     are in bsp_sync; all must sync equally often (superstep 5, pid 1)";
 *     and every error of bsp_sync about the superstep it ends. A process that
 *     leaves its section otherwise: "bspram: bsp_end: process 2 returned from
 *     the SPMD function without calling bsp_end (superstep 4, pid 2)"; "bspram:
 *     bsp_end: the program exited inside a BSP section (pid 0 never called
 *     bsp_end, exit status 0); every process must end its section with
 *     bsp_end" (the exit status is the program's, 1 if it was 0). Exit
 *     status 1 otherwise.
 * @par BSP cost
 *     One superstep, as bsp_sync: l + g·h with h the byte h-relation of its
 *     messages (one record, "bsp_end"); then joining the threads, and on
 *     pid 0 writing the trace if BSPRAM_TRACE is set.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section, as
 *     its last BSPlib call of the section.
 */
void bsp_end(void);

/* Print the formatted message (printf-style, as given: add the newline
 * yourself) on stderr and stop every process at once, even those waiting in
 * bsp_sync; the program exits with status 1. A message that prints nothing
 * (bsp_abort("")) is replaced by one line naming the process and the
 * superstep. Never returns.
 *
 * @param format  a printf format, followed by its arguments; must not be
 *                NULL
 * @pre           None: any process, at any time, also outside a BSP section.
 * @par Errors
 *     format NULL: "bspram: bsp_abort(format=NULL): format must not be NULL
 *     (superstep 3, pid 1)" (without the parenthesis outside a section). An
 *     empty message: "bspram: bsp_abort(""): process 1 aborted the program
 *     with an empty message (superstep 3, pid 1)", or outside a section
 *     "bspram: bsp_abort(""): the program aborted with an empty message,
 *     outside a BSP section". Exit status 1, as for every message.
 * @par BSP cost
 *     None: it ends the program (no superstep, no record).
 * @par Thread safety
 *     Any thread; if several abort at once, only the first line is printed.
 */
void bsp_abort(const char *format, ...) __attribute__((format(printf, 1, 2), noreturn));

/* As bsp_abort, with the format's arguments in a va_list (for a program's
 * own variadic error function). Never returns.
 *
 * @param format  a printf format; must not be NULL
 * @param args    the format's arguments, started with va_start by the caller
 * @pre           None: any process, at any time, also outside a BSP section.
 * @par Errors
 *     format NULL: "bspram: bsp_vabort(format=NULL): format must not be NULL
 *     (superstep 3, pid 1)" (without the parenthesis outside a section). An
 *     empty message: as bsp_abort ("bspram: bsp_abort(""): process 1 aborted
 *     the program with an empty message (superstep 3, pid 1)"). Exit status 1.
 * @par BSP cost
 *     None: it ends the program (no superstep, no record).
 * @par Thread safety
 *     Any thread; if several abort at once, only the first line is printed.
 */
void bsp_vabort(const char *format, va_list args) __attribute__((format(printf, 1, 0), noreturn));

/* The number of processes. Inside a section: its P. Outside: after a
 * section, that section's P; before the first, $BSPRAM_NPROCS if set (so
 * that a program doing bsp_begin(bsp_nprocs()) runs with more processes than
 * cores: BSPRAM_NPROCS=64 ./prog), else the number of cores this program may
 * run on (over MPI: the number of ranks).
 *
 * @return        P as above, at least 1
 * @pre           None.
 * @par Errors
 *     Before the first section, BSPRAM_NPROCS set but not a whole number in
 *     [1, 65536]: "bspram: bsp_nprocs(): BSPRAM_NPROCS=0 is not a whole number
 *     in [1, 65536]", exit status 1.
 * @par BSP cost
 *     None: local, O(1) (outside a section it reads the environment).
 * @par Thread safety
 *     Any thread; inside a section a process gets its own section's P.
 */
bsp_pid_t bsp_nprocs(void);

/* This process's id.
 *
 * @return        the pid, in [0, P)
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_pid(): called outside a
 *     bsp_begin/bsp_end section", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
bsp_pid_t bsp_pid(void);

/* Seconds of wall time since bsp_begin (one clock shared by all processes).
 *
 * @return        the seconds since the section began
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_time(): called outside a
 *     bsp_begin/bsp_end section", exit status 1.
 * @par BSP cost
 *     None: local, O(1) (one clock read).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
double bsp_time(void);

/* ---- bspram's extension: the records in the course's terms ----
 *
 * Every superstep is a record (BSPRAM_TRACE, bsp/trace.h; `bspram prof`
 * draws them): by default labelled "bsp_sync" and with no local work. These
 * two calls give a trace the w and the names of a BSP cost analysis, so that
 * W + g·H + l·S can be priced against the measured time. */

/* The label of the records of the supersteps the following bsp_syncs end;
 * collectives label their own supersteps and leave it in force after them.
 * Call it alike in every process (SPMD code does): the records take the name
 * given by the first process of each rank (pid 0 on one machine).
 *
 * @param name    the label: printable text of at most 31 bytes; NULL or ""
 *                restores "bsp_sync"
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_label(): called outside a
 *     bsp_begin/bsp_end section"; a name of 32 bytes or more: "bspram:
 *     bsp_label(name="…"): a label has at most 31 bytes (superstep 2,
 *     pid 0)" (the name's first 40 bytes quoted); a control character:
 *     "bspram: bsp_label: the name has a control character (byte 10 at 5); a
 *     label is printable text (superstep 2, pid 0)". Exit status 1.
 * @par BSP cost
 *     None: local, O(length of name); no superstep.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself (only the first
 *     process of each rank keeps the name).
 */
void bsp_label(const char *name);

/* Declare w units of local work (e.g. flops) done by this process in the
 * current superstep: the superstep's record holds the most any process
 * declared (BSP's w), each process's calls adding up.
 *
 * @param w       units of work, added to this process's count of the
 *                superstep
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_work(): called outside a
 *     bsp_begin/bsp_end section", exit status 1.
 * @par BSP cost
 *     None: local, O(1); no superstep (the record's w is the maximum over
 *     the processes).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_work(uint64_t w);

/* End the superstep: deliver every put, get and send issued in it, make
 * registrations and the tag size set in it take effect, and empty the
 * message queue, replacing it by the messages sent in this superstep.
 * Collective: every process must call it equally often.
 *
 * @pre           Inside a section; every process of the section calls it.
 * @par Errors
 *     Outside a section: "bspram: bsp_sync(): called outside a
 *     bsp_begin/bsp_end section"; some processes in bsp_end while others are
 *     in bsp_sync: "bspram: bsp_end(): this process reached bsp_end while
 *     other processes are in bsp_sync; all must sync equally often
 *     (superstep 5, pid 1)"; a collective (bsp_coll.h) against it: "bspram:
 *     bsp_coll_allgather: pid 0 is in bsp_coll_allgather while pid 2 is in
 *     bsp_sync (superstep 4); every process must make the same collective
 *     calls in the same order"; registrations not matching between processes
 *     (the lines of bsp_push_reg and bsp_pop_reg); bsp_set_tagsize called by
 *     only some processes or with different values (its lines); with
 *     bsp_shm.h, its collective calls and the combining engine's lines. Exit
 *     status 1 (every process stops).
 * @par BSP cost
 *     One superstep: l + g·h with h the byte h-relation of the superstep's
 *     messages (see the top of this file); a second exchange (another
 *     l + g·h) if some process issued a get, with a copy of each process's
 *     received puts and sends kept until the replies land; one barrier more
 *     if registrations or the tag size changed, or an unbuffered bsp_hpput
 *     was issued; with bsp_shm.h, the combining batch of the superstep's
 *     requests and the collective calls' barriers (see there).
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section, the
 *     same number of times.
 */
void bsp_sync(void);

/* ---- DRMA: registration ---- */

/* Register `size` bytes at `address` for remote access, from the next
 * bsp_sync on. Registrations are matched between processes by the order of
 * the calls: the k-th bsp_push_reg of every process names the same slot, and
 * each process may give its own address and size (stack variables included).
 * Registering an address twice is allowed; the newest registration is the
 * one used.
 *
 * @param address this process's area; NULL is legal and means "nothing
 *                here" (no byte can be put there or got from there)
 * @param size    the area's size in bytes; 0 is legal
 * @pre           Inside a section; every process pushes (and pops) its
 *                registrations in the same order, in the same supersteps.
 * @par Errors
 *     Outside a section: "bspram: bsp_push_reg: called outside a
 *     bsp_begin/bsp_end section". At the next bsp_sync, processes that pushed
 *     or popped different numbers of registrations: "bspram: bsp_sync():
 *     registrations differ between processes in superstep 3: pid 0 called
 *     bsp_push_reg/bsp_pop_reg 2 times, pid 1 1 times; all must register the
 *     same slots in the same order"; or in a different order: "bspram:
 *     bsp_sync(): registrations differ between processes in superstep 3: call
 *     1 is bsp_push_reg(0x…, 8) on pid 0 but bsp_pop_reg(0x…) on pid 1; all
 *     must register in the same order". Exit status 1.
 * @par BSP cost
 *     O(1) now; at the next sync one barrier (no record) and O(P) work per
 *     registration, on the first process of each rank.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_push_reg(const void *address, bsp_size_t size);

/* Remove a registration at the next bsp_sync. The k-th pop of every process
 * removes one slot: the one named by the processes that pass an address
 * (each one's newest registration of it). A process that registered NULL
 * there passes NULL and follows them, so its NULL registrations may be
 * popped in any order; if every process passes NULL, the newest slot that is
 * NULL on every process is removed.
 *
 * @param address this process's address of the registration, as it pushed
 *                it; NULL where it registered NULL
 * @pre           Inside a section; every process pops in the same superstep
 *                and order.
 * @par Errors
 *     Outside a section: "bspram: bsp_pop_reg: called outside a
 *     bsp_begin/bsp_end section". At the next bsp_sync: an address not
 *     registered: "bspram: bsp_pop_reg(0x…): address not registered
 *     (superstep 3, pid 2)"; addresses naming different slots: "bspram:
 *     bsp_sync(): registrations differ between processes in superstep 3: pop
 *     1 removes registration 2 on pid 0 but 1 on pid 3; pops must be in the
 *     same order everywhere"; NULL on a process that registered memory in the
 *     slot: "bspram: bsp_sync(): pop 1 in superstep 3 is bsp_pop_reg(NULL) on
 *     pid 2, but the registration it removes (registration 1, named by pid
 *     0's address 0x…) has memory on pid 2 (0x…); a process passes NULL only
 *     where it registered NULL"; NULL everywhere with no slot NULL
 *     everywhere: "bspram: bsp_sync(): pop 1 in superstep 3 is
 *     bsp_pop_reg(NULL) on every process, but no live registration is NULL on
 *     every process"; numbers or order differing: as bsp_push_reg. Exit
 *     status 1.
 * @par BSP cost
 *     O(1) now; at the next sync one barrier (no record) and O(P·R) work,
 *     R the live registrations.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_pop_reg(const void *address);

/* ---- DRMA: communication ---- */

/* Copy nbytes from src (local) to process pid's registration of dst, at
 * byte offset `offset`, at the next bsp_sync. src is copied now (buffered),
 * so it may be reused at once. Puts to the same place land in a defined
 * order: by source pid, then by order of issue. Self-puts work.
 *
 * @param pid     the destination process, in [0, P)
 * @param src     the bytes to put; NULL only with nbytes = 0
 * @param dst     the caller's own address of the registration (the slot is
 *                found by it); NULL names a registration of NULL
 * @param offset  the byte offset in pid's registration
 * @param nbytes  the number of bytes; [offset, offset + nbytes) must lie in
 *                pid's registration; 0 is legal
 * @pre           Inside a section; dst registered (bsp_push_reg, then a
 *                bsp_sync) and not popped.
 * @par Errors
 *     Outside a section: "bspram: bsp_put: called outside a bsp_begin/bsp_end
 *     section"; pid ≥ P: "bspram: bsp_put(pid=9, src=0x…, dst=0x…, offset=0,
 *     nbytes=8): pid outside [0, 4) (superstep 3, pid 2)"; dst not
 *     registered: "…: dst is not a registered address (bsp_push_reg, then
 *     bsp_sync) (superstep 3, pid 2)", or for NULL "bspram: bsp_put(pid=1,
 *     dst=NULL, offset=0, nbytes=8): dst is NULL, and this process has no
 *     registration of NULL (…)"; out of bounds: "…: bytes [8, 16) outside
 *     the registration, which has 8 bytes on pid 1 (…)"; src NULL with
 *     nbytes > 0: "bspram: bsp_put(pid=1, src=NULL, dst=0x…, offset=0,
 *     nbytes=8): src is NULL (…)"; over MPI, an offset of 2^40 or more:
 *     "bspram: bsp_put(offset=…): on a transport that shares no memory,
 *     offsets must be below 2^40 and registrations fewer than 2^23 (…)".
 *     Exit status 1.
 * @par BSP cost
 *     One message of 8 + nbytes bytes in the superstep's h-relation;
 *     O(nbytes) local work and memory now (the copy). A put of a multiple
 *     of 8 bytes up to 504 is stored as a record of 8 + nbytes bytes, and
 *     such puts of one size to one pid with nothing else to that pid (nor
 *     such a put to a pid equal to it modulo 64) between them share a
 *     header of 8 bytes (the h-relation counts them as above); any other
 *     put stores 8 bytes of header beside its message.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_put(bsp_pid_t pid, const void *src, const void *dst, bsp_size_t offset,
             bsp_size_t nbytes);

/* bsp_put without the guarantee that src is copied now: BSPlib allows the
 * transfer at any time up to the end of the sync, so src (and dst) must not
 * change until bsp_sync returns. Below 4096 bytes it is copied now, exactly
 * as bsp_put. From 4096 bytes on it is unbuffered: a 32-byte message tells
 * pid where to copy from, pid copies straight from this process's memory at
 * the sync (one copy instead of two), and the sync ends with one extra
 * barrier so that no process reuses its sources before they were copied.
 * (Over MPI, where no memory is shared, it is always bsp_put.)
 *
 * @param pid     the destination process, in [0, P)
 * @param src     the bytes to put, left unchanged until bsp_sync returns;
 *                NULL only with nbytes = 0
 * @param dst     the caller's own address of the registration
 * @param offset  the byte offset in pid's registration
 * @param nbytes  the number of bytes, within pid's registration; 0 is legal
 * @pre           As bsp_put; src and the destination bytes unchanged until
 *                bsp_sync returns.
 * @par Errors
 *     As bsp_put, each line naming bsp_hpput ("bspram: bsp_hpput(pid=9,
 *     src=0x…, dst=0x…, offset=0, nbytes=8): pid outside [0, 4) (superstep
 *     3, pid 2)"). Exit status 1.
 * @par BSP cost
 *     Counted as one message of 8 + nbytes bytes, like bsp_put (the records
 *     count the bytes that move); from 4096 bytes on no local copy now, and
 *     one extra barrier (no record) at the sync.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_hpput(bsp_pid_t pid, const void *src, const void *dst, bsp_size_t offset,
               bsp_size_t nbytes);

/* Copy nbytes from process pid's registration of src (at byte offset
 * `offset`) to dst (local, any memory) at the next bsp_sync. The value read
 * is the one from before the superstep's puts land (all gets of a sync are
 * served before any put lands), and it is written into dst before those
 * puts land (a put into the same bytes wins). Self-gets work.
 *
 * @param pid     the process to read from, in [0, P)
 * @param src     the caller's own address of the registration (the slot is
 *                found by it); NULL names a registration of NULL
 * @param offset  the byte offset in pid's registration
 * @param dst     where the bytes land at the sync; NULL only with
 *                nbytes = 0
 * @param nbytes  the number of bytes; [offset, offset + nbytes) must lie in
 *                pid's registration; 0 is legal
 * @pre           Inside a section; src registered (bsp_push_reg, then a
 *                bsp_sync) and not popped; dst valid until bsp_sync returns.
 * @par Errors
 *     Outside a section: "bspram: bsp_get: called outside a bsp_begin/bsp_end
 *     section"; pid ≥ P: "bspram: bsp_get(pid=9, src=0x…, dst=0x…, offset=0,
 *     nbytes=8): pid outside [0, 4) (superstep 3, pid 2)"; src not
 *     registered: "…: src is not a registered address (bsp_push_reg, then
 *     bsp_sync) (…)", or for NULL "…: src is NULL, and this process has no
 *     registration of NULL (…)"; out of bounds: "…: bytes [8, 16) outside the
 *     registration, which has 8 bytes on pid 1 (…)"; dst NULL with
 *     nbytes > 0: "bspram: bsp_get(pid=1, src=0x…, offset=0, dst=NULL,
 *     nbytes=8): dst is NULL (…)"; over MPI, an offset of 2^40 or more (as
 *     bsp_put). Exit status 1.
 * @par BSP cost
 *     A 32-byte request now; at the sync a second exchange in which pid sends
 *     8 + nbytes bytes back, and one local copy of the superstep's puts and
 *     sends received by each process (kept until the replies have landed).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst, bsp_size_t nbytes);

/* bsp_get that may transfer at any time up to the sync; here exactly
 * bsp_get.
 *
 * @param pid     the process to read from, in [0, P)
 * @param src     the caller's own address of the registration
 * @param offset  the byte offset in pid's registration
 * @param dst     where the bytes land at the sync; NULL only with
 *                nbytes = 0
 * @param nbytes  the number of bytes, within pid's registration
 * @pre           As bsp_get.
 * @par Errors
 *     As bsp_get, each line naming bsp_hpget. Exit status 1.
 * @par BSP cost
 *     As bsp_get.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_hpget(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
               bsp_size_t nbytes);

/* MulticoreBSP's blocking get: copy nbytes from pid's registration of src
 * (offset `offset`) to dst now, as that memory stood after the last
 * bsp_sync (it waits for pid to have finished landing that sync's puts).
 * It is a direct shared-memory read, not a message: it does not appear in
 * the records.
 *
 * @param pid     the process to read from, in [0, P)
 * @param src     the caller's own address of the registration
 * @param offset  the byte offset in pid's registration
 * @param dst     where the bytes are copied, now; NULL only with nbytes = 0
 * @param nbytes  the number of bytes, within pid's registration
 * @pre           As bsp_get; nobody writes the bytes read in this superstep;
 *                a shared-memory transport (not libbspram-mpi).
 * @par Errors
 *     As bsp_get, each line naming bsp_direct_get; over MPI, always:
 *     "bspram: bsp_direct_get(pid=1, src=0x…, offset=0, dst=0x…, nbytes=8):
 *     the library's transport has no one-sided read (MPI); use bsp_get
 *     (superstep 3, pid 2)". Exit status 1.
 * @par BSP cost
 *     O(nbytes) local work; no message, no superstep.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_direct_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
                    bsp_size_t nbytes);

/* ---- BSMP: bulk synchronous message passing ---- */

/* Set the tag size (bytes) of messages sent from the next superstep on;
 * *tag_bytes receives the tag size in force now. Collective: every process
 * must call it in the same superstep, with the same value. Initially 0.
 *
 * @param tag_bytes in: the new tag size; out: the tag size in force now;
 *                must not be NULL
 * @pre           Inside a section; every process calls it in this
 *                superstep, with the same size.
 * @par Errors
 *     Outside a section: "bspram: bsp_set_tagsize: called outside a
 *     bsp_begin/bsp_end section"; tag_bytes NULL: "bspram:
 *     bsp_set_tagsize(tag_bytes=NULL): tag_bytes must point to the new size
 *     (superstep 1, pid 0)"; a size above 2^62: "bspram:
 *     bsp_set_tagsize(*tag_bytes=…): the tag size must be at most
 *     4611686018427387904 bytes (a negative int size?) (…)". At the next
 *     bsp_sync: "bspram: bsp_set_tagsize: called by pid 0 but not by pid 3
 *     in superstep 1; all processes must call it in the same superstep"
 *     (even with the size in force), "bspram: bsp_set_tagsize: processes set
 *     different tag sizes in superstep 1: pid 0 has 8, pid 2 has 4; all must
 *     set the same". Exit status 1.
 * @par BSP cost
 *     O(1) now; one barrier (no record) at the next sync.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_set_tagsize(bsp_size_t *tag_bytes);

/* Send a message — a tag of the current tag size and nbytes of payload, both
 * copied now — to process pid's queue, readable after the next bsp_sync
 * (and only in that superstep). Zero-length payloads are legal.
 *
 * @param pid     the destination process, in [0, P)
 * @param tag     the tag (the tag size in force, bytes); NULL only while the
 *                tag size is 0
 * @param payload the payload; NULL only with nbytes = 0
 * @param nbytes  the payload's size in bytes, at most 2^62
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_send: called outside a bsp_begin/bsp_end
 *     section"; pid ≥ P: "bspram: bsp_send(pid=9, tag=0x…, payload=0x…,
 *     nbytes=8): pid outside [0, 4) (superstep 3, pid 2)"; tag NULL with a
 *     tag size > 0: "bspram: bsp_send(pid=1, tag=NULL, payload=0x…,
 *     nbytes=8): tag is NULL but the tag size is 4 (…)"; payload NULL with
 *     nbytes > 0: "…(pid=1, tag=0x…, payload=NULL, nbytes=8): payload is NULL
 *     (…)"; nbytes above 2^62: "…: nbytes is too large (at most
 *     4611686018427387904 bytes; a negative int size?) (…)". Exit status 1.
 * @par BSP cost
 *     One message of 8 + ⌈tagsize⌉₈ + nbytes bytes in the superstep's
 *     h-relation; O(tagsize + nbytes) local work and memory now (the copy).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_send(bsp_pid_t pid, const void *tag, const void *payload, bsp_size_t nbytes);

/* bsp_send that may read its arguments any time up to the sync; here
 * exactly bsp_send (tag and payload are copied now).
 *
 * @param pid     the destination process, in [0, P)
 * @param tag     the tag; NULL only while the tag size is 0
 * @param payload the payload; NULL only with nbytes = 0
 * @param nbytes  the payload's size in bytes
 * @pre           Inside a section.
 * @par Errors
 *     As bsp_send, each line naming bsp_hpsend. Exit status 1.
 * @par BSP cost
 *     As bsp_send.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_hpsend(bsp_pid_t pid, const void *tag, const void *payload, bsp_size_t nbytes);

/* The number of messages still in the queue and the sum of their payload
 * sizes.
 *
 * @param packets where the number of messages is stored; may be NULL
 * @param accumulated_size where the sum of their payload sizes is stored;
 *                may be NULL
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_qsize: called outside a
 *     bsp_begin/bsp_end section", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_qsize(bsp_nprocs_t *packets, bsp_size_t *accumulated_size);

/* The first message of the queue, without removing it: *status = its payload
 * size and its tag is copied to tag (the tag size of the superstep it was
 * sent in). On an empty queue *status = (bsp_size_t)-1 (the standard's −1)
 * and tag is untouched.
 *
 * @param status  where the payload size (or −1) is stored; must not be NULL
 * @param tag     where the tag is copied; NULL only if the queue's tag size
 *                is 0
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_get_tag: called outside a
 *     bsp_begin/bsp_end section"; status NULL: "bspram:
 *     bsp_get_tag(status=NULL, tag=0x…): status must not be NULL (superstep
 *     2, pid 0)"; tag NULL with a tag size > 0: "bspram:
 *     bsp_get_tag(status=0x…, tag=NULL): tag is NULL but the tag size is 4
 *     (…)". Exit status 1.
 * @par BSP cost
 *     None: local, O(tag size).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_get_tag(bsp_size_t *status, void *tag);

/* Copy at most max_copy_size bytes of the first message's payload to
 * payload and remove the message from the queue.
 *
 * @param payload where the payload is copied; NULL only if nothing is
 *                copied (max_copy_size or the payload 0)
 * @param max_copy_size the most bytes copied
 * @pre           Inside a section; the queue is not empty.
 * @par Errors
 *     Outside a section: "bspram: bsp_move: called outside a bsp_begin/bsp_end
 *     section"; an empty queue (the standard defines no status for it):
 *     "bspram: bsp_move(payload=0x…, max_copy_size=8): the message queue is
 *     empty (check bsp_qsize or bsp_get_tag first) (superstep 2, pid 0)";
 *     payload NULL with bytes to copy: "bspram: bsp_move(payload=NULL,
 *     max_copy_size=8): payload is NULL (…)". Exit status 1.
 * @par BSP cost
 *     None: local, O(bytes copied).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_move(void *payload, bsp_size_t max_copy_size);

/* Remove the first message and return its payload size, with *tag_ptr and
 * *payload_ptr pointing at its tag and payload inside the library (8-byte
 * aligned; valid until the next bsp_sync). On an empty queue returns
 * (bsp_size_t)-1 and leaves the pointers alone.
 *
 * @param tag_ptr where the tag's address is stored; must not be NULL
 * @param payload_ptr where the payload's address is stored; must not be
 *                NULL
 * @return        the payload size in bytes, or (bsp_size_t)-1 on an empty
 *                queue
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_hpmove: called outside a
 *     bsp_begin/bsp_end section"; "bspram: bsp_hpmove(tag_ptr=NULL,
 *     payload_ptr=0x…): tag_ptr must not be NULL (superstep 0, pid 1)";
 *     "bspram: bsp_hpmove(tag_ptr=0x…, payload_ptr=NULL): payload_ptr must
 *     not be NULL (…)". Exit status 1.
 * @par BSP cost
 *     None: local, O(1) (no copy).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
bsp_size_t bsp_hpmove(void **tag_ptr, void **payload_ptr);

/* ---- The int-typed API of the 1998 standard ----
 * Under -DBSPRAM_BSPLIB_INT the standard names below stand for these
 * functions (the macros follow). Each converts its arguments and calls the
 * bsp_size_t function of the same name, so semantics, errors and costs are
 * those above. Besides those errors: a negative P, pid, size, offset or
 * nbytes ("bsp_put(pid=1, src=…, dst=…, offset=0, nbytes=-4): nbytes is
 * negative (superstep 3, pid 0)"), a negative new tag size, and a count,
 * size or tag size that does not fit in an int where one is returned.
 * bsp_init, bsp_end, bsp_sync, bsp_abort, bsp_time and bsp_pop_reg have the
 * same signature in both APIs and need no twin. */

/* bsp_begin of the int-typed API (the name bsp_begin stands for under
 * -DBSPRAM_BSPLIB_INT): as bsp_begin(P).
 *
 * @param P       the number of processes, in [1, 65536]
 * @pre           As bsp_begin.
 * @par Errors
 *     P negative: "bspram: bsp_begin(P=-1): P is negative"; then every error
 *     of bsp_begin. Exit status 1.
 * @par BSP cost
 *     As bsp_begin: no superstep; starting P threads.
 * @par Thread safety
 *     The host only starts a section; processes 1..P−1 call it to join, as
 *     bsp_begin.
 */
void bspram_bsplib_int_begin(int P);

/* bsp_nprocs of the int-typed API: as bsp_nprocs(), as an int.
 *
 * @return        P as bsp_nprocs says (at most 65536, or the cores or ranks)
 * @pre           None.
 * @par Errors
 *     As bsp_nprocs: "bspram: bsp_nprocs(): BSPRAM_NPROCS=0 is not a whole
 *     number in [1, 65536]", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, as bsp_nprocs.
 */
int bspram_bsplib_int_nprocs(void);

/* bsp_pid of the int-typed API: this process's id, as an int.
 *
 * @return        the pid, in [0, P)
 * @pre           Inside a section.
 * @par Errors
 *     As bsp_pid: "bspram: bsp_pid(): called outside a bsp_begin/bsp_end
 *     section", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
int bspram_bsplib_int_pid(void);

/* bsp_push_reg of the int-typed API: as bsp_push_reg(address, size).
 *
 * @param address this process's area; NULL is legal ("nothing here")
 * @param size    its size in bytes, ≥ 0
 * @pre           As bsp_push_reg.
 * @par Errors
 *     Outside a section: "bspram: bsp_push_reg: called outside a
 *     bsp_begin/bsp_end section"; size negative: "bspram:
 *     bsp_push_reg(address=0x…, size=-8): size is negative (superstep 0,
 *     pid 1)"; then every error of bsp_push_reg. Exit status 1.
 * @par BSP cost
 *     As bsp_push_reg: O(1) now; one barrier and O(P) at the next sync.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_push_reg(const void *address, int size);

/* bsp_put of the int-typed API: as bsp_put(pid, src, dst, offset, nbytes).
 *
 * @param pid     the destination process, in [0, P)
 * @param src     the bytes to put (copied now); NULL only with nbytes = 0
 * @param dst     the caller's own address of the registration
 * @param offset  the byte offset in pid's registration, ≥ 0
 * @param nbytes  the number of bytes, ≥ 0, within pid's registration
 * @pre           As bsp_put.
 * @par Errors
 *     Outside a section: "bspram: bsp_put: called outside a bsp_begin/bsp_end
 *     section"; pid, offset or nbytes negative (the first named): "bspram:
 *     bsp_put(pid=1, src=0x…, dst=0x…, offset=0, nbytes=-4): nbytes is
 *     negative (superstep 3, pid 0)"; then every error of bsp_put. Exit
 *     status 1.
 * @par BSP cost
 *     As bsp_put: one message of 8 + nbytes bytes.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_put(int pid, const void *src, void *dst, int offset, int nbytes);

/* bsp_hpput of the int-typed API: as bsp_hpput(pid, src, dst, offset,
 * nbytes).
 *
 * @param pid     the destination process, in [0, P)
 * @param src     the bytes to put, unchanged until bsp_sync returns; NULL
 *                only with nbytes = 0
 * @param dst     the caller's own address of the registration
 * @param offset  the byte offset in pid's registration, ≥ 0
 * @param nbytes  the number of bytes, ≥ 0, within pid's registration
 * @pre           As bsp_hpput.
 * @par Errors
 *     Outside a section: "bspram: bsp_hpput: called outside a
 *     bsp_begin/bsp_end section"; pid, offset or nbytes negative: "bspram:
 *     bsp_hpput(pid=-1, src=0x…, dst=0x…, offset=0, nbytes=8): pid is
 *     negative (superstep 3, pid 0)"; then every error of bsp_hpput. Exit
 *     status 1.
 * @par BSP cost
 *     As bsp_hpput.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_hpput(int pid, const void *src, void *dst, int offset, int nbytes);

/* bsp_get of the int-typed API: as bsp_get(pid, src, offset, dst, nbytes).
 *
 * @param pid     the process to read from, in [0, P)
 * @param src     the caller's own address of the registration
 * @param offset  the byte offset in pid's registration, ≥ 0
 * @param dst     where the bytes land at the sync; NULL only with
 *                nbytes = 0
 * @param nbytes  the number of bytes, ≥ 0, within pid's registration
 * @pre           As bsp_get.
 * @par Errors
 *     Outside a section: "bspram: bsp_get: called outside a bsp_begin/bsp_end
 *     section"; pid, offset or nbytes negative: "bspram: bsp_get(pid=1,
 *     src=0x…, offset=-8, dst=0x…, nbytes=8): offset is negative (superstep
 *     3, pid 0)"; then every error of bsp_get. Exit status 1.
 * @par BSP cost
 *     As bsp_get.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_get(int pid, const void *src, int offset, void *dst, int nbytes);

/* bsp_hpget of the int-typed API: as bsp_hpget(pid, src, offset, dst,
 * nbytes).
 *
 * @param pid     the process to read from, in [0, P)
 * @param src     the caller's own address of the registration
 * @param offset  the byte offset in pid's registration, ≥ 0
 * @param dst     where the bytes land at the sync; NULL only with
 *                nbytes = 0
 * @param nbytes  the number of bytes, ≥ 0, within pid's registration
 * @pre           As bsp_get.
 * @par Errors
 *     Outside a section: "bspram: bsp_hpget: called outside a
 *     bsp_begin/bsp_end section"; pid, offset or nbytes negative: "bspram:
 *     bsp_hpget(pid=1, src=0x…, offset=0, dst=0x…, nbytes=-8): nbytes is
 *     negative (superstep 3, pid 0)"; then every error of bsp_hpget. Exit
 *     status 1.
 * @par BSP cost
 *     As bsp_get.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_hpget(int pid, const void *src, int offset, void *dst, int nbytes);

/* bsp_set_tagsize of the int-typed API: as bsp_set_tagsize, with the sizes
 * as ints.
 *
 * @param tag_bytes in: the new tag size, ≥ 0; out: the tag size in force
 *                now; must not be NULL
 * @pre           As bsp_set_tagsize.
 * @par Errors
 *     Outside a section: "bspram: bsp_set_tagsize: called outside a
 *     bsp_begin/bsp_end section"; tag_bytes NULL: "bspram:
 *     bsp_set_tagsize(tag_bytes=NULL): tag_bytes must point to the new size
 *     (superstep 1, pid 0)"; a negative size: "bspram:
 *     bsp_set_tagsize(*tag_bytes=-4): the tag size is negative (…)"; the
 *     size in force above INT_MAX: "bspram: bsp_set_tagsize: the tag size in
 *     force is …, which does not fit in an int (the int-typed API,
 *     BSPRAM_BSPLIB_INT) (…)"; then every error of bsp_set_tagsize. Exit
 *     status 1.
 * @par BSP cost
 *     As bsp_set_tagsize: one barrier at the next sync.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_set_tagsize(int *tag_bytes);

/* bsp_send of the int-typed API: as bsp_send(pid, tag, payload, nbytes).
 *
 * @param pid     the destination process, in [0, P)
 * @param tag     the tag; NULL only while the tag size is 0
 * @param payload the payload; NULL only with nbytes = 0
 * @param nbytes  the payload's size in bytes, ≥ 0
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_send: called outside a bsp_begin/bsp_end
 *     section"; pid or nbytes negative: "bspram: bsp_send(pid=1, tag=0x…,
 *     payload=0x…, nbytes=-1): nbytes is negative (superstep 3, pid 0)"; then
 *     every error of bsp_send. Exit status 1.
 * @par BSP cost
 *     As bsp_send: one message of 8 + ⌈tagsize⌉₈ + nbytes bytes.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_send(int pid, const void *tag, const void *payload, int nbytes);

/* bsp_hpsend of the int-typed API: as bsp_hpsend(pid, tag, payload,
 * nbytes).
 *
 * @param pid     the destination process, in [0, P)
 * @param tag     the tag; NULL only while the tag size is 0
 * @param payload the payload; NULL only with nbytes = 0
 * @param nbytes  the payload's size in bytes, ≥ 0
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_hpsend: called outside a
 *     bsp_begin/bsp_end section"; pid or nbytes negative: "bspram:
 *     bsp_hpsend(pid=-2, tag=0x…, payload=0x…, nbytes=8): pid is negative
 *     (superstep 3, pid 0)"; then every error of bsp_hpsend. Exit status 1.
 * @par BSP cost
 *     As bsp_send.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_hpsend(int pid, const void *tag, const void *payload, int nbytes);

/* bsp_qsize of the int-typed API: as bsp_qsize, with the counts as ints.
 *
 * @param packets where the number of messages is stored; may be NULL
 * @param accumulated_size where the sum of their payload sizes is stored;
 *                may be NULL
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_qsize: called outside a
 *     bsp_begin/bsp_end section"; a count above INT_MAX: "bspram: bsp_qsize:
 *     the accumulated payload size is …, which does not fit in an int (the
 *     int-typed API, BSPRAM_BSPLIB_INT) (superstep 2, pid 0)" (or "the
 *     number of messages"). Exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_qsize(int *packets, int *accumulated_size);

/* bsp_get_tag of the int-typed API: as bsp_get_tag, with *status = -1 on
 * an empty queue, as the standard says.
 *
 * @param status  where the payload size (or −1) is stored; must not be NULL
 * @param tag     where the tag is copied; NULL only if the queue's tag size
 *                is 0
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_get_tag: called outside a
 *     bsp_begin/bsp_end section"; every error of bsp_get_tag ("bspram:
 *     bsp_get_tag(status=NULL, tag=0x…): status must not be NULL (superstep
 *     2, pid 0)"); a payload size above INT_MAX: "bspram: bsp_get_tag: the
 *     payload size is …, which does not fit in an int (the int-typed API,
 *     BSPRAM_BSPLIB_INT) (…)". Exit status 1.
 * @par BSP cost
 *     None: local, O(tag size).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_get_tag(int *status, void *tag);

/* bsp_move of the int-typed API: as bsp_move(payload, max_copy_size).
 *
 * @param payload where the payload is copied; NULL only if nothing is
 *                copied
 * @param max_copy_size the most bytes copied, ≥ 0
 * @pre           Inside a section; the queue is not empty.
 * @par Errors
 *     Outside a section: "bspram: bsp_move: called outside a bsp_begin/bsp_end
 *     section"; max_copy_size negative: "bspram: bsp_move(payload=0x…,
 *     max_copy_size=-1): max_copy_size is negative (superstep 2, pid 0)";
 *     then every error of bsp_move. Exit status 1.
 * @par BSP cost
 *     None: local, O(bytes copied).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bspram_bsplib_int_move(void *payload, int max_copy_size);

/* bsp_hpmove of the int-typed API: as bsp_hpmove, returning -1 on an empty
 * queue.
 *
 * @param tag_ptr where the tag's address is stored; must not be NULL
 * @param payload_ptr where the payload's address is stored; must not be
 *                NULL
 * @return        the payload size in bytes, or −1 on an empty queue
 * @pre           Inside a section.
 * @par Errors
 *     Outside a section: "bspram: bsp_hpmove: called outside a
 *     bsp_begin/bsp_end section"; every error of bsp_hpmove; a payload size
 *     above INT_MAX: "bspram: bsp_hpmove: the payload size is …, which does
 *     not fit in an int (the int-typed API, BSPRAM_BSPLIB_INT) (superstep 2,
 *     pid 0)". Exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
int bspram_bsplib_int_hpmove(void **tag_ptr, void **payload_ptr);

BSPRAM_END_DECLS

#if defined(BSPRAM_BSPLIB_INT)
/* The 1998 standard's types: `bsp_size_t n, m; bsp_qsize(&n, &m);` hands
 * int * to the int-typed bsp_qsize. */
#undef bsp_pid_t
#undef bsp_nprocs_t
#undef bsp_size_t
typedef int bsp_pid_t;
typedef int bsp_nprocs_t;
typedef int bsp_size_t;
/* Object-like macros: a call, `&bsp_put` and `(bsp_put)(...)` all reach the
 * int-typed function. */
#define bsp_begin bspram_bsplib_int_begin
#define bsp_nprocs bspram_bsplib_int_nprocs
#define bsp_pid bspram_bsplib_int_pid
#define bsp_push_reg bspram_bsplib_int_push_reg
#define bsp_put bspram_bsplib_int_put
#define bsp_hpput bspram_bsplib_int_hpput
#define bsp_get bspram_bsplib_int_get
#define bsp_hpget bspram_bsplib_int_hpget
#define bsp_set_tagsize bspram_bsplib_int_set_tagsize
#define bsp_send bspram_bsplib_int_send
#define bsp_hpsend bspram_bsplib_int_hpsend
#define bsp_qsize bspram_bsplib_int_qsize
#define bsp_get_tag bspram_bsplib_int_get_tag
#define bsp_move bspram_bsplib_int_move
#define bsp_hpmove bspram_bsplib_int_hpmove
#elif !defined(__cplusplus) && !defined(BSPRAM_BUILDING_LIBRARY) && \
    ((defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) || defined(__GNUC__))
/* The int-typed program's pointers, caught at compile time. C converts an
 * int * to a size_t * with a mere warning, and then the library stores 8
 * bytes into 4; so each pointer argument that is written through must have
 * the right type, or be a null pointer constant (NULL, 0). The check sits
 * inside the expression (in a struct in sizeof, unevaluated), so it stops
 * the compiler at any optimisation level; the expression then calls the
 * function itself (a macro's own name is not expanded again), and
 * `&bsp_qsize` or `(bsp_qsize)(...)` reach the function directly.
 *   C11 and later: a _Static_assert on a _Generic selection, with the
 *   message.
 *   C89 and C99 with GCC or Clang (-std=c99, gnu89, ...): GNU builtins that
 *   every mode has, and an array of negative size whose name is the
 *   message (before C11, glibc turns _Static_assert into a declaration that
 *   cannot stand in a struct, and -Wpedantic warns of _Generic).
 * Other pre-C11 compilers go without the check; so does C++, which rejects
 * the mismatch anyway, and the library, which defines these functions (it
 * compiles with BSPRAM_BUILDING_LIBRARY). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#if __STDC_VERSION__ >= 202311L
#define BSPRAM_NULLPTR_T_ typeof(nullptr) : 1,
#else
#define BSPRAM_NULLPTR_T_
#endif
#define BSPRAM_POINTS_TO_(arg, type) \
    _Generic((arg), type *: 1, void *: 1, int: 1, BSPRAM_NULLPTR_T_ default: 0)
#define BSPRAM_POINTER_CHECK_(arg, type, message, name) \
    (void)sizeof(struct { \
        _Static_assert(BSPRAM_POINTS_TO_(arg, type), message); \
        int bspram_checked_; \
    })
#else
#define BSPRAM_POINTS_TO_(arg, type) \
    (__builtin_types_compatible_p(__typeof__(arg), type *) || \
     __builtin_types_compatible_p(__typeof__(arg), void *) || \
     __builtin_types_compatible_p(__typeof__(arg), int))
#define BSPRAM_POINTER_CHECK_(arg, type, message, name) \
    (void)sizeof(struct { int name[BSPRAM_POINTS_TO_(arg, type) ? 1 : -1]; })
#endif
#define BSPRAM_INT_HINT_ "; an int-typed BSPlib program needs -DBSPRAM_BSPLIB_INT"
#define bsp_set_tagsize(tag_bytes) \
    (BSPRAM_POINTER_CHECK_(tag_bytes, bsp_size_t, \
                           "bsp_set_tagsize takes a bsp_size_t * (size_t *)" BSPRAM_INT_HINT_, \
                           bsp_set_tagsize_takes_a_size_t_pointer_INT_PROGRAMS_NEED_DBSPRAM_BSPLIB_INT), \
     bsp_set_tagsize(tag_bytes))
#define bsp_qsize(packets, accumulated_size) \
    (BSPRAM_POINTER_CHECK_(packets, bsp_nprocs_t, \
                           "bsp_qsize takes a bsp_nprocs_t * (unsigned *) as packets" \
                           BSPRAM_INT_HINT_, \
                           bsp_qsize_takes_an_unsigned_pointer_INT_PROGRAMS_NEED_DBSPRAM_BSPLIB_INT), \
     BSPRAM_POINTER_CHECK_(accumulated_size, bsp_size_t, \
                           "bsp_qsize takes a bsp_size_t * (size_t *) as accumulated_size" \
                           BSPRAM_INT_HINT_, \
                           bsp_qsize_takes_a_size_t_pointer_INT_PROGRAMS_NEED_DBSPRAM_BSPLIB_INT), \
     bsp_qsize(packets, accumulated_size))
#define bsp_get_tag(status, tag) \
    (BSPRAM_POINTER_CHECK_(status, bsp_size_t, \
                           "bsp_get_tag takes a bsp_size_t * (size_t *) as status" \
                           BSPRAM_INT_HINT_, \
                           bsp_get_tag_takes_a_size_t_pointer_INT_PROGRAMS_NEED_DBSPRAM_BSPLIB_INT), \
     bsp_get_tag(status, tag))
#endif

#endif
