/* bspram — the machine's inside: teams, lanes and the SPMD style.
 *
 * What bsp/machine.h's bulk style and BSPlib (bsp.h) are built on, and what
 * the combining engine and the PRAM use to run their phases as supersteps of
 * whatever team is running. Not installed: a program uses bsp/machine.h or
 * bsp.h.
 *
 *   team   bspram__bsp_machine_team: the T threads run one function together,
 *          each as a *lane* serving its block of components (router.h), and
 *          end supersteps collectively (bspram__bsp_team_each,
 *          bspram__bsp_team_exchange). The bulk style is a team; so is the
 *          combining engine, whose phases are supersteps of whatever team
 *          runs it — a host-side batch, a bulk program between its own
 *          supersteps, or an SPMD program (p = T, each thread its own lane:
 *          bspram__bsp_component_team). One start of the team's threads per
 *          team (bsp/threads.h), however many supersteps.
 *   SPMD   bspram__bsp_machine_spmd: p = T, each thread runs one component's
 *          whole program and calls bspram__bsp_sync(). BSPlib is built on it.
 *
 * Every function is specified under the public headers' headings (what it
 * does, @param, @return, @pre, @par Errors, @par BSP cost, @par Thread
 * safety; tests/headers/headings.sh checks them here too, as the test
 * contract_headings). Thread safety names one of: "Any thread"; "The host
 * only" (a thread outside the machine's team: the program's, or BSPlib's
 * driver thread); "A lane inside its team" (the thread of that lane, inside
 * the function bspram__bsp_machine_team runs, or an SPMD program through
 * bspram__bsp_component_team); "The host or the process's leading lane"
 * (the host collectives below); "A component inside its step" (the thread
 * running a bulk step or an SPMD program for that component).
 *
 * Errors: every fatal error is one line on stderr, "bspram: " and the text
 * quoted, and exit status 1 (base/error.h); the lines quoted below have
 * example numbers. A NULL handle or buffer where one is needed is refused
 * in one line naming the function and the argument ("bspram:
 * bspram__bsp_team_lane(t=NULL): t must not be NULL"), except where a
 * function says it is not checked (the record channel's hot path). A line
 * that begins "internal error" reports a misuse of this contract by the
 * layers above, not a program's error.
 */
#ifndef BSPRAM_BSP_MACHINE_INTERNAL_H
#define BSPRAM_BSP_MACHINE_INTERNAL_H

#include <sched.h>

#include "bsp/machine.h"
#include "router/router.h" /* bspram__run */

/* A lane of a running team: valid inside the team function (or, from
 * bspram__bsp_component_team, for the SPMD program's lifetime). */
typedef struct bspram_team bspram_team;

/* The router (router/router.h). */
typedef struct bspram_router bspram_router;

/* The machine's router (router/router.h), for bsp/'s own files (BSPlib) and
 * white-box tests.
 *
 * The layers above use the verbs below, which say what a rank holds and
 * share it in the machine's words.
 *
 * @param m       the machine; not NULL
 * @return        its router, owned by m (freed by bspram_machine_destroy)
 * @pre           None.
 * @par Errors
 *     m NULL: "bspram: bspram__bsp_machine_router(m=NULL): m must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread (it reads what create fixed); what the caller then does
 *     with the router follows router/router.h's rules.
 */
bspram_router *bspram__bsp_machine_router(bspram_machine *m);

/* A BSPlib section's machine (bsp/bsplib_spmd.c): spread over the MPI ranks
 * in blocks even when P is below the ranks, where bspram_machine_create
 * would run a bulk machine whole on every rank (a process's effects must
 * happen once).
 *
 * Otherwise bspram_machine_create: config copied, an empty log, the lanes
 * in blocks over the ranks (config->threads raised to the number of ranks
 * when p is at least that; below it, not raised, so some ranks may have no
 * lane).
 *
 * @param config  the machine's parameters; copied; not NULL (not checked)
 * @return        the machine (free it with bspram_machine_destroy); never NULL
 * @pre           None.
 * @par Errors
 *     bspram_machine_create's, in lines that name bspram_machine_create
 *     ("bspram: bspram_machine_create(p=0, threads=2): p must be in [1,
 *     4294967295]", a thread count, g or l out of range, an unknown
 *     BSPRAM_TRANSPORT, out of memory). config is not checked for NULL.
 * @par BSP cost
 *     As bspram_machine_create: no superstep; O(T·p) of address space for
 *     the outboxes, p × local_bytes of local state.
 * @par Thread safety
 *     The host only. Over MPI every rank creates its machines alike and in
 *     the same order.
 */
bspram_machine *bspram__bsp_machine_create_spread(const bspram_config *config);

/* ---- over MPI ranks: what this rank holds, and the host collectives ----
 *
 * Over MPI (libbspram-mpi) a machine's lanes, and so its components, are
 * spread over the ranks in blocks, and a rank holds the state of its own
 * components only: the cells they own, the answers to their requests, their
 * local state (docs/mpi.md). The host collectives give every rank what the
 * others hold, for the gathers a host asks for (the whole-array calls).
 * On a machine that is not spread — one process, or a machine of fewer
 * components than ranks, which runs whole on every rank — each is a no-op or
 * the identity, without a copy or a message (concat copies: it returns a new
 * buffer).
 *
 * Thread safety: every process of the job calls them alike, in the same
 * order, from one thread: the host between teams, or inside a team the
 * process's leading lane (bspram__bsp_team_leads) between two team barriers
 * while its other lanes wait. They are not supersteps: no exchange, no
 * record. Errors (fatal): a NULL machine, or a NULL buffer of more than 0
 * bytes; over MPI, a spread machine whose lanes leave some rank without one
 * (only bspram__bsp_machine_create_spread makes one: fewer components than
 * ranks), reported by rank 0 while the others wait for the job's end:
 * "bspram: merging the ranks' parts: the machine's 2 lanes leave MPI ranks
 * without a lane (3 ranks); a machine with fewer components than ranks
 * cannot share what its components hold" ("gathering the ranks' parts: …"
 * for concat and share_parts). */

/* Whether the machine is spread over several MPI ranks (alike on every
 * rank).
 *
 * True only over MPI with more than one rank, for a machine whose lanes
 * are spread over them (not one that runs whole on every rank).
 *
 * @param m       the machine; not NULL
 * @return        whether m is spread
 * @pre           None.
 * @par Errors
 *     m NULL: "bspram: bspram__bsp_machine_spread(m=NULL): m must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread (it reads what create fixed).
 */
bool bspram__bsp_machine_spread(const bspram_machine *m);

/* The components this rank holds, [*first, *end): [0, p) unless spread.
 *
 * The components of the rank's lanes (bspram__bsp_machine_lanes), which are
 * a block, in rank order.
 *
 * @param m       the machine; not NULL
 * @param first   receives the block's first component; not NULL
 * @param end     receives one past its last; not NULL
 * @pre           None.
 * @par Errors
 *     m, first or end NULL: "bspram: bspram__bsp_machine_block(first=NULL):
 *     first must not be NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread (it reads what create fixed).
 */
void bspram__bsp_machine_block(const bspram_machine *m, uint64_t *first, uint64_t *end);

/* The lanes this rank runs, [*lo, *hi): every lane [0, T) unless spread.
 *
 * Lane *lo is the rank's leading lane (bspram__bsp_team_leads).
 *
 * @param m       the machine; not NULL
 * @param lo      receives the rank's first lane; not NULL
 * @param hi      receives one past its last (maybe *lo: no lane); not NULL
 * @pre           None.
 * @par Errors
 *     m, lo or hi NULL: "bspram: bspram__bsp_machine_lanes(lo=NULL): lo
 *     must not be NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread (it reads what create fixed).
 */
void bspram__bsp_machine_lanes(const bspram_machine *m, unsigned *lo, unsigned *hi);

/* words[i] ← the sum (mod 2^64) of every rank's words[i], for i < n.
 *
 * Unless spread, nothing (the sum of one copy).
 *
 * @param m       the machine; not NULL
 * @param words   n words, summed in place; may be NULL only when n = 0
 * @param n       the number of words
 * @pre           Every rank calls it with the same n.
 * @par Errors
 *     m NULL, or words NULL with n > 0: "bspram:
 *     bspram__bsp_machine_sum(words=NULL): words must not be NULL"; a
 *     spread machine with a rank without a lane ("bspram: merging the
 *     ranks' parts: the machine's 2 lanes leave MPI ranks without a lane
 *     (3 ranks); …", above).
 * @par BSP cost
 *     None recorded (no superstep). Over MPI one MPI_Allreduce of n words;
 *     unless spread, O(1).
 * @par Thread safety
 *     The host or the process's leading lane, every process alike and in
 *     the same order (above).
 */
void bspram__bsp_machine_sum(bspram_machine *m, uint64_t *words, size_t n);

/* words[i] ← the bitwise OR of every rank's words[i], for i < n.
 *
 * Unless spread, nothing (the OR of one copy).
 *
 * @param m       the machine; not NULL
 * @param words   n words, OR'ed in place; may be NULL only when n = 0
 * @param n       the number of words
 * @pre           Every rank calls it with the same n.
 * @par Errors
 *     m NULL, or words NULL with n > 0: "bspram:
 *     bspram__bsp_machine_or(words=NULL): words must not be NULL"; a spread
 *     machine with a rank without a lane ("bspram: merging the ranks'
 *     parts: …", above).
 * @par BSP cost
 *     None recorded (no superstep). Over MPI one MPI_Allreduce of n words;
 *     unless spread, O(1).
 * @par Thread safety
 *     The host or the process's leading lane, every process alike and in
 *     the same order (above).
 */
void bspram__bsp_machine_or(bspram_machine *m, uint64_t *words, size_t n);

/* Every rank's `bytes` bytes at mine (the counts may differ), in rank
 * order, in a new buffer of *total bytes.
 *
 * Unless spread, a copy of mine (*total = bytes).
 *
 * @param m       the machine; not NULL
 * @param mine    this rank's bytes; may be NULL only when bytes = 0
 * @param bytes   how many, this rank's own count
 * @param total   receives the sum of the ranks' counts; not NULL
 * @return        the new buffer of *total bytes; free it
 * @pre           None.
 * @par Errors
 *     m or total NULL, or mine NULL with bytes > 0: "bspram:
 *     bspram__bsp_machine_concat(mine=NULL): mine must not be NULL"; out of
 *     memory ("bspram: gathering the ranks' parts: out of memory allocating
 *     64 bytes"); a spread machine with a rank without a lane ("bspram:
 *     gathering the ranks' parts: the machine's 2 lanes leave MPI ranks
 *     without a lane (3 ranks); …", above).
 * @par BSP cost
 *     None recorded (no superstep). Over MPI one MPI_Allgatherv of *total
 *     bytes; unless spread, O(bytes) for the copy.
 * @par Thread safety
 *     The host or the process's leading lane, every process alike and in
 *     the same order (above).
 */
void *bspram__bsp_machine_concat(bspram_machine *m, const void *mine, size_t bytes, size_t *total);

/* A word for which an owner function of bspram__bsp_machine_share_owned
 * returns this is owned by no component: every rank holds it alike. */
#define BSPRAM__BSP_EVERY_RANK UINT64_MAX

/* Share words that components own: afterwards every rank holds every word
 * as its owner's rank filled it.
 *
 * Word i (i < n) is owned by component owner(i, arg), and each rank has
 * filled the words its own components own (the others may hold anything).
 * A word for which owner returns BSPRAM__BSP_EVERY_RANK is owned by none:
 * every rank must hold the same value there, which it keeps. (Each rank
 * keeps the words of its block, zeroes the rest, and the ranks OR their
 * copies.) Calls owner once per word, unless the machine is not spread
 * (then nothing).
 *
 * @param m       the machine; not NULL
 * @param words   the n words, shared in place; may be NULL only when n = 0
 * @param n       the number of words, alike on every rank
 * @param owner   owner(i, arg): the component that owns word i, in [0, p),
 *                or BSPRAM__BSP_EVERY_RANK; not NULL
 * @param arg     passed to every call of owner; may be NULL
 * @pre           owner gives the same answers on every rank, and every
 *                rank holds the same value in a word owned by none.
 * @par Errors
 *     m or owner NULL, or words NULL with n > 0: "bspram:
 *     bspram__bsp_machine_share_owned(owner=NULL): owner must not be NULL";
 *     bspram__bsp_machine_or's (a rank without a lane, above).
 * @par BSP cost
 *     None recorded (no superstep). Over MPI O(n) owner calls and one
 *     MPI_Allreduce of n words; unless spread, O(1).
 * @par Thread safety
 *     The host or the process's leading lane, every process alike and in
 *     the same order (above).
 */
void bspram__bsp_machine_share_owned(bspram_machine *m, uint64_t *words, size_t n,
                                     uint64_t (*owner)(uint64_t i, const void *arg), const void *arg);

/* Share the parts of an array that components own: afterwards every rank
 * holds the whole array, at[p] elements.
 *
 * Component c owns the elements [at[c], at[c+1]) of `size` bytes at base,
 * and each rank has filled its own components' parts. With a filter,
 * element i of another rank's part is copied only if only(i, arg) is true
 * on that rank (say, the entries that are answers); the others keep this
 * rank's value. Unless spread, nothing.
 *
 * @param m       the machine; not NULL
 * @param base    the array, at[p] elements of size bytes, shared in place;
 *                may be NULL only when it has no byte
 * @param size    the bytes of one element
 * @param at      p + 1 non-decreasing offsets from at[0] = 0, alike on
 *                every rank; NULL: component c owns element c (p elements)
 * @param only    the filter, called as only(i, arg) for this rank's
 *                elements; NULL: every element (then arg is unused)
 * @param arg     passed to every call of only; may be NULL
 * @pre           at, if given, has p + 1 entries (not checked).
 * @par Errors
 *     m NULL, or base NULL for an array of more than 0 bytes: "bspram:
 *     bspram__bsp_machine_share_parts(base=NULL): base must not be NULL";
 *     the ranks' parts do not make at[p] elements (offsets that differ
 *     between ranks): "bspram: sharing the ranks' parts: they make 48
 *     bytes, not the 64 of 8 elements of 8 bytes (offsets that differ
 *     between ranks?)"; out of memory ("bspram: sharing the ranks' parts:
 *     out of memory allocating 5 bytes", or "gathering the ranks' parts:
 *     …"); a spread machine with a rank without a lane (above).
 * @par BSP cost
 *     None recorded (no superstep). Over MPI O(own part) only calls, one
 *     MPI_Allgatherv of the at[p] × size bytes, and with a filter one of
 *     at[p] bytes more, plus O(at[p] × size) of copying; unless spread,
 *     O(1).
 * @par Thread safety
 *     The host or the process's leading lane, every process alike and in
 *     the same order (above).
 */
void bspram__bsp_machine_share_parts(bspram_machine *m, void *base, size_t size, const uint64_t *at,
                                     bool (*only)(uint64_t i, const void *arg), const void *arg);

/* ---- teams ---- */

/* Run fn(team, arg) on the machine's T threads at once, thread l as lane l
 * (router.h: lane l serves components [first(l), first(l+1))).
 *
 * Every lane must make the same sequence of collective calls
 * (bspram__bsp_team_exchange, a combining batch, …); a lane whose function
 * returns while another is still exchanging is fatal (never a hang). Over
 * MPI each rank runs its own block of lanes (bspram__bsp_machine_lanes),
 * and the exchanges span the ranks. The records are complete on return.
 *
 * @param m       the machine; not NULL
 * @param fn      the team function, called once per lane with the lane's
 *                handle (valid until fn returns); not NULL
 * @param arg     passed to every call of fn; may be NULL
 * @pre           No team of m is running. Over MPI every rank calls it
 *                alike.
 * @par Errors
 *     Each one line: a team of m already running (a call from inside one
 *     of its steps or programs, or from another thread): "bspram: a team
 *     run of the machine: the machine's team is already running (a call
 *     from inside one of its steps or programs, or from another thread); a
 *     machine runs one team at a time"; threads that cannot be started:
 *     "bspram: a team run of the machine: could not start 4000 threads
 *     (Resource temporarily unavailable after 498); lower the number of
 *     threads, or raise the limits on threads and memory (ulimit -u,
 *     ulimit -v) or lower OMP_STACKSIZE"; m or fn NULL ("bspram:
 *     bspram__bsp_machine_team(fn=NULL): fn must not be NULL"); lanes that
 *     do not exchange equally often (bspram__bsp_team_exchange's line); and
 *     every error of the calls fn makes.
 * @par BSP cost
 *     One start of the team's threads (bsp/threads.h), plus what fn's
 *     supersteps cost: each bspram__bsp_team_exchange is one superstep and
 *     one record. No superstep of its own.
 * @par Thread safety
 *     The host only: one team of m at a time (a second is refused, above);
 *     teams of other machines may run at once, also from a lane of this
 *     one (bsp/threads.h).
 */
void bspram__bsp_machine_team(bspram_machine *m, void (*fn)(bspram_team *team, void *arg), void *arg);

/* bspram__bsp_machine_team for a public call that runs a team (a combining
 * batch, a shared-memory run, a PRAM phase).
 *
 * Its error lines — the machine's team already running, too few threads, a
 * NULL m or fn — name `call`, the function the program called, not this
 * one.
 *
 * @param m       the machine; not NULL
 * @param fn      the team function, as for bspram__bsp_machine_team; not
 *                NULL
 * @param arg     passed to every call of fn; may be NULL
 * @param call    the name the error lines give ("bspram_combine"); not
 *                NULL (not checked)
 * @pre           As bspram__bsp_machine_team.
 * @par Errors
 *     bspram__bsp_machine_team's, naming call: "bspram: bspram_combine: the
 *     machine's team is already running (…); a machine runs one team at a
 *     time"; "bspram: bspram_combine: could not start 4000 threads (…); …";
 *     "bspram: bspram_combine(fn=NULL): fn must not be NULL".
 * @par BSP cost
 *     As bspram__bsp_machine_team.
 * @par Thread safety
 *     The host only, as bspram__bsp_machine_team.
 */
void bspram__bsp_machine_team_for(bspram_machine *m, void (*fn)(bspram_team *team, void *arg), void *arg,
                                  const char *call);

/* The lane that t is, in [0, T).
 *
 * @param t       the lane's handle; not NULL
 * @return        the lane's number
 * @pre           None.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_lane(t=NULL): t must not be NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team.
 */
unsigned bspram__bsp_team_lane(const bspram_team *t);

/* Whether t is this process's first lane — lane 0 on one machine; over MPI
 * (libbspram-mpi) the first lane of each rank's block.
 *
 * It owns the label and appends the records, and is where a team does its
 * serial steps: over MPI every rank's first lane does them, on the rank's
 * own copy of the state.
 *
 * @param t       the lane's handle; not NULL
 * @return        whether t is the process's leading lane
 * @pre           None.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_leads(t=NULL): t must not be NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team.
 */
bool bspram__bsp_team_leads(const bspram_team *t);

/* The first component of the lane's block [first, end).
 *
 * @param t       the lane's handle; not NULL
 * @return        the block's first component
 * @pre           None.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_first(t=NULL): t must not be NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team.
 */
uint64_t bspram__bsp_team_first(const bspram_team *t);

/* One past the last component of the lane's block [first, end) (first for
 * a lane with an empty block).
 *
 * @param t       the lane's handle; not NULL
 * @return        the block's end
 * @pre           None.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_end(t=NULL): t must not be NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team.
 */
uint64_t bspram__bsp_team_end(const bspram_team *t);

/* The exchanges so far in the machine: the number of the current
 * superstep, counting every superstep since create, as bspram_superstep.
 *
 * @param t       the lane's handle; not NULL
 * @return        the current superstep's number
 * @pre           None.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_superstep(t=NULL): t must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team.
 */
uint64_t bspram__bsp_team_superstep(const bspram_team *t);

/* The machine the team runs on.
 *
 * @param t       the lane's handle; not NULL
 * @return        the machine
 * @pre           None.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_machine(t=NULL): t must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team.
 */
bspram_machine *bspram__bsp_team_machine(const bspram_team *t);

/* Run step once for every component of the lane's block, in increasing pid
 * order (each sees its inbox and may send, as in the bulk style).
 *
 * Not collective: no exchange, no barrier; the superstep ends at the
 * lane's next bspram__bsp_team_exchange. The components are bulk-style
 * handles (bspram__bsp_sync and bspram__bsp_component_team refuse them).
 *
 * @param t       the lane's handle; not NULL
 * @param step    called as step(self, arg) for each component; not NULL
 * @param arg     passed to every call of step; may be NULL
 * @return        whether some call returned true
 * @pre           None.
 * @par Errors
 *     t or step NULL: "bspram: bspram__bsp_team_each(step=NULL): step must
 *     not be NULL"; and every error of the calls the steps make.
 * @par BSP cost
 *     None of its own: what the steps post and declare counts in the
 *     current superstep. Local work O(block) calls, plus the steps'.
 * @par Thread safety
 *     A lane inside its team.
 */
bool bspram__bsp_team_each(bspram_team *t, bspram_step_fn step, void *arg);

/* bspram__bsp_team_each for steps that read only their own inbox and keep
 * nothing of it past their return: after each call the component's inbox
 * is released (router.h, bspram__router_inbox_release), so the components
 * after it post into the storage its messages held — a superstep that reads
 * one phase and posts the next holds about one phase's messages. A
 * restored held inbox is not the router's and is not released.
 *
 * @param t       the lane's handle; not NULL
 * @param step    called as step(self, arg) for each component; not NULL
 * @param arg     passed to every call of step; may be NULL
 * @return        whether some call returned true
 * @pre           No step reads another component's inbox, nor its own
 *                after returning, before the lane's next exchange.
 * @par Errors
 *     As bspram__bsp_team_each; reading a released inbox again before the
 *     next exchange is fatal ("internal error: lane … reads the inbox of
 *     component … after releasing it …").
 * @par BSP cost
 *     As bspram__bsp_team_each; the release costs O(chunks) per inbox.
 * @par Thread safety
 *     A lane inside its team.
 */
bool bspram__bsp_team_each_consuming(bspram_team *t, bspram_step_fn step, void *arg);

/* Release component pid's inbox (router.h, bspram__router_inbox_release)
 * after the lane read it for good outside a step.
 *
 * What the lane posts before its next exchange goes where the inbox's
 * messages were, so that a phase's messages are held once. Nothing for a
 * restored held inbox.
 *
 * @param t       the lane's handle; not NULL (not checked)
 * @param pid     a component of the lane's block [first, end)
 * @pre           Between exchanges; no pointer from pid's inbox is used
 *                afterwards.
 * @par Errors
 *     As bspram__bsp_team_each_consuming's: pid outside the block is an
 *     internal error, one line ("bspram: internal error: lane 1 releases
 *     the inbox of component 9, outside its block").
 * @par BSP cost
 *     None: local. O(chunks of the inbox).
 * @par Thread safety
 *     A lane inside its team.
 */
void bspram__bsp_team_release_inbox(bspram_team *t, uint64_t pid);

/* End the superstep (collective: every lane calls it): the exchange, one
 * record.
 *
 * Delivers what every lane posted since the last exchange; from now on
 * the lanes' inboxes hold the new messages (a restored held inbox,
 * bspram__bsp_team_restore_inbox, is no longer in force).
 *
 * @param t       the lane's handle; not NULL
 * @param tag     this lane's bits, ORed over the lanes; tag &
 *                BSPRAM_TAG_ROUTER_MASK must be 0 (bits 0..27 are free)
 * @return        the OR of the lanes' tags
 * @pre           Every lane calls it, equally often.
 * @par Errors
 *     Each one line: reserved tag bits ("bspram: internal error: an
 *     exchange with tag 0x10000000; bits 0xf0000000 are reserved by the
 *     router"); another lane's function has returned ("bspram: internal
 *     error: lane 1 is in superstep 4's exchange, but another lane's
 *     function has ended; every lane must exchange equally often"); t NULL
 *     ("bspram: bspram__bsp_team_exchange(t=NULL): t must not be NULL").
 * @par BSP cost
 *     One superstep and one record, charged max(q, r) of what was posted
 *     since the last exchange, priced w + g·h + l. One router exchange
 *     (router.h): one barrier plus the lane's share of delivery.
 * @par Thread safety
 *     A lane inside its team.
 */
unsigned bspram__bsp_team_exchange(bspram_team *t, unsigned tag);

/* A barrier of the team without an exchange: lets one lane change shared
 * state while the others wait.
 *
 * @param t       the lane's handle; not NULL
 * @pre           Every lane calls it (collective).
 * @par Errors
 *     Another lane's function has returned: "bspram: a barrier: lane 1 is
 *     in a barrier (superstep 4) while another lane's program has ended;
 *     every lane must make the same collective calls"; t NULL ("bspram:
 *     bspram__bsp_team_barrier(t=NULL): t must not be NULL").
 * @par BSP cost
 *     No superstep, no record: one barrier.
 * @par Thread safety
 *     A lane inside its team.
 */
void bspram__bsp_team_barrier(bspram_team *t);

/* Collective over every lane, outside the records (no exchange): every
 * lane brings n bytes at mine, and the process's leading lane receives
 * every lane's of the machine.
 *
 * Over MPI every rank's too: lane by lane in all (T × n bytes); the other
 * lanes pass all = NULL. For the rare agreements of the layers above (a
 * verification's least wrong cell).
 *
 * @param t       the lane's handle; not NULL
 * @param mine    this lane's n bytes; may be NULL only when n = 0
 * @param n       the bytes each lane brings, the same on every lane
 * @param all     on the leading lane, receives T × n bytes, lane l's at
 *                l × n (not NULL when n > 0); on the others NULL
 * @pre           Every lane calls it, with the same n (collective).
 * @par Errors
 *     Each one line: T × n ≥ 2^31 ("bspram: gathering what the processes
 *     agree on (65536 bytes each): 32768 lanes × the bytes must stay
 *     below 2^31"); another lane's function has returned ("bspram: gathering what
 *     the processes agree on: lane 1 is in a barrier (superstep 4) while
 *     another lane's program has ended; every lane must make the same
 *     collective calls"); mine NULL with n > 0, or all NULL on the leading
 *     lane, named as the router's ("bspram: bspram__router_gather(all=NULL):
 *     all must not be NULL"); t NULL ("bspram:
 *     bspram__bsp_team_gather(t=NULL): t must not be NULL").
 * @par BSP cost
 *     No superstep, no record: two barriers, O(T × n) copying by the
 *     leading lane, and over MPI an MPI_Allgatherv of T × n bytes.
 * @par Thread safety
 *     A lane inside its team.
 */
void bspram__bsp_team_gather(bspram_team *t, const void *mine, size_t n, void *all);

/* Whether the lane has posted a message in the current superstep.
 *
 * A combining batch must start without: its first phase would deliver them
 * as requests.
 *
 * @param t       the lane's handle; not NULL
 * @return        whether some component of the lane's block has posted
 *                since the last exchange
 * @pre           None.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_posted(t=NULL): t must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team.
 */
bool bspram__bsp_team_posted(const bspram_team *t);

/* How many records the machine's log holds so far, the last maybe not yet
 * complete (bspram__bsp_team_flush completes it): where a batch's records
 * will start.
 *
 * @param t       the lane's handle; not NULL
 * @return        the number of records in the log
 * @pre           Between exchanges.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_records(t=NULL): t must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team: the leading lane, which appends the records.
 */
size_t bspram__bsp_team_records(const bspram_team *t);

/* Complete the log: afterwards the process's leading lane (lane 0 on one
 * machine) may read bspram_machine_records while the team goes on.
 *
 * Inside a team only the leading lane reads the records, and only after
 * this.
 *
 * @param t       the lane's handle; not NULL
 * @pre           Every lane calls it (collective).
 * @par Errors
 *     Another lane's function has returned: "bspram: completing the
 *     records: lane 1 is in a barrier (superstep 4) while another lane's
 *     program has ended; every lane must make the same collective calls";
 *     t NULL ("bspram: bspram__bsp_team_flush(t=NULL): t must not be
 *     NULL").
 * @par BSP cost
 *     No superstep, no record: one barrier.
 * @par Thread safety
 *     A lane inside its team.
 */
void bspram__bsp_team_flush(bspram_team *t);

/* The label of the records from this lane's next exchange on.
 *
 * Every lane passes the same label; the leading lane's call sets it (lane
 * 0's on one machine), the others' do nothing.
 *
 * @param t       the lane's handle; not NULL
 * @param label   the label, truncated to BSPRAM_LABEL_LEN − 1 bytes;
 *                copied; NULL is the empty label
 * @pre           Between exchanges; every lane passes the same label.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_set_label(t=NULL): t must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(BSPRAM_LABEL_LEN).
 * @par Thread safety
 *     A lane inside its team.
 */
void bspram__bsp_team_set_label(bspram_team *t, const char *label);

/* The label in force (the label is the leading lane's).
 *
 * @param t       the lane's handle; not NULL
 * @return        the current label, in the router's storage (its text
 *                changes at the next set: copy it to keep it)
 * @pre           Between exchanges.
 * @par Errors
 *     t NULL: "bspram: bspram__bsp_team_label(t=NULL): t must not be NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team: the leading lane only.
 */
const char *bspram__bsp_team_label(const bspram_team *t);

/* The messages delivered to component pid of the lane's block by the last
 * exchange, or the held copy restored since then (below).
 *
 * In the order of delivery: by source component, then issue order.
 *
 * @param t       the lane's handle; not NULL
 * @param pid     a component of the lane's block [first, end)
 * @param msgs    receives the address of the first message (NULL when
 *                there are none); not NULL
 * @return        the number of messages
 * @pre           Between exchanges.
 * @par Errors
 *     pid outside the block: "bspram: internal error: lane 1 reads the
 *     inbox of component 9, outside its block [4, 8) (a lane reads only the
 *     inboxes it serves)"; t or msgs NULL ("bspram:
 *     bspram__bsp_team_inbox(msgs=NULL): msgs must not be NULL").
 * @par BSP cost
 *     None: local, O(1) (the shared-memory transport builds an inbox at its
 *     first read after an exchange: O(its messages)).
 * @par Thread safety
 *     A lane inside its team.
 */
size_t bspram__bsp_team_inbox(const bspram_team *t, uint64_t pid, const bspram_message **msgs);

/* The same inbox as runs (router.h, bspram__router_inbox_runs).
 *
 * The record channel's runs whole, runs of one for the rest (from a held
 * inbox, consecutive messages of one source and one size that lie one
 * after another are one run); in bspram__bsp_team_inbox's order.
 *
 * @param t       the lane's handle; not NULL (not checked)
 * @param pid     a component of the lane's block [first, end)
 * @param runs    receives the address of the first run (NULL when there
 *                are none), valid until the lane's next call for another
 *                component or its next exchange; not NULL
 * @return        the number of runs
 * @pre           Between exchanges.
 * @par Errors
 *     pid outside the block: bspram__bsp_team_inbox's line ("bspram:
 *     internal error: lane 1 reads the inbox of component 9, outside its
 *     block [4, 8) …"); runs NULL, named as the router's ("bspram:
 *     bspram__router_inbox_runs(runs=NULL): runs must not be NULL", or
 *     bspram__router_runs_of's from a held inbox). t is not checked for
 *     NULL.
 * @par BSP cost
 *     None: local. O(runs) the first time, O(1) after (shared memory);
 *     O(messages) on the other transports and from a held inbox.
 * @par Thread safety
 *     A lane inside its team.
 */
size_t bspram__bsp_team_inbox_runs(const bspram_team *t, uint64_t pid, const bspram__run **runs);

/* Holding the inboxes across supersteps of the team's own. A lane that runs
 * supersteps between two of a program's — a combining batch
 * (bspram__combine_team) between two bulk steps — recycles the router's
 * storage, so what the program's last exchange delivered is gone by its next
 * step. Hold the messages first (bspram__bsp_team_hold_inbox), restore them
 * after (bspram__bsp_team_restore_inbox). Not collective: each lane holds and
 * restores its own block (no barrier, no record); holding is invisible to
 * the router and to the records. An SPMD program calls them with
 * bspram__bsp_component_team(self). */

/* Copy the inboxes of the lane's block as bspram__bsp_team_inbox gives
 * them now (headers and payloads, same order) into storage of the lane's
 * own in the machine, replacing the lane's previous copy.
 *
 * If a restored copy is the inbox now, it stays as it is.
 *
 * @param t       the lane's handle; not NULL
 * @pre           Between exchanges.
 * @par Errors
 *     Out of memory ("bspram: holding a lane's inbox: out of memory
 *     allocating 4096 bytes", or "… growing to N bytes"); t NULL ("bspram:
 *     bspram__bsp_team_hold_inbox(t=NULL): t must not be NULL").
 * @par BSP cost
 *     None: no superstep, no record. O(block + messages + bytes) of copying
 *     by the lane. Memory: the lane keeps 24 bytes per held message, the
 *     payload rounded up to 8 bytes and 8 bytes per component of its block,
 *     reused by later holds and freed with the machine.
 * @par Thread safety
 *     A lane inside its team, for its own block.
 */
void bspram__bsp_team_hold_inbox(bspram_team *t);

/* Make the held copy the block's inbox again.
 *
 * From now until the lane's next exchange (bspram__bsp_team_exchange or
 * bspram__bsp_sync), bspram_inbox, bspram__bsp_team_inbox,
 * bspram__bsp_inbox_runs and, once the team has ended,
 * bspram_machine_inbox give the held messages. Their payloads stay valid
 * (8-byte aligned) until the lane's next hold or the machine's
 * destruction, whatever supersteps run meanwhile.
 *
 * @param t       the lane's handle; not NULL
 * @pre           The lane has held (bspram__bsp_team_hold_inbox).
 * @par Errors
 *     A lane that has never held: "bspram: internal error: lane 1 restores
 *     an inbox it never held (superstep 4)"; t NULL ("bspram:
 *     bspram__bsp_team_restore_inbox(t=NULL): t must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A lane inside its team, for its own block.
 */
void bspram__bsp_team_restore_inbox(bspram_team *t);

/* ---- SPMD style ---- */

/* Run program(self, arg) on p = T threads, one component each.
 *
 * The program calls bspram__bsp_sync to end supersteps; all components
 * must call it equally often. A team of m as bspram__bsp_machine_team,
 * whose lane l runs component l's program.
 *
 * @param m       the machine; p must equal T; not NULL
 * @param program called as program(self, arg) on every component's thread;
 *                self is valid until it returns; not NULL
 * @param arg     passed to every call of program; may be NULL
 * @pre           No team of m is running. Over MPI every rank calls it
 *                alike.
 * @par Errors
 *     Each one line: p ≠ T ("bspram: internal error: an SPMD run with p = 4
 *     components on 2 threads; the SPMD style needs p == threads"); m or
 *     program NULL ("bspram: bspram__bsp_machine_spmd(program=NULL): program
 *     must not be NULL"); bspram__bsp_machine_team's, named "a BSPlib
 *     section" ("bspram: a BSPlib section: the machine's team is already
 *     running (…); a machine runs one team at a time", "bspram: a BSPlib
 *     section: could not start 4000 threads (…); …"); bspram__bsp_sync's;
 *     and every error of the calls the programs make.
 * @par BSP cost
 *     One start of the team's threads (bsp/threads.h), plus one superstep
 *     and one record per bspram__bsp_sync (and per exchange of a combining
 *     batch the programs run).
 * @par Thread safety
 *     The host only: one team of m at a time, as bspram__bsp_machine_team.
 */
void bspram__bsp_machine_spmd(bspram_machine *m, void (*program)(bspram_component *, void *),
                         void *arg);

/* bspram__bsp_machine_spmd, `call` naming the caller in the lines of a team
 * that is already running or whose threads cannot start ("bsp_begin(P=4000):
 * could not start 4000 threads …").
 *
 * @param m       the machine; p must equal T; not NULL
 * @param program as for bspram__bsp_machine_spmd; not NULL
 * @param arg     passed to every call of program; may be NULL
 * @param call    the name those lines give ("bsp_begin(P=4000)"); not NULL
 *                (not checked)
 * @pre           As bspram__bsp_machine_spmd.
 * @par Errors
 *     As bspram__bsp_machine_spmd, but the team's lines name call ("bspram:
 *     bsp_begin(P=4000): could not start 4000 threads (Resource temporarily
 *     unavailable after 498); …"); a NULL m or program is still named
 *     bspram__bsp_machine_spmd's ("bspram: bspram__bsp_machine_spmd(m=NULL):
 *     m must not be NULL").
 * @par BSP cost
 *     As bspram__bsp_machine_spmd.
 * @par Thread safety
 *     The host only (BSPlib's driver thread), as bspram__bsp_machine_spmd.
 */
void bspram__bsp_machine_spmd_as(bspram_machine *m, void (*program)(bspram_component *, void *),
                                 void *arg, const char *call);

/* Where lane index i (0: the process's first lane) of the machine runs:
 * its CPUs, or NULL if it is not bound (bsp/placement.h).
 *
 * For a thread that runs a lane's program outside the team's threads
 * (BSPlib's pid 0).
 *
 * @param m       the machine; not NULL
 * @param i       the lane's index among this process's lanes
 * @return        the lane's CPUs, owned by m; or NULL (not bound)
 * @pre           i is below the number of this process's lanes (not
 *                checked: a larger i gets one of the process's places).
 * @par Errors
 *     m NULL: "bspram: bspram__bsp_machine_place(m=NULL): m must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread (it reads what create fixed).
 */
const cpu_set_t *bspram__bsp_machine_place(const bspram_machine *m, unsigned i);

/* End the superstep (SPMD only; from a bulk step it is fatal: a bulk step
 * ends by returning): exchange, then the inbox holds what was sent to this
 * component.
 *
 * A component still syncing after another's program returned is fatal
 * (never a hang). A restored held inbox is no longer in force afterwards.
 *
 * @param self    the component's handle, from bspram__bsp_machine_spmd;
 *                not NULL
 * @param tag     this component's bits, ORed over the components; tag &
 *                BSPRAM_TAG_ROUTER_MASK must be 0
 * @return        the OR of the components' tags
 * @pre           Every component calls it, equally often.
 * @par Errors
 *     Each one line: from a bulk-style step ("bspram: internal error: a
 *     sync called from a bulk-style step (component 3, superstep 0); a bulk
 *     step ends its superstep by returning"); reserved tag bits ("bspram:
 *     internal error: an exchange with tag 0x10000000; bits 0xf0000000 are
 *     reserved by the router"); another component's program has ended
 *     ("bspram: a superstep's sync: component 1 is in superstep 4's sync,
 *     but another component's program has ended; every component must sync
 *     equally often"); self NULL ("bspram: bspram__bsp_sync(self=NULL):
 *     self must not be NULL").
 * @par BSP cost
 *     One superstep and one record, as bspram__bsp_team_exchange: charged
 *     max(q, r) of what was posted since the last exchange, priced
 *     w + g·h + l; one barrier plus the lane's share of delivery.
 * @par Thread safety
 *     A component inside its step: an SPMD component, in its program.
 */
unsigned bspram__bsp_sync(bspram_component *self, unsigned tag);

/* ---- inside a component (both styles) ---- */

/* The team lane of an SPMD component (p = T: the component is its lane), so
 * that an SPMD program can take part in team-collective calls such as a
 * combining batch.
 *
 * Fatal from a bulk step (a bulk step cannot end supersteps).
 *
 * @param self    the component's handle; not NULL
 * @return        its lane's handle, valid for the SPMD program's lifetime
 * @pre           self is an SPMD component's (bspram__bsp_machine_spmd).
 * @par Errors
 *     From a bulk-style step: "bspram: internal error: a team call from a
 *     bulk-style step (component 3, superstep 0); only an SPMD component is
 *     a lane of its own"; self NULL ("bspram:
 *     bspram__bsp_component_team(self=NULL): self must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step: an SPMD component, in its program.
 */
bspram_team *bspram__bsp_component_team(bspram_component *self);

/* The lane that serves the component.
 *
 * @param self    the component's handle; not NULL
 * @return        its lane, in [0, T)
 * @pre           self is the handle of the current step (or program).
 * @par Errors
 *     self NULL: "bspram: bspram__bsp_lane(self=NULL): self must not be
 *     NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step.
 */
unsigned bspram__bsp_lane(const bspram_component *self);

/* The machine the component belongs to.
 *
 * @param self    the component's handle; not NULL
 * @return        the machine
 * @pre           self is the handle of the current step (or program).
 * @par Errors
 *     self NULL: "bspram: bspram__bsp_component_machine(self=NULL): self
 *     must not be NULL".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step.
 */
bspram_machine *bspram__bsp_component_machine(const bspram_component *self);

/* The record channel from a component (router.h, bspram__router_reserve):
 * room for count records of size bytes to dst, one run.
 *
 * The room is valid until the superstep ends, and must be written before
 * the exchange and before the component's next bspram_send_buffer to dst.
 * The receiver finds count messages of size bytes in its inbox, in their
 * order, or one run (bspram__bsp_inbox_runs).
 *
 * @param self    the component's handle; not NULL (not checked)
 * @param dst     the destination component, in [0, p)
 * @param size    the bytes of one record: a multiple of 8 in [8, 512]
 * @param count   the records, in [1, 2^53]
 * @return        where the count × size bytes go, record after record
 * @pre           self is the handle of the current step (or program);
 *                its lane posts in non-decreasing order of source
 *                (router.h).
 * @par Errors
 *     The router's, naming "a reservation of messages", each one line:
 *     "bspram: a reservation of messages(dst=9): destination outside [0, 8)
 *     (superstep 3, component 2)"; "bspram: a reservation of
 *     messages(dst=1, size=12, count=4): a run holds 1 to 2^53 records of 8
 *     to 512 bytes, a multiple of 8 (superstep 3, component 2)"; a source
 *     out of order ("bspram: a reservation of messages: component 2 cannot
 *     act in lane 0 now (lane serves [0, 4), component 3 already acted;
 *     superstep 3)"); out of memory (a line such as "bspram: the messages'
 *     payloads: out of memory (4194304 bytes)"). self is not checked for
 *     NULL (the hot path).
 * @par BSP cost
 *     The records count count messages of size bytes from self to dst
 *     (messages, bytes, q and r, the byte h-relation, the largest
 *     message). Local work O(1) amortised, none per record; memory 8 bytes
 *     of header a run (16 from 2^24 records on) beside the records.
 * @par Thread safety
 *     A component inside its step.
 */
void *bspram__bsp_reserve(bspram_component *self, uint64_t dst, uint32_t size, uint64_t count);

/* bspram__bsp_reserve for the destinations dst[0..n) at once (router.h,
 * bspram__router_reserve_runs): a run of count[dst[i]] records to each.
 *
 * count and cursor are indexed by destination (p entries); the room for
 * dst[i] is returned in cursor[dst[i]], and count[dst[i]] is set to 0, so
 * the caller's table of counts is ready for its next use.
 *
 * @param self    the component's handle; not NULL (not checked)
 * @param size    the bytes of one record: a multiple of 8 in [8, 512]
 * @param n       the number of destinations
 * @param dst     n distinct destinations in [0, p); not NULL when n > 0
 *                (not checked)
 * @param count   p entries: count[dst[i]] ≥ 1 records for dst[i], set to 0
 *                on return; not NULL when n > 0 (not checked)
 * @param cursor  p entries: cursor[dst[i]] receives dst[i]'s room; not NULL
 *                when n > 0 (not checked)
 * @pre           As bspram__bsp_reserve, for each run.
 * @par Errors
 *     bspram__bsp_reserve's, naming "a reservation of runs of messages"
 *     ("bspram: a reservation of runs of messages(dst=9): destination
 *     outside [0, 8) (superstep 3, component 2)"); a destination repeated
 *     meets its count already 0 ("… (dst=5, size=16, count=0): a run holds
 *     1 to 2^53 records …"). self, dst, count and cursor are not
 *     checked for NULL (the hot path).
 * @par BSP cost
 *     As n calls of bspram__bsp_reserve: each run counts count[dst[i]]
 *     messages of size bytes. Local work O(n), a few instructions per
 *     destination, the source's statistics updated once.
 * @par Thread safety
 *     A component inside its step.
 */
void bspram__bsp_reserve_runs(bspram_component *self, uint32_t size, size_t n, const uint32_t *dst,
                              uint32_t *count, char **cursor);

/* Whether machine m's lanes may send records through the lane's runs
 * (bspram__bsp_account, bspram__bsp_reserve_lane): not while the router
 * keeps the message pattern, which is by source.
 *
 * @param m       the machine; not NULL (not checked)
 * @return        true if a lane may reserve runs for all its components
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
bool bspram__bsp_lane_runs(const bspram_machine *m);

/* Count count records of size bytes sent by component self, whose room its
 * lane reserves later with bspram__bsp_reserve_lane (router_internal.h,
 * bspram__router_account): the records are counted as self's, as a run
 * from self would be, and the lane's run carries them without a source per
 * record. For records whose receivers need no source, or find it in the
 * record (combining's reductions, never answered; its answered requests,
 * which name their sender).
 *
 * @param self    the component's handle; not NULL (not checked)
 * @param count   the records (0: none)
 * @param size    the bytes of one record: a multiple of 8 in [8, 512]
 * @pre           self is the handle of the current step; its lane counts
 *                and posts in non-decreasing order of source.
 * @par Errors
 *     A source out of order, one line: "bspram: a reservation of runs of
 *     messages: component 2 cannot act in lane 0 now (lane serves [0, 4),
 *     component 3 already acted; superstep 3)". self is not checked for
 *     NULL (the hot path).
 * @par BSP cost
 *     The records count count messages of size bytes from self (messages,
 *     bytes, q, the byte h-relation, the largest message); r when the lane
 *     reserves them. Local work O(1).
 * @par Thread safety
 *     A component inside its step.
 */
void bspram__bsp_account(bspram_component *self, uint64_t count, uint32_t size);

/* The lane's runs: one run to each of dst[0..n) for the records its
 * components counted with bspram__bsp_account, as bspram__bsp_reserve_runs
 * reserves but without counting them again (router_internal.h,
 * bspram__router_reserve_lane). The lane writes each destination's records
 * in component order; it must reserve them before any later post or
 * reservation of its components, so that every destination receives in
 * component order for any number of threads.
 *
 * @param m       the machine; not NULL (not checked)
 * @param lane    the lane, the calling thread's
 * @param size    the bytes of one record: a multiple of 8 in [8, 512]
 * @param n       the number of destinations
 * @param dst     n distinct destinations in [0, p); not NULL when n > 0
 *                (not checked)
 * @param count   p entries: count[dst[i]] ≥ 1 records for dst[i], set to 0
 *                on return; not NULL when n > 0 (not checked)
 * @param cursor  p entries: cursor[dst[i]] receives dst[i]'s room; not NULL
 *                when n > 0 (not checked)
 * @pre           The records were counted by bspram__bsp_account in this
 *                superstep; bspram__bsp_lane_runs(m).
 * @par Errors
 *     bspram__bsp_reserve_runs's, one line each, naming "a reservation of
 *     runs of messages". m, dst, count and cursor are not checked for NULL.
 * @par BSP cost
 *     r: each run counts count[dst[i]] messages at dst[i]; q and the
 *     messages were counted by bspram__bsp_account. Local work O(n); memory
 *     8 bytes of header a run (16 from 2^24 records on) beside the records.
 * @par Thread safety
 *     A lane inside its team.
 */
void bspram__bsp_reserve_lane(bspram_machine *m, unsigned lane, uint32_t size, size_t n, const uint32_t *dst,
                              uint32_t *count, char **cursor);

/* The component's inbox as runs (router.h, bspram__router_inbox_runs; a
 * held inbox too), in bspram_inbox's order.
 *
 * @param self    the component's handle; not NULL (not checked)
 * @param runs    receives the address of the first run (NULL when there
 *                are none), valid until the lane's next call for another
 *                component, or the superstep's end; not NULL
 * @return        the number of runs
 * @pre           self is the handle of the current step (or program).
 * @par Errors
 *     runs NULL, named as the router's: "bspram:
 *     bspram__router_inbox_runs(runs=NULL): runs must not be NULL" (or
 *     bspram__router_runs_of's from a held inbox). self is not checked for
 *     NULL (the hot path).
 * @par BSP cost
 *     None: local. O(runs) the first time, O(1) after (shared memory);
 *     O(messages) on the other transports and from a held inbox.
 * @par Thread safety
 *     A component inside its step.
 */
size_t bspram__bsp_inbox_runs(const bspram_component *self, const bspram__run **runs);

/* bspram_send_buffer for a message that stands for `counted` ≥ len bytes
 * (router.h, bspram__router_post_counted): e.g. a reference through which
 * the receiver copies data from the sender's memory; the records count
 * `counted`.
 *
 * The layer above keeps the referenced data valid until the receiver has
 * used it, and sends such references only where the transport shares
 * memory (bspram__router_shares_memory).
 *
 * @param self    the component's handle; not NULL
 * @param dst     the destination component, in [0, p)
 * @param len     the bytes stored (and delivered), at most
 *                BSPRAM_MAX_MESSAGE
 * @param counted the bytes the records count: len ≤ counted ≤ len +
 *                4294967295
 * @return        where to write the len bytes, until the component's next
 *                send
 * @pre           self is the handle of the current step (or program).
 * @par Errors
 *     Each one line, naming "a message by reference": "bspram: a message by
 *     reference: a message storing 8 bytes cannot count 4 (it must count
 *     between its size and its size + 4294967295)"; "bspram: a message by
 *     reference(dst=9): destination outside [0, 8) (superstep 3, component
 *     2)"; len above BSPRAM_MAX_MESSAGE ("… message too large; …"); a
 *     source out of order (as bspram__bsp_reserve's); self NULL ("bspram:
 *     bspram__bsp_send_buffer_counted(self=NULL): self must not be NULL").
 * @par BSP cost
 *     One message of counted bytes in this superstep's (q, r) pattern and
 *     h-relation (and as the largest message). Local work O(1) amortised.
 * @par Thread safety
 *     A component inside its step.
 */
void *bspram__bsp_send_buffer_counted(bspram_component *self, uint64_t dst, uint64_t len,
                                 uint64_t counted);

#endif
