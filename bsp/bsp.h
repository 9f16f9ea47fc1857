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
 * Processes and the machine. bsp_begin(P) starts P BSP processes, one OpenMP
 * thread each, as the SPMD style of a bspram machine (bsp/machine.h) with
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
 * (or `#define BSPRAM_BSPLIB_INT` before including <bsp.h>). Then every
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
 * processes 1..P−1 run, whose first statement is bsp_begin. argc/argv are
 * kept for compatibility (every process can read its own). Call it before
 * bsp_begin, outside a BSP section (argv may be NULL).
 * Errors: called inside a BSP section; spmd NULL. Cost: none. */
void bsp_init(void (*spmd)(void), int argc, char **argv);

/* Start P BSP processes (pid 0..P−1); the caller becomes pid 0. P may exceed
 * the number of cores (oversubscription; each process is a thread).
 * On processes 1..P−1 it only joins the section (P must be the same).
 * Errors: P = 0 or P > 65536; bsp_begin inside a BSP section on pid 0;
 * P differing between processes. Cost: starting P threads (tens of µs). */
void bsp_begin(bsp_pid_t P);

/* End the BSP section: collective, like a last bsp_sync (labelled "bsp_end"
 * in the records; its puts/gets/sends are delivered). Processes 1..P−1 then
 * stop (leave the SPMD function); pid 0 returns from bsp_end, after the
 * machine has written its trace (BSPRAM_TRACE).
 * Errors: called outside a section; some processes in bsp_end while others
 * are in bsp_sync ("… reached bsp_end while other processes are in bsp_sync").
 * Over MPI the first process of each rank other than 0 goes back to waiting
 * for rank 0's next section (the program ends there when rank 0's ends).
 * Cost: one superstep (as bsp_sync) plus joining the threads. */
void bsp_end(void);

/* Print the formatted message (printf-style, as given: add '\n' yourself) on
 * stderr and stop every process at once, even those waiting in bsp_sync; the
 * program exits with status 1. A message that prints nothing (bsp_abort(""))
 * is replaced by one line naming the process and the superstep; a NULL
 * format is refused ("bsp_abort(format=NULL): format must not be NULL").
 * Callable from any process, at any time, also outside a BSP section. Never
 * returns. */
void bsp_abort(const char *format, ...) __attribute__((format(printf, 1, 2), noreturn));
void bsp_vabort(const char *format, va_list args) __attribute__((format(printf, 1, 0), noreturn));

/* Inside a section: the number of processes P. Outside: after a section,
 * that section's P; before the first, $BSPRAM_NPROCS if set (so that a
 * program doing bsp_begin(bsp_nprocs()) runs with more processes than cores:
 * BSPRAM_NPROCS=64 ./prog), else the number of cores this program may run on
 * (over MPI: the number of ranks).
 * Error (fatal): BSPRAM_NPROCS not a whole number in [1, 65536].
 * Cost: O(1) (reads the environment outside a section). */
bsp_pid_t bsp_nprocs(void);

/* This process's id in [0, P). Errors: outside a section. Cost: O(1). */
bsp_pid_t bsp_pid(void);

/* Seconds of wall time since bsp_begin (one clock shared by all processes).
 * Errors: outside a section. Cost: O(1). */
double bsp_time(void);

/* ---- bspram's extension: the records in the course's terms ----
 *
 * Every superstep is a record (BSPRAM_TRACE, bsp/trace.h; `bspram prof`
 * draws them): by default labelled "bsp_sync" and with no local work. These
 * two calls give a trace the w and the names of a BSP cost analysis, so that
 * W + g·H + l·S can be priced against the measured time. */

/* The label of the records of the supersteps the following bsp_syncs end
 * (at most 31 bytes; NULL or "" restores "bsp_sync"); collectives label
 * their own supersteps and leave it in force after them. Call it alike in
 * every process (SPMD code does): the records take the name given by the
 * first process of each rank (pid 0 on one machine). Errors: outside a
 * section; a name of 32 bytes or more, or with a control character.
 * Cost: O(1). */
void bsp_label(const char *name);

/* Declare w units of local work (e.g. flops) done by this process in the
 * current superstep: the superstep's record holds the most any process
 * declared (BSP's w), each process's calls adding up. Errors: outside a
 * section. Cost: O(1). */
void bsp_work(uint64_t w);

/* End the superstep: deliver every put, get and send issued in it, make
 * registrations and the tag size set in it take effect, and empty the
 * message queue, replacing it by the messages sent in this superstep.
 * Collective: every process must call it equally often.
 * Errors: called outside a section; some processes in bsp_end while others
 * are in bsp_sync; registrations not matching between processes;
 * bsp_set_tagsize called by only some processes, or with values differing
 * between processes.
 * Cost: l + g·h with h the byte h-relation of the superstep's messages
 * (see the top of this file); a second exchange (another l + g·h) if some
 * process issued a get; one barrier more if registrations or the tag size
 * changed; with bsp_shm.h, the combining batch of the superstep's requests
 * and the collective calls' barriers (see there). */
void bsp_sync(void);

/* ---- DRMA: registration ---- */

/* Register `size` bytes at `address` for remote access, from the next
 * bsp_sync on. Registrations are matched between processes by the order of
 * the calls: the k-th bsp_push_reg of every process names the same slot, and
 * each process may give its own address and size (stack variables included;
 * NULL or size 0 is legal and means "nothing here"). Registering an address
 * twice is allowed; the newest registration is the one used.
 * Errors (at the next bsp_sync, naming the processes): processes that pushed
 * (or popped) different numbers of registrations, or in a different order.
 * Cost: O(1) now; at the sync one barrier and O(P) per registration. */
void bsp_push_reg(const void *address, bsp_size_t size);

/* Remove a registration at the next bsp_sync. The k-th pop of every process
 * removes one slot: the one named by the processes that pass an address
 * (each one's newest registration of it). A process that registered NULL
 * there passes NULL and follows them, so its NULL registrations may be
 * popped in any order; if every process passes NULL, the newest slot that is
 * NULL on every process is removed.
 * Errors (at the next bsp_sync): address not registered on this process;
 * addresses naming different slots on different processes; NULL on a
 * process that registered memory in the slot named; NULL everywhere with no
 * slot NULL everywhere; numbers differ.
 * Cost: O(1) now; at the sync O(P·R), R = live registrations. */
void bsp_pop_reg(const void *address);

/* ---- DRMA: communication ---- */

/* Copy nbytes from src (local) to process pid's registration of dst, at
 * byte offset `offset`, at the next bsp_sync. dst is the caller's address of
 * the registration (the slot is found by it); src is copied now (buffered),
 * so it may be reused at once. Puts to the same place land in a defined
 * order: by source pid, then by order of issue. Self-puts work.
 * Errors: outside a section; pid ∉ [0, P); dst not registered; bytes
 * [offset, offset+nbytes) outside pid's registration; src NULL with nbytes > 0.
 * Cost: one message of 8 + nbytes bytes (O(nbytes) now). */
void bsp_put(bsp_pid_t pid, const void *src, const void *dst, bsp_size_t offset,
             bsp_size_t nbytes);

/* bsp_put without the guarantee that src is copied now: BSPlib allows the
 * transfer at any time up to the end of the sync, so src (and dst) must not
 * change until bsp_sync returns. Below 4096 bytes it is copied now, exactly
 * as bsp_put. From 4096 bytes on it is unbuffered: a 32-byte message tells
 * pid where to copy from, pid copies straight from this process's memory at
 * the sync (one copy instead of two), and the sync ends with one extra
 * barrier so that no process reuses its sources before they were copied.
 * Same errors. Cost: counted as one message of 8 + nbytes bytes, like
 * bsp_put (the records count the bytes that move); plus that barrier. */
void bsp_hpput(bsp_pid_t pid, const void *src, const void *dst, bsp_size_t offset,
               bsp_size_t nbytes);

/* Copy nbytes from process pid's registration of src (at byte offset
 * `offset`) to dst (local, any memory) at the next bsp_sync. The value read
 * is the one from before the superstep's puts land (all gets of a sync are
 * served before any put lands), and it is written into dst before those
 * puts land (a put into the same bytes wins). Self-gets work.
 * Errors: outside a section; pid ∉ [0, P); src not registered; bytes
 * [offset, offset+nbytes) outside pid's registration; dst NULL with nbytes > 0.
 * Cost: a 32-byte request now; at the sync a second exchange in which pid
 * sends 8 + nbytes bytes back, and one local copy of the superstep's puts and
 * sends received by each process (kept until the replies have landed). */
void bsp_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst, bsp_size_t nbytes);

/* bsp_get that may transfer at any time up to the sync; here exactly bsp_get. */
void bsp_hpget(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
               bsp_size_t nbytes);

/* MulticoreBSP's blocking get: copy nbytes from pid's registration of src
 * (offset `offset`) to dst now, as that memory stood after the last
 * bsp_sync (it waits for pid to have finished landing that sync's puts).
 * The caller must ensure nobody writes that memory in this superstep.
 * It is a direct shared-memory read, not a message: it does not appear in
 * the records. Errors: as bsp_get; over MPI (libbspram-mpi), always: there
 * is no one-sided read there. Cost: O(nbytes) local work. */
void bsp_direct_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
                    bsp_size_t nbytes);

/* ---- BSMP: bulk synchronous message passing ---- */

/* Set the tag size (bytes) of messages sent from the next superstep on;
 * *tag_bytes receives the tag size in force now. Collective: every process
 * must call it in the same superstep, with the same value. Initially 0.
 * Errors: outside a section; tag_bytes NULL; (at the next bsp_sync) called
 * by some processes but not all (even with the size in force); processes
 * setting different sizes. Cost: one barrier at the next sync. */
void bsp_set_tagsize(bsp_size_t *tag_bytes);

/* Send a message — a tag of the current tag size and nbytes of payload, both
 * copied now — to process pid's queue, readable after the next bsp_sync
 * (and only in that superstep). Zero-length payloads are legal.
 * Errors: outside a section; pid ∉ [0, P); tag NULL with a tag size > 0;
 * payload NULL with nbytes > 0. Cost: one message of 8 + ⌈tagsize⌉₈ + nbytes. */
void bsp_send(bsp_pid_t pid, const void *tag, const void *payload, bsp_size_t nbytes);

/* bsp_send that may read its arguments any time up to the sync; here
 * exactly bsp_send. */
void bsp_hpsend(bsp_pid_t pid, const void *tag, const void *payload, bsp_size_t nbytes);

/* The number of messages still in the queue and the sum of their payload
 * sizes (either pointer may be NULL). Errors: outside a section. Cost: O(1). */
void bsp_qsize(bsp_nprocs_t *packets, bsp_size_t *accumulated_size);

/* The first message of the queue, without removing it: *status = its payload
 * size and its tag is copied to tag (the tag size of the superstep it was
 * sent in). On an empty queue *status = (bsp_size_t)-1 (the standard's −1)
 * and tag is untouched. Errors: outside a section; status NULL. Cost: O(tag). */
void bsp_get_tag(bsp_size_t *status, void *tag);

/* Copy at most max_copy_size bytes of the first message's payload to
 * payload and remove the message from the queue.
 * Errors: outside a section; the queue is empty (the standard defines no
 * status for it); payload NULL with max_copy_size > 0. Cost: O(bytes copied). */
void bsp_move(void *payload, bsp_size_t max_copy_size);

/* Remove the first message and return its payload size, with *tag_ptr and
 * *payload_ptr pointing at its tag and payload inside the library (8-byte
 * aligned; valid until the next bsp_sync). On an empty queue returns
 * (bsp_size_t)-1 and leaves the pointers alone.
 * Errors: outside a section; a pointer argument NULL. Cost: O(1). */
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
void bspram_bsplib_int_begin(int P);
int bspram_bsplib_int_nprocs(void);
int bspram_bsplib_int_pid(void);
void bspram_bsplib_int_push_reg(const void *address, int size);
void bspram_bsplib_int_put(int pid, const void *src, void *dst, int offset, int nbytes);
void bspram_bsplib_int_hpput(int pid, const void *src, void *dst, int offset, int nbytes);
void bspram_bsplib_int_get(int pid, const void *src, int offset, void *dst, int nbytes);
void bspram_bsplib_int_hpget(int pid, const void *src, int offset, void *dst, int nbytes);
void bspram_bsplib_int_set_tagsize(int *tag_bytes);
void bspram_bsplib_int_send(int pid, const void *tag, const void *payload, int nbytes);
void bspram_bsplib_int_hpsend(int pid, const void *tag, const void *payload, int nbytes);
void bspram_bsplib_int_qsize(int *packets, int *accumulated_size);
/* *status = -1 on an empty queue, as the standard says. */
void bspram_bsplib_int_get_tag(int *status, void *tag);
void bspram_bsplib_int_move(void *payload, int max_copy_size);
/* -1 on an empty queue. */
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
