/* bspram — a combining batch run by the lanes of a team already running.
 *
 * bspram_combine (combine.h) runs a batch as a team of its own; the PRAM,
 * the shared memory of bulk programs (shared.h) and BSPlib's bsp_shm run
 * theirs between two of their own supersteps, as supersteps of the team that
 * is running them (bsp/machine_internal.h).
 *
 * Every function is specified under the public headers' headings, with the
 * thread-safety phrases of bsp/machine_internal.h (tests/headers/headings.sh
 * checks them here too, as the test contract_headings). Errors are one line
 * on stderr and exit status 1 (base/error.h).
 */
#ifndef BSPRAM_COMBINE_TEAM_INTERNAL_H
#define BSPRAM_COMBINE_TEAM_INTERNAL_H

#include "bsp/machine_internal.h"
#include "combine/combine.h"

/* The same batch as bspram_combine, run by the lanes of a team that is
 * already running (machine.h, team style: a host-side team, a bulk program
 * between its supersteps, or an SPMD program through
 * bspram__bsp_component_team).
 *
 * It starts right after an exchange (or at the team's start): the lane must
 * not have posted in the current superstep (fatal), and the messages the
 * last exchange delivered are no longer readable after it. Collective:
 * every lane calls it with the same arguments, and each lane reads the
 * requests and writes the results of its own block only. The phases are
 * supersteps of that team, labelled as above; the label in force before the
 * call is restored after it. stats (NULL on every lane, or on none) is
 * filled on the leading lane (lane 0 on one machine), after one more
 * barrier that completes the records. A batch of bspram_combine is exactly
 * one call of this by every lane of a fresh team; over MPI it too leaves
 * every rank every answer, shared by each rank's first lane between two
 * barriers after the last phase; the cells stay with their owners' ranks.
 * The team's machine must be the combiner's.
 *
 * @param t        the lane's handle; not NULL
 * @param c        the combiner, of the team's machine; not NULL
 * @param requests the requests, first[p] of them; not NULL
 * @param first    p + 1 offsets, non-decreasing, first[0] = 0; not NULL
 * @param results  first[p] entries for the answers (each lane writes its
 *                 block's); may be NULL if the batch has no READ or FETCH
 * @param stats    receives what the batch cost, on the leading lane; NULL
 *                 on every lane, or on none
 * @pre            Right after an exchange or at the team's start, with no
 *                 message posted by the lane since; every lane calls it
 *                 with the same arguments (collective); the space's
 *                 segments are not allocated or freed meanwhile.
 * @par Errors
 *     bspram_combine's lines, under its name ("bspram:
 *     bspram_combine(first[3]=5, first[4]=2): offsets must not decrease",
 *     "bspram: bspram_combine(results=NULL): the batch holds READ or FETCH
 *     requests (request 0 of component 1)", …); and each one line: the
 *     lane has posted in this superstep ("bspram: a combining batch: lane 1
 *     posted messages in this superstep; a batch starts right after an
 *     exchange (its first phase would deliver them as requests)"); the
 *     team of another machine ("bspram: internal error: a combining batch
 *     on the team of another machine than the combiner's"); t, c, requests
 *     or first NULL ("bspram: bspram__combine_team(c=NULL): c must not be
 *     NULL").
 * @par BSP cost
 *     As bspram_combine: the batch's supersteps ("combine:observe:j",
 *     "combine:forward:i", "combine:reverse:j"), each one exchange and one
 *     record of this team; with stats one barrier more, and over MPI with
 *     results two barriers and two MPI_Allgatherv of O(requests) that share
 *     the answers.
 * @par Thread safety
 *     A lane inside its team: every lane of the team.
 */
void bspram__combine_team(bspram_team *t, bspram_combiner *c, const bspram_request *requests,
                         const uint64_t *first, uint64_t *results, bspram_combine_stats *stats);

/* One component's share of a batch given in place: its n requests in issue
 * order, and where their answers go (may be NULL if none of them is a READ
 * or FETCH). The requests are either an array of bspram_request
 * (results[j] answers request j), or — requests NULL — the arrays form, one
 * kind for all, so that a bulk program's arrays of cells and values reach
 * the engine as they are (a PRAM bulk phase: per slots a VP, VPs from
 * label0): slot s is {cells[s], values ? values[s] : 0, kind,
 * label0 + s / per}, and results[s] answers it. Without gaps (gaps 0) the
 * n slots are the n requests; with gaps, cells has `gaps` slots more than
 * requests, the slots holding BSPRAM__NO_REQUEST are none (their results
 * are left as they are) and the others are the requests in slot order — a
 * bulk phase whose VPs skip some of their slots needs no copy of its
 * requests. bspram__batch_part_slots, bspram__batch_part_gap and
 * bspram__batch_part_slot read every form by slot; request j is the j-th
 * slot that is no gap. */
typedef struct bspram_batch_part {
    const bspram_request *requests;
    uint64_t n;
    uint64_t *results;
    const uint64_t *cells, *values; /* the arrays form */
    uint64_t gaps;                  /* the arrays form: slots that are no request
                                       (not read in the requests form) */
    uint32_t label0, per;
    uint8_t kind;
} bspram_batch_part;

/* A slot of the arrays form that is no request (BSPRAM_PRAM_NONE's value). */
#define BSPRAM__NO_REQUEST UINT64_MAX

/* The slots of a part: n + gaps (requests and gaps), in either form.
 *
 * @param part    the part; not NULL (not checked)
 * @return        part->n for the requests form, part->n + part->gaps for
 *                the arrays form
 * @pre           None.
 * @par Errors
 *     None: nothing is checked.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, while the part is not written.
 */
static inline uint64_t bspram__batch_part_slots(const bspram_batch_part *part)
{
    return part->requests ? part->n : part->n + part->gaps;
}

/* Whether slot s of a part is a gap (no request).
 *
 * @param part    the part; not NULL (not checked)
 * @param s       the slot
 * @return        true only in the arrays form with gaps, for a slot whose
 *                cell is BSPRAM__NO_REQUEST
 * @pre           s < bspram__batch_part_slots(part).
 * @par Errors
 *     None: nothing is checked.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, while the part's arrays are not written.
 */
static inline bool bspram__batch_part_gap(const bspram_batch_part *part, uint64_t s)
{
    return !part->requests && part->gaps && part->cells[s] == BSPRAM__NO_REQUEST;
}

/* The request in slot s of a part, in either form (results[s] answers it).
 *
 * @param part    the part; not NULL (not checked)
 * @param s       the slot: in the requests form and in the arrays form
 *                without gaps, the request's index in issue order
 * @return        the request: part->requests[s], or the arrays form's
 *                {cells[s], values ? values[s] : 0, kind, label0 + s / per}
 * @pre           s < bspram__batch_part_slots(part) and slot s is no gap;
 *                in the arrays form, per ≥ 1.
 * @par Errors
 *     None: nothing is checked.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, while the part's arrays are not written.
 */
static inline bspram_request bspram__batch_part_slot(const bspram_batch_part *part, uint64_t s)
{
    if (part->requests)
        return part->requests[s];
    return (bspram_request){part->cells[s], part->values ? part->values[s] : 0, part->kind,
                            part->label0 + (uint32_t)(s / part->per)};
}

/* bspram__combine_team with component c's requests in parts[c], for
 * programs whose components keep their requests apart — a bulk program's
 * or a BSPlib process's queue.
 *
 * Each lane reads the entries of its own block only. The same engine,
 * batch and records as the array form; the answers go to each part's
 * results, on the rank of the part's component (nothing is shared between
 * ranks).
 *
 * @param t       the lane's handle; not NULL
 * @param c       the combiner, of the team's machine; not NULL
 * @param parts   p entries, parts[c] component c's requests and results;
 *                not NULL
 * @param stats   receives what the batch cost, on the leading lane; NULL
 *                on every lane, or on none
 * @pre           As bspram__combine_team.
 * @par Errors
 *     As bspram__combine_team ("results=NULL" when a part with a READ or
 *     FETCH has no results: "bspram: bspram_combine(results=NULL): the
 *     batch holds READ or FETCH requests (request 0 of component 1)"); t, c
 *     or parts NULL ("bspram: bspram__combine_team_parts(parts=NULL): parts
 *     must not be NULL").
 * @par BSP cost
 *     As bspram__combine_team, without the sharing of answers over MPI.
 * @par Thread safety
 *     A lane inside its team: every lane of the team.
 */
void bspram__combine_team_parts(bspram_team *t, bspram_combiner *c, const bspram_batch_part *parts,
                               bspram_combine_stats *stats);

/* What the last batch's merges met (Valiant 1990, §4: combining merges the
 * requests for one cell on their way, so a merge is a concurrent access):
 * an OR of the bits below, found with O(1) per merge whatever the watch
 * (bspram_combiner_watch lists conflicts; this only says which kinds
 * occurred). The PRAM's weakest model (pram/trace.c) is read from it. */
enum {
    BSPRAM__MET_READS = 1,   /* two reads of one cell with different labels */
    BSPRAM__MET_WRITES = 2,  /* two writes of one cell with different labels */
    BSPRAM__MET_VALUES = 4,  /* two writes of one cell with different values */
    BSPRAM__MET_UPDATES = 8  /* two combining updates (reduce, fetch-and-op,
                                combining write) of one cell */
};

/* What the last batch's merges met: an OR of BSPRAM__MET_READS,
 * BSPRAM__MET_WRITES, BSPRAM__MET_VALUES and BSPRAM__MET_UPDATES (above).
 *
 * Over MPI every rank calls it alike and gets the OR of every rank's.
 *
 * @param c       the combiner; not NULL (not checked)
 * @return        the OR of the kinds met by the last batch
 * @pre           A batch has run since the combiner's creation (else 0).
 * @par Errors
 *     None of its own: c is not checked for NULL; over MPI
 *     bspram__bsp_machine_sum's (a rank without a lane).
 * @par BSP cost
 *     None recorded (no superstep). O(T) local; over MPI one MPI_Allreduce
 *     of 4 words.
 * @par Thread safety
 *     The host only, after the batch; over MPI every rank alike.
 */
unsigned bspram__combine_met(bspram_combiner *c);

/* Over MPI (a spread machine) make words[i], the value of cell base + i of
 * space s for i < n as this rank read it, whole on every rank: each rank
 * gives the cells its components own (bspram__bsp_machine_share_owned).
 *
 * Nothing on one machine (nor on a machine that is not spread).
 *
 * @param m       the machine; not NULL
 * @param s       the address space whose owners decide (bspram_owner); read
 *                only when m is spread
 * @param base    the address of words[0]'s cell
 * @param words   the n values, shared in place; may be NULL only when n = 0
 * @param n       the number of cells, alike on every rank
 * @pre           base + i for i < n are cells of s (bspram_owner's
 *                addresses).
 * @par Errors
 *     bspram__bsp_machine_share_owned's, under its name ("bspram:
 *     bspram__bsp_machine_share_owned(words=NULL): words must not be
 *     NULL"); over MPI bspram_owner's (s NULL: "bspram: bspram_owner(s=NULL):
 *     s must not be NULL").
 * @par BSP cost
 *     None recorded (no superstep). Over MPI O(n) owner look-ups and one
 *     MPI_Allreduce of n words; otherwise O(1).
 * @par Thread safety
 *     The host only: collective over the ranks, every rank alike and in
 *     the same order.
 */
void bspram__combine_share_range(bspram_machine *m, const bspram_space *s, uint64_t base, uint64_t *words,
                                 size_t n);

#endif
