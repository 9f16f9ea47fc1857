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
 *            A write phase not preceded by a gather is a step without reads;
 *            a gather not followed by a write phase is a step without writes.
 *   per VP   bspram_pram_step(P, read, write, arg): read(vp) issues the VP's
 *            reads, write(vp) sees their values in issue order and issues the
 *            VP's writes — textbook "for all i in parallel do" pseudocode line
 *            by line. A per-VP step is always one whole step.
 * The same requests in the same order make the same batches: a per-VP step
 * and the bulk phases that issue what it issues give the same memory,
 * answers, records and costs.
 *
 * Models and their rules (two requests "meet" when they name the same cell
 * in the same phase of a step):
 *   EREW             no two reads and no two writes of one cell in a step;
 *   CREW             concurrent reads; no two writes of one cell;
 *   CRCW_COMMON      concurrent writes must write the same value;
 *   CRCW_ARBITRARY   one of the written values wins (the engine's seeded
 *                    arbitrary rule, combine.h: of the writes to a cell,
 *                    the least bspram_random2(config.seed, component,
 *                    request index) wins, a request's index counting the
 *                    requests its component issued before it in the phase);
 *   CRCW_PRIORITY    the write of the least VP id wins (of one VP's writes
 *                    to a cell, its first);
 *   CRCW_COMBINING   the cell gets the ⊕ of the written values (config.op,
 *                    or a user operation chosen by bspram_pram_set_op).
 * Scatter-reduce (cell ← cell ⊕ values) and fetch-and-op (Ultracomputer
 * multiprefix) are combining operations: CRCW_COMBINING only; one cell takes
 * one kind of update per phase (a write and a reduce, or two operations, at
 * one cell in one phase are the engine's fatal error). A cell read in a
 * step's read phase may be written in its write phase in every model.
 * A VP that reads (or writes) one cell twice in a phase competes with no
 * other VP: that is no EREW or CREW violation (under CRCW_COMMON its values
 * must still agree).
 *
 * Violations are found where combining meets them (the engine watches its
 * merges: bspram_combiner_watch), not by a second pass over the requests.
 * A violation is one (cell, kind) of one phase, kind one of
 *     EREW violation in step 3: VPs 17 and 40 both read cell A[5]
 *     CREW violation in step 3: VPs 17 and 40 both write cell A[5]
 *     CRCW-common violation in step 3: VPs 17 and 40 write different values to cell A[5]
 * (EREW names "both write" too). For reads and writes the VPs named are the
 * two least distinct VPs that accessed the cell; for common writes they are
 * two VPs that wrote different values there — which two, when more than two
 * wrote, depends on the combining tree (a pure function of the seed); if one
 * VP wrote two values: "VP 17 writes different values to cell A[5]". A cell
 * is named "name[index]", or "#3[index]" for array 3 if it has no name.
 * Default: the first violation is fatal — of the first phase that has any,
 * its least cell (arrays in allocation-number order, then index) — printed
 * as one line "bspram: <violation>", and every thread exits with status 1.
 * In report mode (config.report) the run goes on under the CRCW-arbitrary
 * rule, every violation is counted per step, the first
 * BSPRAM_PRAM_REPORT_KEEP (in step order, within a phase by cell) are kept
 * in full, and bspram_pram_report prints them.
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
 * Seeds: config.seed keys everything random — the spreading of the
 * combining phases and the arbitrary winners (the engine's seed is
 * config.seed; config.combine.seed is ignored) and the address space's hash
 * (a hash function drawn from a stream of its own derived from config.seed).
 *
 * Determinism: same config (seed included) ⇒ same results, statistics,
 * trace and reports for any thread count and either transport.
 *
 * Errors are fatal (base/error.h): one line naming the call and its
 * arguments, exit status 1. So is a NULL pointer argument that a call
 * needs — the PRAM, a VP, a config, a name to parse, an output
 * ("bspram_pram_n(P=NULL): P must not be NULL"; docs/limits.md). NULL is
 * allowed where a function says so: the op of bspram_pram_model_parse, an
 * array's name, a step's callbacks and arg, and bspram_pram_destroy(NULL),
 * which does nothing.
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
 * BSPRAM_DEFAULT_MAX_THREADS; over MPI that many on every rank, as
 * bspram_config_default), op = sum:i64, 4 registers, fatal violations,
 * seed 0, the AUTO basis. Never fails; create checks the values.
 * Over MPI (libbspram-mpi) every rank runs the host's calls alike and gets
 * every answer, cell, statistic and violation whole (docs/mpi.md). */
bspram_pram_config bspram_pram_config_default(uint64_t n, bspram_pram_model model);

typedef struct bspram_pram bspram_pram;

/* Errors (fatal): n or p out of range; an unknown model; an operation that
 * is not built in (op ≥ BSPRAM_BUILTIN_OPS: user operations are registered
 * after create, then chosen with bspram_pram_set_op); registers above 65536;
 * threads out of range (bsp/machine.h); bad combine options (combine.h).
 * Cost: O(n·registers + p) (the registers are zero pages until touched). */
bspram_pram *bspram_pram_create(const bspram_pram_config *config);
void bspram_pram_destroy(bspram_pram *P);

uint64_t bspram_pram_n(const bspram_pram *P);
uint64_t bspram_pram_p(const bspram_pram *P);
bspram_pram_model bspram_pram_model_of(const bspram_pram *P);
/* The component that hosts VP i: i div ceil(n/p). Error: vp ≥ n. */
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
 * 15 bytes kept; NULL: no name) names it in violation reports ("A[5]"). Not
 * a PRAM step.
 * Errors: cells = 0 or above 2^40; too many arrays. Cost O(cells + p). */
bspram_pram_array bspram_pram_alloc(bspram_pram *P, const char *name, uint64_t cells);
void bspram_pram_free(bspram_pram *P, bspram_pram_array a);
uint64_t bspram_pram_cells(const bspram_pram *P, bspram_pram_array a);

/* The name of cell `index` of array a. Errors: no such array; index out of
 * range ("bspram_pram_cell(array=A, index=10): index out of range [0, 10)"). */
uint64_t bspram_pram_cell(const bspram_pram *P, bspram_pram_array a, uint64_t index);

/* Host access, outside the PRAM's steps and costs (the input and output of
 * a program): copy `count` values into / out of cells [0, count). Errors:
 * no such array; count above its cells; values NULL with count > 0. */
void bspram_pram_load(bspram_pram *P, bspram_pram_array a, const uint64_t *values, uint64_t count);
void bspram_pram_store(const bspram_pram *P, bspram_pram_array a, uint64_t *values, uint64_t count);

/* ---- bulk steps (the fast path) ---- */

/* The read phase of a new step: VP i reads the k cells
 * cells[i·k .. i·k+k) (BSPRAM_PRAM_NONE: no read) into out[i·k + j]
 * (left unchanged for NONE). Errors: k = 0; ceil(n/p)·k above 2^32 − 1 (the
 * engine numbers a component's requests in 32 bits); cells or out NULL; a
 * cell that names no cell of a live array ("bspram_pram_gather(k=2,
 * cells[11]=0x20000000003): names no cell of a live array (VP 5, step 1)");
 * a violation (see the top). Cost: one combining batch (its forward and
 * reverse supersteps), run by the machine's threads (each lays out its own
 * components' requests); O(n·k) memory kept for the next phases. */
void bspram_pram_gather(bspram_pram *P, uint64_t k, const uint64_t *cells, uint64_t *out);

/* The write phase of the current step (of a new one if the last phase was a
 * write or a per-VP step): VP i writes values[i·k + j] to cells[i·k + j]
 * (NONE: no write) under the model's rule. Errors: as gather, with values
 * NULL in place of out NULL. Cost: one batch (forward supersteps only). */
void bspram_pram_scatter(bspram_pram *P, uint64_t k, const uint64_t *cells, const uint64_t *values);

/* Write phase, CRCW_COMBINING only: cell ← cell ⊕ values with operation
 * op. Errors: another model ("bspram_pram_scatter_reduce: the EREW model
 * has no combining operations; use CRCW-combining"); op not an operation of
 * the combiner; as scatter. */
void bspram_pram_scatter_reduce(bspram_pram *P, uint64_t k, const uint64_t *cells,
                                const uint64_t *values, unsigned op);

/* Write phase, CRCW_COMBINING only: cell ← cell ⊕ values, and out[i·k+j]
 * gets the cell's value before the contributions that precede it in the
 * combining order (multiprefix; combine.h) — left unchanged for NONE.
 * Errors: as scatter_reduce; out NULL. Cost: one batch with its reverse
 * flow. */
void bspram_pram_fetch_op(bspram_pram *P, uint64_t k, const uint64_t *cells,
                          const uint64_t *values, unsigned op, uint64_t *out);

/* ---- per-VP steps (for teaching) ---- */

/* A VP inside bspram_pram_step (valid during the callback). */
typedef struct bspram_vp bspram_vp;

typedef void (*bspram_vp_fn)(bspram_vp *vp, void *arg);

/* One step: read(vp, arg) for every VP (it issues the VP's reads), one
 * batch, then write(vp, arg) for every VP (it sees the values read and
 * issues the VP's writes), one batch. Either callback may be NULL (no reads
 * or no writes; both NULL: a step that costs nothing). Callbacks run
 * concurrently on the machine's threads, VPs of one component in increasing
 * order: they must touch only their own VP's data (or be thread-safe). They
 * may ask read-only questions (bspram_pram_cell, _cells, _n, …) but not run
 * phases (gather, scatter, …, step: the machine's team is running, fatal)
 * nor allocate, free, load or store. The bspram_vp_* functions' errors name the VP and the step, e.g.
 * "bspram_vp_read(array=A, index=16): index out of range [0, 16) (VP 5,
 * step 2)"; calling one in the wrong callback is fatal ("bspram_vp_write(…):
 * called in the read callback (VP 5, step 2); writes are issued in the
 * write callback"). Cost: up to two batches. */
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
 * called in read; k out of range (or no reads issued). */
uint64_t bspram_vp_value(const bspram_vp *vp, uint64_t k);
/* In write: write value to cell `index` of array a (the model's rule).
 * Errors: called in read; bad array or index. */
void bspram_vp_write(bspram_vp *vp, bspram_pram_array a, uint64_t index, uint64_t value);
/* In write, CRCW_COMBINING only: cell ⊕= value with operation op.
 * Errors: another model; called in read; op not an operation of the
 * combiner; bad array or index. */
void bspram_vp_reduce(bspram_vp *vp, bspram_pram_array a, uint64_t index, uint64_t value,
                      unsigned op);

/* ---- costs, trace and report ---- */

typedef struct bspram_pram_stats {
    uint64_t steps;       /* PRAM time */
    uint64_t work;        /* VP operations: reads and writes issued */
    uint64_t supersteps;  /* BSP supersteps the steps ran */
    uint64_t charge;      /* emulation cost: Σ max(q, r) over those supersteps */
    double slowdown;      /* charge / (steps · ceil(n/p)); 0 before the first step */
    uint64_t violations;  /* (cell, kind) violations, report mode (one per cell
                             and kind in each phase) */
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
 * the header step,reads,writes,violations,supersteps,charge, one row per
 * step; JSON: an array of objects with those six fields). Returns 0, or −1
 * with errno set. Over MPI (libbspram-mpi) every rank calls it alike; rank 0
 * writes the file, and every rank returns once it is written, with its result. */
int bspram_pram_write_trace(const bspram_pram *P, const char *path);

/* Report mode: print the violations to out, and return their number:
 *     EREW: 23 violations in 2 steps          (the model; "1 violation in 1 step")
 *     step 2: 3                               (one line per step that has any)
 *     step 4: 20
 *     EREW violation in step 2: VPs 17 and 40 both read cell A[5]
 *     …                                       (the first BSPRAM_PRAM_REPORT_KEEP,
 *                                              the fatal line without "bspram: ")
 *     ... and 7 more                          (if more were counted)
 * or the one line "EREW: no violations". */
uint64_t bspram_pram_report(const bspram_pram *P, FILE *out);

BSPRAM_END_DECLS
#endif
