/* bspram — a combining batch run by the lanes of a team already running.
 *
 * bspram_combine (combine.h) runs a batch as a team of its own; the PRAM,
 * the shared memory of bulk programs (shared.h) and BSPlib's bsp_shm run
 * theirs between two of their own supersteps, as supersteps of the team that
 * is running them (bsp/machine_internal.h).
 */
#ifndef BSPRAM_COMBINE_TEAM_INTERNAL_H
#define BSPRAM_COMBINE_TEAM_INTERNAL_H

#include "bsp/machine_internal.h"
#include "combine/combine.h"

/* The same batch run by the lanes of a team that is already running
 * (machine.h, team style: a host-side team, a bulk program between its
 * supersteps, or an SPMD program through bspram__bsp_component_team). It starts
 * right after an exchange (or at the team's start): the lane must not have
 * posted in the current superstep (fatal), and the messages the last
 * exchange delivered are no longer readable after it. Collective:
 * every lane calls it with the same arguments, and each lane reads the
 * requests and writes the results of its own block only. The phases are
 * supersteps of that team, labelled as above; the label in force before the
 * call is restored after it. stats (NULL on every lane, or on none) is filled
 * on lane 0, after one more barrier that completes the records. Errors and
 * cost: as bspram_combine (a batch of bspram_combine is exactly one call of
 * this by every lane of a fresh team; over MPI it too leaves every rank
 * every answer, shared by each rank's first lane between two barriers
 * after the last phase; the cells stay with their owners' ranks). The team's machine must be the
 * combiner's. */
void bspram__combine_team(bspram_team *t, bspram_combiner *c, const bspram_request *requests,
                         const uint64_t *first, uint64_t *results, bspram_combine_stats *stats);

/* One component's share of a batch given in place: its n requests in issue
 * order, and where their answers go (results[j] answers requests[j]; may be
 * NULL if none of them is a READ or FETCH). */
typedef struct bspram_batch_part {
    const bspram_request *requests;
    uint64_t n;
    uint64_t *results;
} bspram_batch_part;

/* bspram__combine_team with component c's requests in parts[c] (p entries;
 * each lane reads the entries of its own block only), for programs whose
 * components keep their requests apart — a bulk program's or a BSPlib
 * process's queue. The same engine, batch and records as the array form;
 * errors as there ("results=NULL" when a part with a READ or FETCH has no
 * results). */
void bspram__combine_team_parts(bspram_team *t, bspram_combiner *c, const bspram_batch_part *parts,
                               bspram_combine_stats *stats);

/* What the last batch's merges met (Valiant 1990, §4: combining merges the
 * requests for one cell on their way, so a merge is a concurrent access):
 * an OR of the bits below, found with O(1) per merge whatever the watch
 * (bspram_combiner_watch lists conflicts; this only says which kinds
 * occurred). Over MPI every rank calls it alike and gets the OR of every
 * rank's. The host only, after the batch. The PRAM's weakest model
 * (pram/trace.c) is read from it. */
enum {
    BSPRAM__MET_READS = 1,   /* two reads of one cell with different labels */
    BSPRAM__MET_WRITES = 2,  /* two writes of one cell with different labels */
    BSPRAM__MET_VALUES = 4,  /* two writes of one cell with different values */
    BSPRAM__MET_UPDATES = 8  /* two combining updates (reduce, fetch-and-op,
                                combining write) of one cell */
};
unsigned bspram__combine_met(bspram_combiner *c);

/* Over MPI (a spread machine) make words[i], the value of cell base + i of
 * space s for i < n as this rank read it, whole on every rank: each rank
 * gives the cells its components own (bspram__bsp_machine_share_owned).
 * Nothing on one machine. Collective over the ranks; the host only. */
void bspram__combine_share_range(bspram_machine *m, const bspram_space *s, uint64_t base, uint64_t *words,
                                 size_t n);

#endif
