/* bspram — Valiant's experiment (§4): performance factor against degree.
 *
 * Patterns (§4): degree d means v/d addresses with d requests each; every
 * component issues q = v/p requests, to q distinct addresses. Here request
 * slot s of component c is x = s·p + c and goes to cell x div d of one
 * hashed segment, with value x + 1 (a REDUCE sum:u64); for d ≤ p the d
 * requests of a cell come from d distinct components, and those of one
 * component go to distinct cells.
 *
 * A run draws a new hash function H (Valiant draws the h_i anew for every
 * pattern), runs the one-phase degree-1 pattern (the baseline, ≈ 54.4 at
 * p = 2^12, v = 2^17) and then every entry, on the same address space, and
 * checks every cell against a sequential fold of the pattern. The factor of
 * an entry is its mean total charge over the runs divided by the baseline's
 * mean charge; its phase factors are its mean phase charges divided by the
 * same; its spread is the standard deviation of the per-run ratio (a run's
 * charge over that run's baseline). All charges are the router's records.
 *
 * Deterministic: a pure function of (p, v, entries, runs, seed, hash kind,
 * spread), for any thread count.
 *
 * NULL: the space, requests, first, cfg, entries (when n > 0) and baseline
 * must not be NULL; NULL is refused in one line naming the call and the
 * argument, exit status 1 (docs/limits.md). bspram_pattern_check's err may
 * be NULL (no reason wanted).
 */
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "combine/experiment.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
#ifndef BSPRAM_COMBINE_EXPERIMENT_H
#define BSPRAM_COMBINE_EXPERIMENT_H

#include <stdint.h>

#include "base/api.h"
#include "combine/combine.h"

BSPRAM_BEGIN_DECLS

typedef struct bspram_table_entry {
    /* input */
    char basis_text[BSPRAM_BASIS_TEXT_MAX]; /* "8x8x8x8", "4096", "auto", "auto:16", "adaptive" */
    bspram_strategy strategy;
    bspram_basis basis;           /* FIXED */
    uint64_t degree_hint;         /* AUTO: the hint; BSPRAM_TABLE_HINT_DEGREE = the row's degree */
    uint64_t degree;
    /* output */
    unsigned phases;
    double phase_charge[BSPRAM_MAX_PHASES + 2]; /* [1..phases], mean over runs */
    double total;                 /* mean total charge */
    double factor_sd;             /* the spread of the factor: the standard deviation over the
                                     runs of a run's total charge over its baseline's (0 for
                                     one run) */
    double ratio_sum, ratio_sum2; /* (work) that ratio's sum and sum of squares */
    char chosen[BSPRAM_BASIS_TEXT_MAX]; /* the basis run (AUTO/ADAPTIVE), formatted */
} bspram_table_entry;

#define BSPRAM_TABLE_HINT_DEGREE UINT64_MAX

/* What a factor counts (Valiant §5):
 *   SYNC         the router's charges Σ max(q_i, r_i) of the engine's
 *                supersteps (his tables);
 *   CYCLES_SYNC  cycles of the simple router, each component sending and
 *                receiving at most one message per cycle, by a greedy
 *                online order (seeded random priorities), phase after
 *                phase — the same algorithm as SYNC on the cycle model;
 *   ASYNC        the same model, the asynchronous algorithm of §5: a
 *                request goes on to its next phase as soon as it arrives,
 *                if it is the first of its address there in that phase.
 * The baseline is then the one-phase degree-1 pattern's cycles in the same
 * model. */
typedef enum {
    BSPRAM_SCHEDULE_SYNC = 0,
    BSPRAM_SCHEDULE_CYCLES_SYNC = 1,
    BSPRAM_SCHEDULE_ASYNC = 2
} bspram_schedule;

/* The machine of the cycle schedules: the simple router, or the S*PRAM
 * (Valiant §5: in a cycle any component transmits to any other, only a
 * component targeted by exactly one message receives it, the senders learn
 * at once whether theirs got through; a failed message retries after binary
 * exponential back-off, combine/cycles.h). The S*PRAM needs a cycle
 * schedule (CYCLES_SYNC or ASYNC). */
typedef enum { BSPRAM_ROUTER_SIMPLE = 0, BSPRAM_ROUTER_SSTAR = 1 } bspram_router_model;

typedef struct bspram_table_config {
    uint64_t p, v;
    uint64_t runs;
    uint64_t seed;
    int threads;
    bspram_spread spread;
    bspram_hash_kind hash;
    /* Called after every run (NULL: nothing), by one thread of each process
     * while the others wait: runs done and all runs. For a progress line. */
    void (*progress)(uint64_t done, uint64_t runs, void *ctx);
    void *progress_ctx;
    /* last, so that an initializer written for the fields above still fits */
    bspram_schedule schedule;     /* 0 (SYNC): charges */
    bspram_router_model router;   /* 0 (SIMPLE) */
} bspram_table_config;

/* Check (p, v, d) as a §4 pattern: v a positive multiple of p, 1 ≤ d ≤ p,
 * and d dividing v.
 *
 * @param p       the number of components
 * @param v       the number of requests
 * @param d       the degree (requests per address)
 * @param err     where to write a one-line reason on failure; may be NULL
 *                (no reason wanted)
 * @param err_len the size of err in bytes (0: no reason); the reason is cut
 *                to err_len − 1 bytes, as snprintf does
 * @return        0 if the pattern is valid, else −1 with the reason in err
 * @pre           None.
 * @par Errors
 *     Returned, not fatal (−1 and err): "v = 10 must be a positive multiple
 *     of p = 4" (also for p = 0 or v = 0); "degree 0 must be in [1, p = 4]"
 *     (d = 0 or d > p); "degree 3 must divide v = 16".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; it touches only err.
 */
int bspram_pattern_check(uint64_t p, uint64_t v, uint64_t d, char *err, size_t err_len);

/* Fill requests[0..v) and first[0..p] with the degree-d pattern on segment
 * seg of s (kind = REDUCE sum:u64).
 *
 * Request slot sl of component c is x = sl·p + c: address (cell x div d of
 * seg), value x + 1; first[c] = c·(v/p). The requests' label fields are
 * left as they were.
 *
 * @param s        the address space; not NULL
 * @param seg      a live segment of s with at least v/d cells of 8 bytes
 * @param p        the number of components
 * @param v        the number of requests
 * @param d        the degree
 * @param requests room for v requests; not NULL
 * @param first    room for p + 1 offsets; not NULL
 * @pre           (p, v, d) passes bspram_pattern_check (p = 0 or d = 0 is
 *                a division by zero: undefined behaviour); seg has at least
 *                v/d cells (not checked: more addresses than cells make
 *                requests that bspram_combine refuses).
 * @par Errors
 *     Each one line, exit status 1: seg not a live segment ("bspram:
 *     bspram_address(segment=3): no such segment", named as bspram_address);
 *     s, requests or first NULL ("bspram: bspram_pattern_fill(first=NULL):
 *     first must not be NULL"). The pattern itself is not checked.
 * @par BSP cost
 *     None: local, O(v + p).
 * @par Thread safety
 *     Any thread; it reads s (not concurrently with an allocation, free or
 *     rehash on it) and writes only requests and first.
 */
void bspram_pattern_fill(const bspram_space *s, uint32_t seg, uint64_t p, uint64_t v, uint64_t d,
                         bspram_request *requests, uint64_t *first);

/* Run the experiment: for each of cfg->runs runs, draw a new hash
 * function, run the baseline (the one-phase degree-1 pattern) and then
 * every entry's pattern under its basis, checking every cell against the
 * sequential fold; fill the outputs of entries[0..n) and *baseline.
 *
 * It makes its own machine (cfg->p components on cfg->threads threads,
 * seed cfg->seed), address space (family cfg->hash) and combiner, and frees
 * them before it returns; the machine's records are cleared after every run
 * (they go to BSPRAM_TRACE first if it is set). With cfg->runs = 0 nothing
 * runs and every output is 0. Over MPI every rank calls it alike, and each
 * verifies the cells its components own.
 *
 * @param cfg      the experiment's parameters; not NULL
 * @param entries  the n rows: their inputs read, their outputs written; may
 *                 be NULL when n = 0
 * @param n        the number of entries
 * @param baseline receives the mean one-phase degree-1 charge; not NULL
 * @pre           A FIXED entry's basis was made by bspram_basis_make or
 *                bspram_basis_parse.
 * @par Errors
 *     Each one line, exit status 1: a bad (p, v) or degree ("bspram:
 *     bspram table(p=4, v=10): v = 10 must be a positive multiple of p =
 *     4", "bspram: bspram table(p=4, v=16, degree=3): degree 3 must divide
 *     v = 16"); the errors of the objects
 *     it makes, in their own names: threads out of range
 *     (bspram_machine_create), p above 2^31 or an unknown hash family
 *     (bspram_space_create), v above 2^40
 *     (bspram_segment_alloc), a FIXED basis whose product is not p or an
 *     unknown strategy or spread (bspram_combiner_set_options); out of
 *     memory ("bspram: bspram table: out of memory allocating N bytes");
 *     an unknown cfg->schedule ("bspram: bspram_table_run(schedule=7):
 *     unknown schedule; valid: 0 sync, 1 cycles-sync, 2 async") or router,
 *     or the S*PRAM without a cycle schedule ("bspram:
 *     bspram_table_run(router=1, schedule=0): the S*PRAM counts cycles;
 *     give the schedule 1 cycles-sync or 2 async");
 *     cfg or baseline NULL, or entries NULL with n > 0 ("bspram:
 *     bspram_table_run(cfg=NULL): cfg must not be NULL"). A wrong result,
 *     a cell that differs from the sequential reference, is one line and
 *     exit status 3: "bspram: bspram table: verification failed: basis
 *     8x8x8x8, degree 16, run 3: cell 5 differs from the sequential
 *     reduce".
 * @par BSP cost
 *     runs · (1 + n) batches of v REDUCE requests, each m forward
 *     supersteps for its basis of m phases (no reverse flow, no physical
 *     phase: the segment is hashed), each charge read back from the
 *     router's records; O(v) local work per batch to verify. With
 *     CYCLES_SYNC or ASYNC the first lane also runs each batch on the
 *     cycle model (combine/cycles.h), O(v + p) local work per phase plus
 *     the messages its delivery scans (per cycle, until every source or
 *     destination with a waiting message has been used), and an OBSERVE
 *     entry's observation supersteps
 *     (one message out and in per component) count one cycle each.
 *     Memory: the
 *     hashed segment of v cells, and the patterns (32 bytes per request),
 *     all of them kept if they fit in 256 MiB, else the baseline's and one.
 * @par Thread safety
 *     The host only: not from a step of a machine (it runs a machine of its
 *     own, one start of its threads for every run and entry). cfg->progress
 *     is called by one thread of each process while the others wait.
 */
void bspram_table_run(const bspram_table_config *cfg, bspram_table_entry *entries, size_t n,
                      double *baseline);

BSPRAM_END_DECLS
#endif
