/* bspram — the PRAM on the BSP machine.
 *
 * Valiant (1990, §3–4): a BSP computer of p components whose memory is
 * spread by a random hash function emulates a PRAM of n = p·s virtual
 * processors (slack s = n/p) with a constant factor of loss once s is large
 * enough, concurrent accesses being combined on the way (multi-phase
 * combining, combine/combine.h). This layer makes that machine: n virtual
 * processors (VPs), a shared memory of arrays in the hashed address space,
 * the classic access models, and each step's cost read back from the
 * router's records.
 *
 * Virtual processors. VP i (0 ≤ i < n) is hosted by component
 *     i div ceil(n/p)
 * (blocks of ceil(n/p) consecutive VPs; the last components may host fewer
 * or none), and its requests are that component's, in VP order.
 *
 * Steps. A PRAM step is: reads, local computation, writes; all reads of a
 * step see memory as it was before the step's writes. Each phase that
 * touches memory is one combining batch: the reads one batch, the writes
 * another (so a step costs up to two batches). Two ways to write steps:
 *   bulk     bspram_pram_gather (the read phase of a new step) and then
 *            bspram_pram_scatter / _scatter_reduce / _fetch_op (its write
 *            phase), over arrays of cell names with k per VP — the fast path.
 *            A write phase not preceded by a gather is a step without reads.
 *   per VP   bspram_pram_step(P, read, write, arg): read(vp) issues the VP's
 *            reads, write(vp) sees their values in issue order and issues the
 *            VP's writes — textbook "for all i in parallel do" pseudocode line
 *            by line.
 *
 * Models and their rules (two requests "meet" when they name the same cell
 * in the same phase of a step):
 *   EREW             no two reads and no two writes of one cell in a step;
 *   CREW             concurrent reads; no two writes of one cell;
 *   CRCW_COMMON      concurrent writes must write the same value;
 *   CRCW_ARBITRARY   one of the written values wins (the engine's seeded
 *                    arbitrary rule: a pure function of the seed);
 *   CRCW_PRIORITY    the write of the least VP id wins;
 *   CRCW_COMBINING   the cell gets the ⊕ of the written values (config.op,
 *                    any of the engine's operations, user operations
 *                    included).
 * Scatter-reduce (cell ← cell ⊕ values) and fetch-and-op (Ultracomputer
 * multiprefix) are combining operations: CRCW_COMBINING only. A cell read in
 * a step's read phase may be written in its write phase in every model.
 *
 * Violations are found where combining meets them (the engine watches its
 * merges: bspram_combiner_watch), not by a second pass over the requests.
 * Default: the first violation is fatal, one line naming the step, the cell,
 * two VPs and the model, e.g.
 *     bspram: EREW violation in step 3: VPs 17 and 40 both read cell A[5]
 * and every thread exits with status 1. In report mode (config.report) the
 * run goes on under the CRCW-arbitrary rule, every violation is counted per
 * step, the first BSPRAM_PRAM_REPORT_KEEP are kept in full, and
 * bspram_pram_report prints them.
 *
 * Costs (bspram_pram_stats): PRAM time (steps), work (VP operations: reads
 * and writes issued), the emulation cost (Σ of the charges max(q, r) of the
 * supersteps the steps ran, read from the router's records) and the slowdown
 *     emulation cost / (steps × ceil(n/p)),
 * Valiant's measure: 1 would be an ideal emulation of ceil(n/p) VPs per
 * component. A per-step trace (reads, writes, violations, supersteps,
 * charge) is kept and can be written as CSV or JSON; the supersteps also go
 * to BSPRAM_TRACE (bsp/trace.h) like every machine's.
 *
 * Determinism: same config (seed included) ⇒ same results, statistics and
 * reports for any thread count.
 *
 * Errors are fatal (base/error.h): one line naming the call and its
 * arguments, exit status 1.
 */
#ifndef BSPRAM_PRAM_PRAM_H
#define BSPRAM_PRAM_PRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/api.h"
#include "combine/combine.h"

BSPRAM_BEGIN_DECLS

typedef enum {
    BSPRAM_EREW = 0,
    BSPRAM_CREW,
    BSPRAM_CRCW_COMMON,
    BSPRAM_CRCW_ARBITRARY,
    BSPRAM_CRCW_PRIORITY,
    BSPRAM_CRCW_COMBINING
} bspram_pram_model;

/* "EREW", "CREW", "CRCW-common", "CRCW-arbitrary", "CRCW-priority",
 * "CRCW-combining"; NULL for an unknown model. */
const char *bspram_pram_model_name(bspram_pram_model model);
/* The model of a name (the names above, case-insensitive, also with '_'
 * for '-'; "CRCW-combining" may carry an operation: "crcw-combining:max:u64",
 * whose id goes to *op if op is not NULL). Returns −1 for an unknown name. */
int bspram_pram_model_parse(const char *name, unsigned *op);

/* Largest n: VP ids are 32-bit labels in the engine's conflict reports. */
#define BSPRAM_PRAM_MAX_VPS UINT32_MAX
/* Violations kept in full in report mode (the rest are counted). */
#define BSPRAM_PRAM_REPORT_KEEP 16

typedef struct bspram_pram_config {
    uint64_t n;              /* virtual processors, 1 ≤ n ≤ BSPRAM_PRAM_MAX_VPS */
    uint64_t p;              /* components, 1 ≤ p ≤ 2^31 */
    int threads;             /* T worker threads */
    bspram_pram_model model;
    unsigned op;             /* CRCW_COMBINING: the write rule's operation (default sum:i64) */
    unsigned registers;      /* private 64-bit registers per VP (bspram_vp_registers) */
    bool report;             /* report mode instead of fatal violations */
    uint64_t seed;           /* hashing, spreading and arbitrary winners */
    bspram_combine_options combine; /* the engine's options (default: AUTO basis) */
} bspram_pram_config;

/* n VPs, model, p = min(n, 4096), T = omp_get_max_threads() (at most
 * BSPRAM_DEFAULT_MAX_THREADS), op = sum:i64, 4 registers, fatal violations,
 * seed 0, the AUTO basis. Never fails; create checks the values. */
bspram_pram_config bspram_pram_config_default(uint64_t n, bspram_pram_model model);

typedef struct bspram_pram bspram_pram;

/* Errors (fatal): n or p out of range; an unknown model or operation;
 * threads out of range (bsp/machine.h). Cost: O(n·registers + p). */
bspram_pram *bspram_pram_create(const bspram_pram_config *config);
void bspram_pram_destroy(bspram_pram *P);

uint64_t bspram_pram_n(const bspram_pram *P);
uint64_t bspram_pram_p(const bspram_pram *P);
bspram_pram_model bspram_pram_model_of(const bspram_pram *P);
/* The component that hosts VP i: i div ceil(n/p). */
uint64_t bspram_pram_host(const bspram_pram *P, uint64_t vp);
/* The underlying machine and combiner (records, user operations). */
bspram_machine *bspram_pram_machine(bspram_pram *P);
bspram_combiner *bspram_pram_combiner(bspram_pram *P);

/* CRCW_COMBINING: the write rule's operation from now on — e.g. a user
 * operation registered on bspram_pram_combiner(P) after create (create takes
 * built-in operations only: user ones do not exist yet). Errors: another
 * model; op not an operation of the combiner. bspram_pram_op returns the
 * current one. */
void bspram_pram_set_op(bspram_pram *P, unsigned op);
unsigned bspram_pram_op(const bspram_pram *P);

/* ---- shared memory: arrays of 64-bit cells ---- */

/* An array: a hashed segment of the address space (hash/address_space.h). */
typedef uint32_t bspram_pram_array;

/* A cell name: the address of cell `index` of an array, as bulk operations
 * take them; BSPRAM_PRAM_NONE means "no access" (an idle slot). */
#define BSPRAM_PRAM_NONE UINT64_MAX

/* Allocate an array of `cells` 64-bit cells, all 0. `name` (copied, at most
 * 15 bytes kept) names it in violation reports ("A[5]"). Not a PRAM step.
 * Errors: cells = 0 or above 2^40; too many arrays. Cost O(cells + p). */
bspram_pram_array bspram_pram_alloc(bspram_pram *P, const char *name, uint64_t cells);
void bspram_pram_free(bspram_pram *P, bspram_pram_array a);
uint64_t bspram_pram_cells(const bspram_pram *P, bspram_pram_array a);

/* The name of cell `index` of array a. Errors: no such array; index out of
 * range ("bspram_pram_cell(array=A, index=10): index out of range [0, 10)"). */
uint64_t bspram_pram_cell(const bspram_pram *P, bspram_pram_array a, uint64_t index);

/* Host access, outside the PRAM's steps and costs (the input and output of
 * a program): copy `count` values into / out of cells [0, count). */
void bspram_pram_load(bspram_pram *P, bspram_pram_array a, const uint64_t *values, uint64_t count);
void bspram_pram_store(const bspram_pram *P, bspram_pram_array a, uint64_t *values, uint64_t count);

/* ---- bulk steps (the fast path) ---- */

/* The read phase of a new step: VP i reads the k cells
 * cells[i·k .. i·k+k) (BSPRAM_PRAM_NONE: no read) into out[i·k + j]
 * (left unchanged for NONE). Errors: k = 0; a cell that names no live
 * array; a violation (see the top). Cost: one combining batch (its forward
 * and reverse supersteps). */
void bspram_pram_gather(bspram_pram *P, uint64_t k, const uint64_t *cells, uint64_t *out);

/* The write phase of the current step (of a new one if the last phase was a
 * write): VP i writes values[i·k + j] to cells[i·k + j] (NONE: no write)
 * under the model's rule. Cost: one batch (forward supersteps only). */
void bspram_pram_scatter(bspram_pram *P, uint64_t k, const uint64_t *cells, const uint64_t *values);

/* Write phase, CRCW_COMBINING only: cell ← cell ⊕ values with operation
 * op. Errors: another model ("bspram_pram_scatter_reduce: the EREW model
 * has no combining operations; use CRCW-combining"). */
void bspram_pram_scatter_reduce(bspram_pram *P, uint64_t k, const uint64_t *cells,
                                const uint64_t *values, unsigned op);

/* Write phase, CRCW_COMBINING only: cell ← cell ⊕ values, and out[i·k+j]
 * gets the cell's value before the contributions that precede it in the
 * combining order (multiprefix; combine.h). Cost: one batch with its
 * reverse flow. */
void bspram_pram_fetch_op(bspram_pram *P, uint64_t k, const uint64_t *cells,
                          const uint64_t *values, unsigned op, uint64_t *out);

/* ---- per-VP steps (for teaching) ---- */

/* A VP inside bspram_pram_step (valid during the callback). */
typedef struct bspram_vp bspram_vp;

typedef void (*bspram_vp_fn)(bspram_vp *vp, void *arg);

/* One step: read(vp, arg) for every VP (it issues the VP's reads), one
 * batch, then write(vp, arg) for every VP (it sees the values read and
 * issues the VP's writes), one batch. Either callback may be NULL (no reads
 * or no writes). Callbacks run concurrently on the machine's threads, VPs
 * of one component in increasing order: they must touch only their own
 * VP's data (or be thread-safe). Cost: up to two batches. */
void bspram_pram_step(bspram_pram *P, bspram_vp_fn read, bspram_vp_fn write, void *arg);

uint64_t bspram_vp_id(const bspram_vp *vp);
uint64_t bspram_vp_n(const bspram_vp *vp);
/* The VP's private registers (config.registers words, 0 at create, kept
 * across steps). */
uint64_t *bspram_vp_registers(bspram_vp *vp);

/* In read: read cell `index` of array a; returns the read's number
 * (0, 1, … in issue order). Errors: called in write; bad array or index. */
uint64_t bspram_vp_read(bspram_vp *vp, bspram_pram_array a, uint64_t index);
/* In write: the value of read number k of this VP in this step. Errors:
 * called in read; k out of range. */
uint64_t bspram_vp_value(const bspram_vp *vp, uint64_t k);
/* In write: write value to cell `index` of array a (the model's rule). */
void bspram_vp_write(bspram_vp *vp, bspram_pram_array a, uint64_t index, uint64_t value);
/* In write, CRCW_COMBINING only: cell ⊕= value with operation op. */
void bspram_vp_reduce(bspram_vp *vp, bspram_pram_array a, uint64_t index, uint64_t value,
                      unsigned op);

/* ---- costs, trace and report ---- */

typedef struct bspram_pram_stats {
    uint64_t steps;       /* PRAM time */
    uint64_t work;        /* VP operations: reads and writes issued */
    uint64_t supersteps;  /* BSP supersteps the steps ran */
    uint64_t charge;      /* emulation cost: Σ max(q, r) over those supersteps */
    double slowdown;      /* charge / (steps · ceil(n/p)); 0 before the first step */
    uint64_t violations;  /* (cell, kind) violations, report mode */
} bspram_pram_stats;

bspram_pram_stats bspram_pram_stats_of(const bspram_pram *P);

/* One step of the trace. */
typedef struct bspram_pram_step_record {
    uint64_t step;        /* 1, 2, … */
    uint64_t reads, writes;
    uint64_t violations;
    uint64_t supersteps;
    uint64_t charge;
} bspram_pram_step_record;

const bspram_pram_step_record *bspram_pram_trace(const bspram_pram *P, size_t *n);

/* Write the per-step trace to path (.json → JSON, anything else → CSV with
 * the header step,reads,writes,violations,supersteps,charge). Returns 0, or
 * −1 with errno set. */
int bspram_pram_write_trace(const bspram_pram *P, const char *path);

/* Report mode: print the violations (counts per step, the first
 * BSPRAM_PRAM_REPORT_KEEP in full, one line each as in fatal mode) to out.
 * Returns the number of violations. */
uint64_t bspram_pram_report(const bspram_pram *P, FILE *out);

BSPRAM_END_DECLS
#endif
