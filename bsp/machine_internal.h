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
 *          bspram__bsp_component_team). One OpenMP parallel region per team,
 *          however many supersteps.
 *   SPMD   bspram__bsp_machine_spmd: p = T, each thread runs one component's
 *          whole program and calls bspram__bsp_sync(). BSPlib is built on it.
 */
#ifndef BSPRAM_BSP_MACHINE_INTERNAL_H
#define BSPRAM_BSP_MACHINE_INTERNAL_H

#include "bsp/machine.h"
#include "router/router.h"

/* A lane of a running team: valid inside the team function (or, from
 * bspram__bsp_component_team, for the SPMD program's lifetime). */
typedef struct bspram_team bspram_team;

bspram_router *bspram__bsp_machine_router(bspram_machine *m);

/* Run fn(team, arg) on the machine's T threads at once, thread l as lane l
 * (router.h: lane l serves components [first(l), first(l+1))). Every lane
 * must make the same sequence of collective calls (bspram__bsp_team_exchange, a
 * combining batch, …); a lane whose function returns while another is still
 * exchanging is fatal (never a hang). The records are complete on return.
 * Cost: one parallel region, plus what fn's supersteps cost. */
void bspram__bsp_machine_team(bspram_machine *m, void (*fn)(bspram_team *team, void *arg), void *arg);

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

/* bspram_send_buffer for a message that stands for `counted` ≥ len bytes
 * (router.h, bspram__router_post_counted): e.g. a reference through which
 * the receiver copies data from the sender's memory; the records count
 * `counted`. */
void *bspram__bsp_send_buffer_counted(bspram_component *self, uint64_t dst, uint64_t len,
                                 uint64_t counted);

#endif
