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
 */
#ifndef BSPRAM_BSP_MACHINE_INTERNAL_H
#define BSPRAM_BSP_MACHINE_INTERNAL_H

#include <sched.h>

#include "bsp/machine.h"
#include "router/router.h" /* bspram__run */

/* A lane of a running team: valid inside the team function (or, from
 * bspram__bsp_component_team, for the SPMD program's lifetime). */
typedef struct bspram_team bspram_team;

/* The machine's router (router/router.h), for bsp/'s own files (BSPlib) and
 * white-box tests. The layers above use the verbs below, which say what a
 * rank holds and share it in the machine's words. */
typedef struct bspram_router bspram_router;
bspram_router *bspram__bsp_machine_router(bspram_machine *m);

/* A BSPlib section's machine (bsp/bsplib_spmd.c): spread over the MPI ranks
 * in blocks even when P is below the ranks, where bspram_machine_create
 * would run a bulk machine whole on every rank (a process's effects must
 * happen once). */
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
 * bytes. */

/* Whether the machine is spread over several MPI ranks (alike on every
 * rank). Cost O(1). */
bool bspram__bsp_machine_spread(const bspram_machine *m);

/* The components this rank holds, [*first, *end): [0, p) unless spread.
 * Cost O(1). */
void bspram__bsp_machine_block(const bspram_machine *m, uint64_t *first, uint64_t *end);

/* The lanes this rank runs, [*lo, *hi): every lane [0, T) unless spread.
 * Lane *lo is the rank's leading lane. Cost O(1). */
void bspram__bsp_machine_lanes(const bspram_machine *m, unsigned *lo, unsigned *hi);

/* words[i] ← the sum (mod 2^64), or the bitwise OR, of every rank's
 * words[i], for i < n. Cost: over MPI one MPI_Allreduce of n words. */
void bspram__bsp_machine_sum(bspram_machine *m, uint64_t *words, size_t n);
void bspram__bsp_machine_or(bspram_machine *m, uint64_t *words, size_t n);

/* Every rank's `bytes` bytes at mine (the counts may differ), in rank
 * order, in a new buffer of *total bytes (free it; unless spread, a copy of
 * mine). Cost: over MPI one MPI_Allgatherv of *total bytes. */
void *bspram__bsp_machine_concat(bspram_machine *m, const void *mine, size_t bytes, size_t *total);

/* Share words that components own: word i (i < n) is owned by component
 * owner(i, arg), and each rank has filled the words its own components own
 * (the others may hold anything). Afterwards every rank holds every word as
 * its owner's rank filled it. A word for which owner returns
 * BSPRAM__BSP_EVERY_RANK is owned by none: every rank must hold the same
 * value there, which it keeps. (Each rank keeps the words of its block,
 * zeroes the rest, and the ranks OR their copies.) Calls owner once per word,
 * unless the machine is not spread (then nothing). Cost: O(n) owner calls and
 * one MPI_Allreduce of n words. */
#define BSPRAM__BSP_EVERY_RANK UINT64_MAX
void bspram__bsp_machine_share_owned(bspram_machine *m, uint64_t *words, size_t n,
                                     uint64_t (*owner)(uint64_t i, const void *arg), const void *arg);

/* Share the parts of an array that components own: component c owns the
 * elements [at[c], at[c+1]) of `size` bytes at base (at: p + 1
 * non-decreasing offsets from at[0] = 0, alike on every rank; NULL: element
 * c), and each rank has filled its own components' parts. Afterwards every
 * rank holds the whole array, at[p] elements. With a filter, element i of
 * another rank's part is copied only if only(i, arg) is true on that rank
 * (say, the entries that are answers); the others keep this rank's value.
 * only may be NULL (every element; then arg is unused). Error (fatal): the
 * ranks' parts do not make at[p] elements (offsets that differ between
 * ranks). Cost: O(own part) only calls, one MPI_Allgatherv of the
 * at[p] × size bytes, and with a filter one of at[p] bytes more. */
void bspram__bsp_machine_share_parts(bspram_machine *m, void *base, size_t size, const uint64_t *at,
                                     bool (*only)(uint64_t i, const void *arg), const void *arg);

/* Run fn(team, arg) on the machine's T threads at once, thread l as lane l
 * (router.h: lane l serves components [first(l), first(l+1))). Every lane
 * must make the same sequence of collective calls (bspram__bsp_team_exchange, a
 * combining batch, …); a lane whose function returns while another is still
 * exchanging is fatal (never a hang). The records are complete on return.
 * Cost: one parallel region, plus what fn's supersteps cost. */
void bspram__bsp_machine_team(bspram_machine *m, void (*fn)(bspram_team *team, void *arg), void *arg);

/* bspram__bsp_machine_team for a public call that runs a team (a combining
 * batch, a shared-memory run, a PRAM phase): its error lines — the machine's
 * team already running, too few threads — name `call`, the function the
 * program called, not this one. */
void bspram__bsp_machine_team_for(bspram_machine *m, void (*fn)(bspram_team *team, void *arg), void *arg,
                                  const char *call);

unsigned bspram__bsp_team_lane(const bspram_team *t);
/* Whether t is this process's first lane — lane 0 on one machine; over MPI
 * (libbspram-mpi) the first lane of each rank's block. It owns the label and
 * appends the records, and is where a team does its serial steps: over MPI
 * every rank's first lane does them, on the rank's own copy of the state. */
bool bspram__bsp_team_leads(const bspram_team *t);
uint64_t bspram__bsp_team_first(const bspram_team *t); /* the lane's block [first, end) */
uint64_t bspram__bsp_team_end(const bspram_team *t);
uint64_t bspram__bsp_team_superstep(const bspram_team *t); /* exchanges so far in the machine */
bspram_machine *bspram__bsp_team_machine(const bspram_team *t);

/* Run step once for every component of the lane's block, in increasing pid
 * order (each sees its inbox and may send, as in the bulk style). Returns
 * whether some call returned true. Not collective. */
bool bspram__bsp_team_each(bspram_team *t, bspram_step_fn step, void *arg);

/* End the superstep (collective: every lane calls it): the exchange, one
 * record. Returns the OR of the lanes' tags (tag & BSPRAM_TAG_ROUTER_MASK
 * must be 0). Errors (fatal): reserved tag bits; another lane's function has
 * returned ("bspram__bsp_team_exchange: lane 1 is in superstep 4's exchange, but
 * another lane's function has ended; …"). Cost: one router exchange
 * (router.h): one barrier plus the lane's share of delivery. */
unsigned bspram__bsp_team_exchange(bspram_team *t, unsigned tag);

/* A barrier of the team without an exchange (collective; no record; one
 * barrier): lets one lane change shared state while the others wait. */
void bspram__bsp_team_barrier(bspram_team *t);

/* Collective over every lane, outside the records (no exchange): every lane
 * brings n bytes at mine (the same n on every lane); the process's leading
 * lane receives every lane's of the machine — over MPI every rank's too —
 * lane by lane in all (T × n bytes); the other lanes pass all = NULL. For the
 * rare agreements of the layers above (a verification's least wrong cell).
 * Cost: two barriers, and over MPI an MPI_Allgatherv of T × n bytes.
 * Error (fatal): T × n ≥ 2^31. */
void bspram__bsp_team_gather(bspram_team *t, const void *mine, size_t n, void *all);

/* Whether the lane has posted a message in the current superstep (a
 * combining batch must start without: its first phase would deliver them as
 * requests). Cost O(1). */
bool bspram__bsp_team_posted(const bspram_team *t);

/* How many records the machine's log holds so far, the last maybe not yet
 * complete (bspram__bsp_team_flush completes it): where a batch's records
 * will start. For the leading lane, which appends them; between exchanges.
 * Cost O(1). */
size_t bspram__bsp_team_records(const bspram_team *t);

/* Complete the log (collective, one barrier, no record): afterwards lane 0
 * may read bspram_machine_records while the team goes on. Inside a team only
 * lane 0 reads the records, and only after this. */
void bspram__bsp_team_flush(bspram_team *t);

/* The label of the records from this lane's next exchange on (every lane
 * passes the same label; lane 0's call sets it), and the current one (lane 0
 * only: the label is lane 0's). */
void bspram__bsp_team_set_label(bspram_team *t, const char *label);
const char *bspram__bsp_team_label(const bspram_team *t);

/* The messages delivered to component pid of the lane's block by the last
 * exchange (fatal if pid is not in the block), or the held copy restored
 * since then (below). */
size_t bspram__bsp_team_inbox(const bspram_team *t, uint64_t pid, const bspram_message **msgs);
/* The same inbox as runs (router.h, bspram__router_inbox_runs). */
size_t bspram__bsp_team_inbox_runs(const bspram_team *t, uint64_t pid, const bspram__run **runs);

/* Holding the inboxes across supersteps of the team's own. A lane that runs
 * supersteps between two of a program's — a combining batch
 * (bspram__combine_team) between two bulk steps — recycles the router's
 * storage, so what the program's last exchange delivered is gone by its next
 * step. Hold the messages first, restore them after:
 *
 *   hold     copy the inboxes of the lane's block as bspram__bsp_team_inbox gives
 *            them now (headers and payloads, same order) into storage of the
 *            lane's own in the machine, replacing the lane's previous copy.
 *            If a restored copy is the inbox now, it stays as it is.
 *   restore  make the copy the block's inbox again: from now until the
 *            lane's next exchange (bspram__bsp_team_exchange or bspram__bsp_sync),
 *            bspram_inbox, bspram__bsp_team_inbox and, once the team has ended,
 *            bspram_machine_inbox give the held messages. Their payloads
 *            stay valid (8-byte aligned) until the lane's next hold or the
 *            machine's destruction, whatever supersteps run meanwhile.
 *
 * Not collective: each lane holds and restores its own block (no barrier, no
 * record); holding is invisible to the router and to the records. An SPMD
 * program calls them with bspram__bsp_component_team(self).
 * Error (fatal): restore on a lane that has never held —
 * "bspram__bsp_team_restore_inbox: lane 1 has held no inbox (superstep 4); call
 * bspram__bsp_team_hold_inbox first".
 * Cost: hold O(block + messages + bytes) of copying by the lane; restore
 * O(1). Memory: the lane keeps 24 bytes per held message, the payload
 * rounded up to 8 bytes and 8 bytes per component of its block, reused by
 * later holds and freed with the machine. */
void bspram__bsp_team_hold_inbox(bspram_team *t);
void bspram__bsp_team_restore_inbox(bspram_team *t);

/* ---- SPMD style ---- */

/* Run program(self, arg) on p = T threads, one component each (fatal if
 * p ≠ T). The program calls bspram__bsp_sync to end supersteps; all components
 * must call it equally often. */
void bspram__bsp_machine_spmd(bspram_machine *m, void (*program)(bspram_component *, void *),
                         void *arg);
/* The same, `call` naming the caller in the one line of a team whose
 * threads cannot start ("bsp_begin(P=4000): could not start 4000 threads …"). */
void bspram__bsp_machine_spmd_as(bspram_machine *m, void (*program)(bspram_component *, void *),
                                 void *arg, const char *call);

/* Where lane index i (0: the process's first lane) of the machine runs:
 * its CPUs, or NULL if it is not bound (bsp/placement.h). For a thread that
 * runs a lane's program outside the team's threads (BSPlib's pid 0). */
const cpu_set_t *bspram__bsp_machine_place(const bspram_machine *m, unsigned i);

/* End the superstep (SPMD only; from a bulk step it is fatal: a bulk step
 * ends by returning): exchange, then the inbox holds what was sent to this
 * component. Returns the OR of the components' tags
 * (tag & BSPRAM_TAG_ROUTER_MASK must be 0). A component still syncing after
 * another's program returned is fatal (never a hang). */
unsigned bspram__bsp_sync(bspram_component *self, unsigned tag);

/* ---- inside a component (both styles) ---- */

/* The team lane of an SPMD component (p = T: the component is its lane), so
 * that an SPMD program can take part in team-collective calls such as a
 * combining batch. Fatal from a bulk step (a bulk step cannot end supersteps). */
bspram_team *bspram__bsp_component_team(bspram_component *self);

unsigned bspram__bsp_lane(const bspram_component *self);      /* the lane that serves it */
bspram_machine *bspram__bsp_component_machine(const bspram_component *self);

/* The record channel from a component (router.h, bspram__router_reserve):
 * room for count records of size bytes to dst, one run; valid until the
 * superstep ends, written before the component's next bspram_send_buffer to
 * dst. The records count count messages of size bytes. Errors: the
 * router's, naming bspram__bsp_reserve. */
void *bspram__bsp_reserve(bspram_component *self, uint64_t dst, uint32_t size, uint64_t count);

/* bspram__bsp_reserve for the destinations dst[0..n) at once (router.h,
 * bspram__router_reserve_runs; count and cursor indexed by destination).
 * merge: the runs may extend the lane's previous component's runs to the
 * same destinations, under their headers and source numbers — for records
 * whose receiver needs no source (router_internal.h, bspram__reserve_runs). */
void bspram__bsp_reserve_runs(bspram_component *self, uint32_t size, size_t n, const uint32_t *dst,
                              uint32_t *count, char **cursor, bool merge);

/* The component's inbox as runs (router.h, bspram__router_inbox_runs; a held
 * inbox too), in bspram_inbox's order; valid until the lane's next call for
 * another component, or the superstep's end. */
size_t bspram__bsp_inbox_runs(const bspram_component *self, const bspram__run **runs);

/* bspram_send_buffer for a message that stands for `counted` ≥ len bytes
 * (router.h, bspram__router_post_counted): e.g. a reference through which
 * the receiver copies data from the sender's memory; the records count
 * `counted`. */
void *bspram__bsp_send_buffer_counted(bspram_component *self, uint64_t dst, uint64_t len,
                                 uint64_t counted);

#endif
