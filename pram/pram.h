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
 * another (so a step costs up to two batches). Three ways to write steps:
 *   bulk     bspram_pram_gather (the read phase of a new step) and then
 *            bspram_pram_scatter / _scatter_reduce / _fetch_op (its write
 *            phase), over arrays of cell names with k per VP — the fast path.
 *            A write phase not preceded by a gather is a step without reads;
 *            a gather not followed by a write phase is a step without writes.
 *   per VP   bspram_pram_step(P, read, write, arg): read(vp) issues the VP's
 *            reads, write(vp) sees their values in issue order and issues the
 *            VP's writes. A per-VP step is always one whole step.
 *   textbook bspram_pram_for_all(P, body, arg): body(vp) reads (its values at
 *            once: bspram_vp_get), computes and writes, as "for all i in
 *            parallel do" pseudocode reads; run twice per VP, first to learn
 *            its reads.
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
 * must still agree). Under EREW and CREW the cell gets the VP's last write
 * there in program order — its last bspram_vp_write call, or its last slot
 * for the cell in a bulk phase — for every seed and thread count (its
 * earlier writes there carry that value to the engine; they are still
 * issued and counted).
 *
 * Violations are found where combining meets them (the engine watches its
 * merges: bspram_combiner_watch), not by a second pass over the requests.
 * A violation is one (cell, kind) of one phase, kind one of
 *     EREW violation in step 3 at rank.c:42: VPs 17 and 40 both read cell A[5]
 *     CREW violation in step 3 at rank.c:57: VPs 17 and 40 both write cell A[5]
 *     CRCW-common violation in step 3 at rank.c:57: VPs 17 and 40 write different values to cell A[5]
 * (EREW names "both write" too). "at rank.c:42" is where the program made
 * the access (the file's name without its directories, and the line): the
 * bulk call's, or for a per-VP step each named VP's call of bspram_vp_read,
 * _get, _write or _reduce ("at rank.c:57 and rank.c:60" if the two differ).
 * The macros at the end of this file capture __FILE__ and __LINE__; a
 * function called without its macro ((bspram_vp_read)(vp, A, i)) leaves
 * its site out. Over MPI the VP's rank gives its site to the others.
 * For reads and writes the VPs named are the
 * two least distinct VPs that accessed the cell; for common writes they are
 * two VPs that wrote different values there — which two, when more than two
 * wrote, depends on the combining tree (a pure function of the seed); if one
 * VP wrote two values: "VP 17 writes different values to cell A[5]". A cell
 * is named "name[index]", or "#3[index]" for array 3 if it has no name.
 * Default: the first violation is fatal — of the first phase that has any,
 * its least cell (arrays in allocation-number order, then index) — printed
 * as one line "bspram: <violation>" once the phase's costs are counted (and
 * its line and page written, if BSPRAM_PRAM_REPORT or BSPRAM_PRAM_HTML ask:
 * below), and every thread exits with status 1.
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
 * Checking a run (`bspram pram check`, docs/course.md). Two environment
 * variables, read when a PRAM is created (docs/environment.md):
 *   BSPRAM_PRAM_REPORT=FILE  when the PRAM is destroyed, or when a
 *       violation ends its run, it appends one line of JSON to FILE:
 *         {"pram":0,"model":"CREW","n":64,"p":8,"steps":2,"work":192,
 *          "supersteps":5,"charge":71,"violations":0,"weakest":"CREW",
 *          "weakest_step":2,"needs":[{"model":"CREW","step":2,
 *          "at":"rank.c:42","what":"VPs 5 and 9 both read cell A[3]"}],
 *          "violation":null,"ended":"destroy"}
 *       pram: the PRAM's number in its process (0, 1, … in creation
 *       order); "op" follows "model" on CRCW-combining (its write rule);
 *       the figures are bspram_pram_stats_of's (n the VPs, the charge the
 *       router's records'); needs: each rise of the weakest model the run
 *       needed, in step order: the model, the first step that needed it,
 *       where the program made those accesses ("f.c:42", or two sites "f.c:42
 *       and g.c:57"; null if not known: a call without its macro, or over
 *       MPI ranks) and what the least such cell saw (its two least VPs;
 *       null if not known); violation: the first violation's line (without
 *       "bspram: "), or null; ended: "destroy", or "violation" when a
 *       violation ended the run (fatal mode: the line is appended, then the
 *       job ends as above). The same line for any thread count. Each line
 *       is one write(2) to FILE opened with O_APPEND (created if need be,
 *       never truncated), so lines of PRAMs ending at once in threads or
 *       processes never interleave; a FIFO without a reader is not waited
 *       for; a line that cannot be written is one warning on stderr
 *       ("bspram: BSPRAM_PRAM_REPORT=FILE: cannot append the PRAM's
 *       statistics: …") and the run goes on. Over MPI rank 0 appends.
 *   BSPRAM_PRAM_HTML=F.html  the PRAM records its run from its first step
 *       (bspram_pram_record) and writes its page (bspram_pram_write_html)
 *       then: the first PRAM of the process F.html, the k-th (k ≥ 2)
 *       F-k.html; a page that cannot be written is one warning on stderr.
 *       Ignored over more than one MPI rank.
 *   A program that ends without destroying its PRAM (exit, a misuse error)
 *   appends nothing for it. Where the weakest model rose is found by one
 *   pass over the phase's requests, O(R log R) for R requests, at most four
 *   times a run (CREW, CRCW-common, CRCW-arbitrary, CRCW-combining), and
 *   only while a report or a page is asked for.
 *
 * Errors are fatal (base/error.h): one line naming the call and its
 * arguments, exit status 1. A misuse in a phase names the least VP (or
 * slot) that erred, the same for any thread count: the lanes keep their
 * first misuse and the host reports the least after the phase. So is a
 * NULL pointer argument that a call
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
#define BSPRAM_STABLE_NEEDS_ENGINE_ /* for the engine's names this header uses (the operations, the combining options, the machine) */
#include "combine/combine.h"
#undef BSPRAM_STABLE_NEEDS_ENGINE_

BSPRAM_BEGIN_DECLS

typedef enum {
    BSPRAM_EREW = 0,
    BSPRAM_CREW,
    BSPRAM_CRCW_COMMON,
    BSPRAM_CRCW_ARBITRARY,
    BSPRAM_CRCW_PRIORITY,
    BSPRAM_CRCW_COMBINING
} bspram_pram_model;

/* The name of a model: "EREW", "CREW", "CRCW-common", "CRCW-arbitrary",
 * "CRCW-priority" or "CRCW-combining".
 *
 * @param model   a model
 * @return        its name (a static string), or NULL for a value that is
 *                no model
 * @pre           None.
 * @par Errors
 *     None: an unknown model gives NULL.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
const char *bspram_pram_model_name(bspram_pram_model model);

/* The model of a name: the names of bspram_pram_model_name, in any case,
 * '_' read as '-' ("crcw_common").
 *
 * "CRCW-combining" may carry an operation after a colon, as bspram_op_parse
 * reads it in any case: "crcw-combining:max:u64", "CRCW-combining:SUM";
 * another model with a colon, or an operation that is not built in, is an
 * unknown name.
 *
 * @param name    the name; not NULL
 * @param op      receives the operation's id if name carries one (else it
 *                is left as it was); may be NULL
 * @return        the model (a bspram_pram_model), or −1 for an unknown name
 * @pre           None.
 * @par Errors
 *     name NULL: "bspram: bspram_pram_model_parse(name=NULL): name must not
 *     be NULL", exit status 1. An unknown name is no error (−1).
 * @par BSP cost
 *     None: local, O(length of name).
 * @par Thread safety
 *     Any thread; it writes only *op.
 */
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

/* A config of n VPs under model: p = min(n, 4096), T =
 * omp_get_max_threads() (at most BSPRAM_DEFAULT_MAX_THREADS; over MPI that
 * many on every rank, as bspram_config_default), op = sum:i64, 4
 * registers, fatal violations, seed 0, the AUTO basis.
 *
 * Over MPI (libbspram-mpi) every rank runs the host's calls alike. A rank
 * holds its own components' cells and VPs and nothing else; the whole-array
 * calls (bspram_pram_store, bspram_pram_gather, bspram_pram_fetch_op) give
 * every rank every value they return — an explicit gather, of that call's
 * values only — and the owned forms (bspram_pram_owned and the *_owned
 * calls, bspram_pram_fill, bspram_pram_visit) give each rank its share.
 * Statistics and violations are whole on every rank (docs/mpi.md).
 *
 * @param n       the number of VPs (checked by bspram_pram_create)
 * @param model   the access model (checked by bspram_pram_create)
 * @return        the config, by value
 * @pre           None.
 * @par Errors
 *     None: create checks the values.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
bspram_pram_config bspram_pram_config_default(uint64_t n, bspram_pram_model model);

typedef struct bspram_pram bspram_pram;

/* A PRAM of config->n VPs on a machine of config->p components, with its
 * address space and combiner, and no arrays.
 *
 * @param config  the PRAM's parameters (bspram_pram_config_default, then
 *                changed); copied; not NULL
 * @return        the PRAM (free it with bspram_pram_destroy); never NULL
 * @pre           A FIXED basis in config->combine was made by
 *                bspram_basis_make or bspram_basis_parse.
 * @par Errors
 *     Each one line, exit status 1:
 *     "bspram: bspram_pram_create(n=0, p=0): n must be in [1, 4294967295]";
 *     "bspram: bspram_pram_create(n=8, p=0): p must be in [1, 2147483648]";
 *     "bspram: bspram_pram_create(model=9): unknown model; valid: 0 EREW, 1
 *     CREW, 2 CRCW-common, 3 CRCW-arbitrary, 4 CRCW-priority, 5
 *     CRCW-combining";
 *     an operation that is not built in, in any model ("bspram:
 *     bspram_pram_create(op=30): unknown operation; valid: 0..20 (built-in;
 *     a user operation is registered on bspram_pram_combiner and chosen
 *     with bspram_pram_set_op)");
 *     "bspram: bspram_pram_create(registers=70000): registers must be in
 *     [0, 65536]";
 *     threads out of range, in bspram_machine_create's line ("bspram:
 *     bspram_machine_create(p=8, threads=0): threads must be in [1,
 *     65536]"), and the machine's other errors (BSPRAM_TRANSPORT,
 *     BSPRAM_PATTERN: bsp/machine.h);
 *     bad combine options, in bspram_combiner_set_options's lines
 *     (combine.h);
 *     out of memory ("bspram: bspram_pram_create (registers): out of memory
 *     allocating N x 8 bytes");
 *     config NULL ("bspram: bspram_pram_create(config=NULL): config must not be NULL").
 * @par BSP cost
 *     None: no superstep. O(n·registers + p) (the registers are zero pages
 *     until touched), plus the machine's memory (bspram_machine_create).
 * @par Thread safety
 *     The host only: not from a step of a machine. Over MPI every rank
 *     creates its PRAMs alike and in the same order.
 */
bspram_pram *bspram_pram_create(const bspram_pram_config *config);

/* Free the PRAM, its machine (whose records go to BSPRAM_TRACE if it is
 * set), its address space, its combiner and its arrays.
 *
 * @param P       the PRAM; NULL does nothing
 * @pre           No phase of P is running; P and what it gave (the machine,
 *                the combiner, the trace) are not used afterwards.
 * @par Errors
 *     None fatal; a trace file that cannot be written is one line on
 *     stderr (bspram_machine_destroy).
 * @par BSP cost
 *     None: no superstep. O(n + p + T) to free, plus the trace I/O.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_destroy(bspram_pram *P);

/* The number of VPs n.
 *
 * @param P       the PRAM; not NULL
 * @return        config.n
 * @pre           None.
 * @par Errors
 *     P NULL: "bspram: bspram_pram_n(P=NULL): P must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also from a VP callback of bspram_pram_step (a read-only
 *     question); not concurrently with a call that changes P.
 */
uint64_t bspram_pram_n(const bspram_pram *P);

/* The number of components p of the PRAM's machine.
 *
 * @param P       the PRAM; not NULL
 * @return        config.p
 * @pre           None.
 * @par Errors
 *     P NULL: "bspram: bspram_pram_p(P=NULL): P must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also from a VP callback of bspram_pram_step (a read-only
 *     question); not concurrently with a call that changes P.
 */
uint64_t bspram_pram_p(const bspram_pram *P);

/* The PRAM's access model.
 *
 * @param P       the PRAM; not NULL
 * @return        config.model
 * @pre           None.
 * @par Errors
 *     P NULL: "bspram: bspram_pram_model_of(P=NULL): P must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also from a VP callback of bspram_pram_step (a read-only
 *     question); not concurrently with a call that changes P.
 */
bspram_pram_model bspram_pram_model_of(const bspram_pram *P);
/* The component that hosts VP vp: vp div ceil(n/p).
 *
 * @param P       the PRAM; not NULL
 * @param vp      a VP, in [0, n)
 * @return        its component, in [0, p)
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1: vp ≥ n ("bspram:
 *     bspram_pram_host(vp=10): no such VP; valid: [0, 10)"); P NULL
 *     ("bspram: bspram_pram_host(P=NULL): P must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also from a VP callback of bspram_pram_step (a read-only
 *     question); not concurrently with a call that changes P.
 */
uint64_t bspram_pram_host(const bspram_pram *P, uint64_t vp);
/* The machine under the PRAM, for its records (bspram_machine_records,
 * bspram_machine_set_label, …).
 *
 * The PRAM clears the machine's log (to BSPRAM_TRACE first, if set)
 * after any phase that leaves it with more than 4096 records, so a long
 * run keeps O(1) records: the per-step trace (bspram_pram_trace) keeps
 * every step's figures.
 *
 * @param P       the PRAM; not NULL
 * @return        the machine, owned by P (freed by bspram_pram_destroy)
 * @pre           None.
 * @par Errors
 *     P NULL: "bspram: bspram_pram_machine(P=NULL): P must not be NULL", exit status
 *     1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P. The machine must not be run by anything else
 *     than P's phases.
 */
bspram_machine *bspram_pram_machine(bspram_pram *P);

/* The combiner under the PRAM, for user operations
 * (bspram_combiner_add_op; then bspram_pram_set_op, bspram_pram_scatter_reduce,
 * …).
 *
 * P sets the combiner's watch before every phase: a watch set by hand is
 * replaced.
 *
 * @param P       the PRAM; not NULL
 * @return        the combiner, owned by P (freed by bspram_pram_destroy)
 * @pre           None.
 * @par Errors
 *     P NULL: "bspram: bspram_pram_combiner(P=NULL): P must not be NULL", exit status
 *     1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
bspram_combiner *bspram_pram_combiner(bspram_pram *P);

/* CRCW_COMBINING: the write rule's operation from now on — e.g. a user
 * operation registered on bspram_pram_combiner(P) after create (create
 * takes built-in operations only: user ones do not exist yet).
 *
 * @param P       the PRAM, of model CRCW_COMBINING; not NULL
 * @param op      an operation of the combiner, below
 *                bspram_combiner_op_count(bspram_pram_combiner(P))
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1: another model ("bspram:
 *     bspram_pram_set_op(op=3): the EREW model has no combining write; use
 *     CRCW-combining"); op not an operation of the combiner ("bspram:
 *     bspram_pram_set_op(op=40): no such operation; valid: 0..21 (user
 *     operations are registered on bspram_pram_combiner)"); P NULL
 *     ("bspram: bspram_pram_set_op(P=NULL): P must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_set_op(bspram_pram *P, unsigned op);

/* The write rule's current operation (CRCW_COMBINING): config.op, or the
 * last bspram_pram_set_op.
 *
 * @param P       the PRAM; not NULL
 * @return        the operation's id (config.op in every other model, where
 *                it is unused)
 * @pre           None.
 * @par Errors
 *     P NULL: "bspram: bspram_pram_op(P=NULL): P must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also from a VP callback of bspram_pram_step (a read-only
 *     question); not concurrently with a call that changes P.
 */
unsigned bspram_pram_op(const bspram_pram *P);

/* ---- shared memory: arrays of 64-bit cells ---- */

/* An array: a hashed segment of the address space (hash/address_space.h). */
typedef uint32_t bspram_pram_array;

/* A cell name: the address of cell `index` of an array, as bulk operations
 * take them; BSPRAM_PRAM_NONE means "no access" (an idle slot). */
#define BSPRAM_PRAM_NONE UINT64_MAX

/* Allocate an array of cells 64-bit cells, all 0, in the hashed address
 * space. Not a PRAM step.
 *
 * @param P       the PRAM; not NULL
 * @param name    names the array in violation reports ("A[5]"): copied, at
 *                most 15 bytes kept; NULL: no name (reports say "#3[5]")
 * @param cells   the number of cells, 1 ≤ cells ≤ 2^40
 * @return        the array (its segment number, ≥ 1)
 * @pre           No phase of P is running (not from a VP callback: not
 *                checked).
 * @par Errors
 *     Each one line, exit status 1, the name printed as given ("(null)"
 *     for NULL): "bspram: bspram_pram_alloc(name=A, cells=0): cells must be
 *     in [1, 2^40]"; "bspram: bspram_pram_alloc(name=A, cells=10): too many
 *     arrays; at most 65535 live"; an array whose tables cannot fit in the
 *     memory this process can have (at least 18 bytes per cell it holds, 24
 *     for 2^32 cells or more:
 *     the machine's memory, or its RLIMIT_AS / RLIMIT_DATA), refused at once
 *     ("bspram: bspram_pram_alloc(name=A, cells=1099511627776): a hashed
 *     segment of 1099511627776 cells needs at least 24 TiB for its owners'
 *     tables (3/2 slots of 8 + 8 bytes per cell this process holds); this
 *     process can have at most 15.6 GiB (the machine's memory)"); out of
 *     memory ("bspram: bspram_segment_alloc: out of memory allocating N
 *     bytes"); P NULL
 *     ("bspram: bspram_pram_alloc(P=NULL): P must not be NULL").
 * @par BSP cost
 *     None: no superstep. O(cells + p) time; memory Θ(cells + p): a hashed
 *     segment of 8-byte cells, whose tables at load ≤ 2/3 take 24 to 48
 *     bytes per cell (hash/address_space.h).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
bspram_pram_array bspram_pram_alloc(bspram_pram *P, const char *name, uint64_t cells);

/* Free array a (its number may be reused by a later allocation).
 *
 * @param P       the PRAM; not NULL
 * @param a       a live array of P
 * @pre           No phase of P is running (not from a VP callback: not
 *                checked).
 * @par Errors
 *     Each one line, exit status 1: no such array ("bspram:
 *     bspram_pram_free(array=3): no such array"); P NULL
 *     ("bspram: bspram_pram_free(P=NULL): P must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_free(bspram_pram *P, bspram_pram_array a);

/* The number of cells of array a.
 *
 * @param P       the PRAM; not NULL
 * @param a       a live array of P
 * @return        its cells, as allocated
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1: no such array ("bspram:
 *     bspram_pram_cells(array=3): no such array"); P NULL
 *     ("bspram: bspram_pram_cells(P=NULL): P must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also from a VP callback of bspram_pram_step (a read-only
 *     question); not concurrently with a call that changes P.
 */
uint64_t bspram_pram_cells(const bspram_pram *P, bspram_pram_array a);

/* The name of cell index of array a: its address, as the bulk phases take
 * cells.
 *
 * @param P       the PRAM; not NULL
 * @param a       a live array of P
 * @param index   the cell, in [0, cells)
 * @return        the cell's name (never BSPRAM_PRAM_NONE)
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1: no such array ("bspram:
 *     bspram_pram_cell(array=3): no such array"); index out of range
 *     ("bspram: bspram_pram_cell(array=A, index=10): index out of range [0,
 *     10)", the array by its name or as "#3"); P NULL
 *     ("bspram: bspram_pram_cell(P=NULL): P must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also from a VP callback of bspram_pram_step (a read-only
 *     question); not concurrently with a call that changes P.
 */
uint64_t bspram_pram_cell(const bspram_pram *P, bspram_pram_array a, uint64_t index);

/* Host access, outside the PRAM's steps and costs (the input of a
 * program): copy count values into cells [0, count) of array a.
 *
 * Over MPI every rank calls it alike with the whole input and keeps the
 * cells it holds; bspram_pram_fill needs no whole input.
 *
 * @param P       the PRAM; not NULL
 * @param a       a live array of P
 * @param values  the count values; may be NULL only when count = 0
 * @param count   the number of cells to set, at most the array's cells
 * @pre           No phase of P is running (not from a VP callback: not
 *                checked).
 * @par Errors
 *     Each one line, exit status 1: no such array ("bspram:
 *     bspram_pram_load(array=3): no such array"); count above the array's cells
 *     ("bspram: bspram_pram_load(array=A, count=11): count above the array's 10
 *     cells"); values NULL with count > 0 ("bspram: bspram_pram_load(array=A,
 *     count=5): values is NULL"); P NULL ("bspram: bspram_pram_load(P=NULL): P
 *     must not be NULL").
 * @par BSP cost
 *     None: no superstep, no record, no PRAM step. O(count) expected time,
 *     on the machine's threads when count ≥ 65536.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_load(bspram_pram *P, bspram_pram_array a, const uint64_t *values, uint64_t count);

/* Host access, outside the PRAM's steps and costs (the output of a
 * program): copy cells [0, count) of array a into values.
 *
 * Over MPI (libbspram-mpi) every rank calls it alike: each gives the cells
 * its components own and every rank gets them all (one MPI_Allreduce of
 * count words) — an explicit gather; bspram_pram_visit reads a rank's share
 * without one.
 *
 * @param P       the PRAM; not NULL
 * @param a       a live array of P
 * @param values  receives the count values; may be NULL only when count = 0
 * @param count   the number of cells to read, at most the array's cells
 * @pre           No phase of P is running (not from a VP callback: not
 *                checked).
 * @par Errors
 *     Each one line, exit status 1: no such array ("bspram:
 *     bspram_pram_store(array=3): no such array"); count above the array's cells
 *     ("bspram: bspram_pram_store(array=A, count=11): count above the array's 10
 *     cells"); values NULL with count > 0 ("bspram: bspram_pram_store(array=A,
 *     count=5): values is NULL"); P NULL ("bspram: bspram_pram_store(P=NULL): P
 *     must not be NULL").
 * @par BSP cost
 *     None: no superstep, no record, no PRAM step. O(count) expected time,
 *     on the machine's threads when count ≥ 65536.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_store(const bspram_pram *P, bspram_pram_array a, uint64_t *values, uint64_t count);

/* The value of cell i, for bspram_pram_fill. */
typedef uint64_t (*bspram_pram_fill_fn)(uint64_t index, void *arg);

/* A cell and its value, for bspram_pram_visit. */
typedef void (*bspram_pram_visit_fn)(uint64_t index, uint64_t value, void *arg);

/* Host access, the owned form of bspram_pram_load: set every cell this
 * process holds of array a (bspram_holds: all of them on one machine, the
 * cells its components own on an MPI rank) to fn(index, arg), in
 * increasing index order, from the calling thread.
 *
 * No array of the whole input on either side: each rank computes the values
 * of its own cells, so the same program text loads any size on one machine
 * and on N ranks with the memory of its share.
 *
 * @param P    the PRAM; not NULL
 * @param a    a live array of P
 * @param fn   the values; not NULL
 * @param arg  passed to fn
 * @pre        No phase of P is running.
 * @par Errors
 *     Each one line, exit status 1: no such array ("bspram:
 *     bspram_pram_fill(array=3): no such array"); fn NULL ("bspram:
 *     bspram_pram_fill(array=A): fn is NULL"); P NULL.
 * @par BSP cost
 *     None: no superstep, no record, no PRAM step; no communication.
 *     O(cells) time (each index is hashed to find whether it is held) and
 *     a call of fn per held cell.
 * @par Thread safety
 *     The host only; fn is called from the calling thread.
 */
void bspram_pram_fill(bspram_pram *P, bspram_pram_array a, bspram_pram_fill_fn fn, void *arg);

/* Host access, the owned form of bspram_pram_store: call fn(index, value,
 * arg) for every cell this process holds of array a (bspram_holds), in
 * increasing index order, from the calling thread.
 *
 * Over MPI each rank visits its own cells and nothing moves: a program
 * checks or writes out its share, and the ranks together cover the array
 * exactly once. On one machine every cell is visited.
 *
 * @param P    the PRAM; not NULL
 * @param a    a live array of P
 * @param fn   the visitor; not NULL
 * @param arg  passed to fn
 * @pre        No phase of P is running.
 * @par Errors
 *     As bspram_pram_fill, naming bspram_pram_visit.
 * @par BSP cost
 *     None: no superstep, no record, no PRAM step; no communication.
 *     O(cells) time and a call of fn per held cell.
 * @par Thread safety
 *     The host only; fn is called from the calling thread.
 */
void bspram_pram_visit(const bspram_pram *P, bspram_pram_array a, bspram_pram_visit_fn fn, void *arg);

/* ---- bulk steps (the fast path) ---- */

/* The read phase of a new step: VP i reads the k cells
 * cells[i·k .. i·k+k) into out[i·k + j] (BSPRAM_PRAM_NONE: no read, and
 * out[i·k + j] is left unchanged).
 *
 * All reads see memory as it was before the step's writes. Under EREW two
 * VPs reading one cell are a violation (top of this file). Over MPI every
 * rank calls it alike and gets every answer: the answers are gathered (one
 * MPI_Allreduce of n·k words); bspram_pram_gather_owned gives each rank
 * its own VPs' answers without it.
 *
 * @param P       the PRAM; not NULL
 * @param k       the cells per VP, ≥ 1
 * @param cells   n·k cell names (bspram_pram_cell) or BSPRAM_PRAM_NONE;
 *                not NULL
 * @param out     receives the n·k values read; not NULL
 * @pre           No phase of P is running.
 * @par Errors
 *     Each one line, exit status 1:
 *     k = 0 ("bspram: bspram_pram_gather(k=0): k must be at least 1 (cells per
 *     VP)"); ceil(n/p)·k above 2^32 − 1, the engine numbering a component's
 *     requests in 32 bits ("bspram: bspram_pram_gather(k=3000000000):
 *     ceil(n/p)·k = 2·3000000000 requests per component exceed the engine's
 *     2^32 - 1");
 *     cells or out NULL ("bspram: bspram_pram_gather(k=2): cells is NULL", "…:
 *     out is NULL");
 *     a cell that names no cell of a live array ("bspram:
 *     bspram_pram_gather(k=2, cells[11]=0x20000000003): names no cell of a
 *     live array (VP 5, step 1)"); a violation of the model's rule, unless in
 *     report mode (one line "bspram: EREW violation in step 3: VPs 17 and 40
 *     both read cell A[5]", top of this file; over MPI rank 0 prints it);
 *     a call from a VP callback, in a line naming the call
 *     ("bspram: bspram_pram_gather: the machine's team is already
 *     running (…); a machine runs one team at a time"); P NULL ("bspram:
 *     bspram_pram_gather(P=NULL): P must not be NULL").
 * @par BSP cost
 *     One combining batch (combine.h): its M forward supersteps and M
 *     reverse supersteps, each charged max(q, r) as the router records it
 *     and added to the step's trace and to bspram_pram_stats_of; a PRAM
 *     step begins (steps + 1) and its reads are added to the work. Run by
 *     the machine's threads (each counts its own components' requests);
 *     the engine reads cells and writes out in place (no copy of the
 *     requests, no buffer of answers); memory: the engine's (combine.h)
 *     and the router's for the messages.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_gather(bspram_pram *P, uint64_t k, const uint64_t *cells, uint64_t *out);

/* The write phase of the current step (of a new one if the last phase was
 * a write or a per-VP step): VP i writes values[i·k + j] to cells[i·k + j]
 * (BSPRAM_PRAM_NONE: no write) under the model's rule.
 *
 * EREW and CREW: two VPs writing one cell are a violation; CRCW-common:
 * two different values; CRCW-arbitrary: the engine's seeded winner;
 * CRCW-priority: the least VP's; CRCW-combining: the ⊕ of the values under
 * bspram_pram_op (top of this file).
 *
 * @param P       the PRAM; not NULL
 * @param k       the cells per VP, ≥ 1
 * @param cells   n·k cell names or BSPRAM_PRAM_NONE; not NULL
 * @param values  the n·k values to write; not NULL
 * @pre           No phase of P is running.
 * @par Errors
 *     Each one line, exit status 1:
 *     k = 0 ("bspram: bspram_pram_scatter(k=0): k must be at least 1 (cells
 *     per VP)"); ceil(n/p)·k above 2^32 − 1, the engine numbering a
 *     component's requests in 32 bits ("bspram:
 *     bspram_pram_scatter(k=3000000000): ceil(n/p)·k = 2·3000000000 requests
 *     per component exceed the engine's 2^32 - 1");
 *     cells or values NULL ("bspram: bspram_pram_scatter(k=2): values is
 *     NULL");
 *     a cell that names no cell of a live array ("bspram:
 *     bspram_pram_scatter(k=2, cells[11]=0x20000000003): names no cell of a
 *     live array (VP 5, step 1)"); a violation of the model's rule, unless in
 *     report mode (one line "bspram: CREW violation in step 3: VPs 17 and 40
 *     both write cell A[5]" or "bspram: CRCW-common violation in step 3: VPs
 *     17 and 40 write different values to cell A[5]", top of this file; over
 *     MPI rank 0 prints it);
 *     a call from a VP callback, in a line naming the call
 *     ("bspram: bspram_pram_scatter: the machine's team is already
 *     running (…); a machine runs one team at a time"); P NULL ("bspram:
 *     bspram_pram_scatter(P=NULL): P must not be NULL").
 * @par BSP cost
 *     One combining batch: M forward supersteps only, each charged max(q,
 *     r) as the router records it and added to the step's trace and to
 *     bspram_pram_stats_of; a new step (steps + 1) unless it is the write
 *     phase of a gather's step; its writes are added to the work.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_scatter(bspram_pram *P, uint64_t k, const uint64_t *cells, const uint64_t *values);

/* Write phase, CRCW_COMBINING only: cell ← cell ⊕ values with operation
 * op (every value written to a cell in the phase is folded in).
 *
 * It is the write phase of the current step, or of a new one, as
 * bspram_pram_scatter. One cell takes one kind of update per phase.
 *
 * @param P       the PRAM, of model CRCW_COMBINING; not NULL
 * @param k       the cells per VP, ≥ 1
 * @param cells   n·k cell names or BSPRAM_PRAM_NONE; not NULL
 * @param values  the n·k contributions; not NULL
 * @param op      an operation of the combiner (bspram_op_builtin, or a user
 *                operation of bspram_pram_combiner)
 * @pre           No phase of P is running.
 * @par Errors
 *     Each one line, exit status 1:
 *     another model ("bspram: bspram_pram_scatter_reduce: the EREW model has
 *     no combining operations; use CRCW-combining");
 *     op not an operation of the combiner ("bspram:
 *     bspram_pram_scatter_reduce(op=40): no such operation; valid: 0..20 (user
 *     operations are registered on bspram_pram_combiner)");
 *     k = 0 ("bspram: bspram_pram_scatter_reduce(k=0): k must be at least 1
 *     (cells per VP)"); ceil(n/p)·k above 2^32 − 1, the engine numbering a
 *     component's requests in 32 bits ("bspram:
 *     bspram_pram_scatter_reduce(k=3000000000): ceil(n/p)·k = 2·3000000000
 *     requests per component exceed the engine's 2^32 - 1");
 *     cells or values NULL ("bspram: bspram_pram_scatter_reduce(k=2): values
 *     is NULL");
 *     a cell that names no cell of a live array ("bspram:
 *     bspram_pram_scatter_reduce(k=2, cells[11]=0x20000000003): names no cell
 *     of a live array (VP 5, step 1)"); two operations at one cell in one
 *     phase cannot happen here (one call, one operation), and CRCW-combining
 *     has no violations;
 *     a call from a VP callback, in a line naming the call
 *     ("bspram: bspram_pram_scatter_reduce: the machine's team is already
 *     running (…); a machine runs one team at a time"); P NULL ("bspram:
 *     bspram_pram_scatter_reduce(P=NULL): P must not be NULL").
 * @par BSP cost
 *     One combining batch: M forward supersteps only, as
 *     bspram_pram_scatter.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_scatter_reduce(bspram_pram *P, uint64_t k, const uint64_t *cells,
                                const uint64_t *values, unsigned op);

/* Write phase, CRCW_COMBINING only: cell ← cell ⊕ values, and out[i·k+j]
 * gets the cell's value before the contributions that precede it in the
 * combining order (multiprefix; combine.h) — left unchanged for
 * BSPRAM_PRAM_NONE.
 *
 * The combining order is the tree's, a pure function of the seed. Over
 * MPI every rank calls it alike and gets every answer.
 *
 * @param P       the PRAM, of model CRCW_COMBINING; not NULL
 * @param k       the cells per VP, ≥ 1
 * @param cells   n·k cell names or BSPRAM_PRAM_NONE; not NULL
 * @param values  the n·k contributions; not NULL
 * @param op      an operation of the combiner
 * @param out     receives the n·k prefixes; not NULL
 * @pre           No phase of P is running.
 * @par Errors
 *     Each one line, exit status 1:
 *     another model ("bspram: bspram_pram_fetch_op: the EREW model has no
 *     combining operations; use CRCW-combining");
 *     op not an operation of the combiner ("bspram:
 *     bspram_pram_fetch_op(op=40): no such operation; valid: 0..20 (user
 *     operations are registered on bspram_pram_combiner)");
 *     k = 0 ("bspram: bspram_pram_fetch_op(k=0): k must be at least 1 (cells
 *     per VP)"); ceil(n/p)·k above 2^32 − 1, the engine numbering a
 *     component's requests in 32 bits ("bspram:
 *     bspram_pram_fetch_op(k=3000000000): ceil(n/p)·k = 2·3000000000 requests
 *     per component exceed the engine's 2^32 - 1");
 *     cells, values or out NULL ("bspram: bspram_pram_fetch_op(k=2): out is
 *     NULL");
 *     a cell that names no cell of a live array ("bspram:
 *     bspram_pram_fetch_op(k=2, cells[11]=0x20000000003): names no cell of a
 *     live array (VP 5, step 1)"); two operations at one cell in one phase
 *     cannot happen here (one call, one operation), and CRCW-combining has no
 *     violations;
 *     a call from a VP callback, in a line naming the call
 *     ("bspram: bspram_pram_fetch_op: the machine's team is already
 *     running (…); a machine runs one team at a time"); P NULL ("bspram:
 *     bspram_pram_fetch_op(P=NULL): P must not be NULL").
 * @par BSP cost
 *     One combining batch with its reverse flow: M forward and M reverse
 *     supersteps, charged and counted as bspram_pram_gather's.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_fetch_op(bspram_pram *P, uint64_t k, const uint64_t *cells,
                          const uint64_t *values, unsigned op, uint64_t *out);

/* ---- the owned forms: a rank's VPs, no answers shared ---- */

/* The VPs this process holds, [*lo, *hi): [0, n) on one machine; over MPI
 * the VPs of the rank's components (VP v lives on component v div
 * ceil(n/p), the components in blocks over the ranks), so the ranks'
 * ranges are consecutive and cover [0, n) once.
 *
 * @param P   the PRAM; not NULL
 * @param lo  receives the first VP held; not NULL
 * @param hi  receives one past the last; not NULL
 * @pre       None.
 * @par Errors
 *     A NULL argument: one line naming it ("bspram: bspram_pram_owned(lo=NULL):
 *     lo must not be NULL"), exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
void bspram_pram_owned(const bspram_pram *P, uint64_t *lo, uint64_t *hi);

/* bspram_pram_gather for the VPs [lo, hi) of bspram_pram_owned only: VP
 * i's k slots are cells[(i − lo)·k .. (i − lo)·k + k) and its answers go to
 * the same slots of out. Every rank calls it alike (it is one step of the
 * whole PRAM), each with its own VPs' cells, and gets its own VPs' answers
 * and no others: over MPI nothing moves but the batch's messages. On one
 * machine it is bspram_pram_gather.
 *
 * @param P      the PRAM; not NULL
 * @param k      the cells per VP, ≥ 1
 * @param cells  (hi − lo)·k cell names or BSPRAM_PRAM_NONE; not NULL
 * @param out    receives the (hi − lo)·k values read; not NULL
 * @pre          No phase of P is running.
 * @par Errors
 *     As bspram_pram_gather, naming bspram_pram_gather_owned, with slots
 *     counted in the caller's array ("bspram: bspram_pram_gather_owned(k=2,
 *     cells[3]=0x20000000003): names no cell of a live array (VP 9, step
 *     1)").
 * @par BSP cost
 *     As bspram_pram_gather, the same records; over MPI without the
 *     sharing of the answers (no collective beyond the batch's exchanges).
 * @par Thread safety
 *     The host only, as bspram_pram_gather.
 */
void bspram_pram_gather_owned(bspram_pram *P, uint64_t k, const uint64_t *cells, uint64_t *out);

/* bspram_pram_scatter for the VPs [lo, hi) of bspram_pram_owned only:
 * cells and values hold (hi − lo)·k slots, VP i's at (i − lo)·k.
 *
 * @param P       the PRAM; not NULL
 * @param k       the cells per VP, ≥ 1
 * @param cells   (hi − lo)·k cell names or BSPRAM_PRAM_NONE; not NULL
 * @param values  the (hi − lo)·k values to write; not NULL
 * @pre           No phase of P is running.
 * @par Errors
 *     As bspram_pram_scatter, naming bspram_pram_scatter_owned, slots
 *     counted in the caller's array.
 * @par BSP cost
 *     As bspram_pram_scatter, the same records.
 * @par Thread safety
 *     The host only, as bspram_pram_scatter.
 */
void bspram_pram_scatter_owned(bspram_pram *P, uint64_t k, const uint64_t *cells, const uint64_t *values);

/* bspram_pram_scatter_reduce for the VPs [lo, hi) of bspram_pram_owned
 * only: cells and values hold (hi − lo)·k slots, VP i's at (i − lo)·k.
 *
 * @param P       the PRAM; not NULL
 * @param k       the cells per VP, ≥ 1
 * @param cells   (hi − lo)·k cell names or BSPRAM_PRAM_NONE; not NULL
 * @param values  the (hi − lo)·k contributions; not NULL
 * @param op      the operation, as for bspram_pram_scatter_reduce
 * @pre           No phase of P is running.
 * @par Errors
 *     As bspram_pram_scatter_reduce, naming
 *     bspram_pram_scatter_reduce_owned, slots counted in the caller's array.
 * @par BSP cost
 *     As bspram_pram_scatter_reduce, the same records.
 * @par Thread safety
 *     The host only, as bspram_pram_scatter_reduce.
 */
void bspram_pram_scatter_reduce_owned(bspram_pram *P, uint64_t k, const uint64_t *cells,
                                      const uint64_t *values, unsigned op);

/* bspram_pram_fetch_op for the VPs [lo, hi) of bspram_pram_owned only:
 * cells, values and out hold (hi − lo)·k slots, VP i's at (i − lo)·k; no
 * answers shared.
 *
 * @param P       the PRAM; not NULL
 * @param k       the cells per VP, ≥ 1
 * @param cells   (hi − lo)·k cell names or BSPRAM_PRAM_NONE; not NULL
 * @param values  the (hi − lo)·k contributions; not NULL
 * @param op      the operation, as for bspram_pram_fetch_op
 * @param out     receives the (hi − lo)·k values before each contribution;
 *                not NULL
 * @pre           No phase of P is running.
 * @par Errors
 *     As bspram_pram_fetch_op, naming bspram_pram_fetch_op_owned, slots
 *     counted in the caller's array.
 * @par BSP cost
 *     As bspram_pram_fetch_op, the same records; over MPI without the
 *     sharing of the answers.
 * @par Thread safety
 *     The host only, as bspram_pram_fetch_op.
 */
void bspram_pram_fetch_op_owned(bspram_pram *P, uint64_t k, const uint64_t *cells,
                                const uint64_t *values, unsigned op, uint64_t *out);

/* ---- per-VP steps (for teaching) ---- */

/* A VP inside bspram_pram_step or bspram_pram_for_all: the handle a
 * callback is given, valid only while that callback runs. Every
 * bspram_vp_* call checks it, so a handle kept and used later is one line,
 * exit status 1, naming the call (never a crash or a wrong VP): after its
 * callback returned, "bspram: bspram_vp_read: the bspram_vp of VP 5 used
 * after its callback returned (after step 2); a bspram_vp is valid only
 * inside the callback it was given to"; by another VP's callback, that
 * VP's misuse, "bspram: bspram_vp_write: VP 0 (step 3) used the bspram_vp
 * of VP 5, kept from an earlier callback; …" (the least such VP for any
 * thread count, as every misuse in a callback); after bspram_pram_destroy,
 * or a pointer that is no handle, "bspram: bspram_vp_n: vp is the handle
 * of no VP of a live PRAM (kept after bspram_pram_destroy, or not a
 * bspram_vp); …". A VP's own handle from an earlier step is its handle
 * again in its later callbacks. */
typedef struct bspram_vp bspram_vp;

typedef void (*bspram_vp_fn)(bspram_vp *vp, void *arg);

/* One step: read(vp, arg) for every VP (it issues the VP's reads), one
 * batch, then write(vp, arg) for every VP (it sees the values read and
 * issues the VP's writes), one batch.
 *
 * Callbacks run concurrently on the machine's threads, VPs of one
 * component in increasing order: they must touch only their own VP's data
 * (or be thread-safe). They may ask read-only questions (bspram_pram_cell,
 * _cells, _n, …) but not run phases (gather, scatter, …, step: the
 * machine's team is running, fatal) nor allocate, free, load or store (not
 * checked). A per-VP step is always one whole step: a later write phase
 * begins a new one.
 *
 * @param P       the PRAM; not NULL
 * @param read    the read callback; NULL: no reads
 * @param write   the write callback; NULL: no writes (both NULL: a step
 *                that counts one unit of PRAM time and costs no superstep)
 * @param arg     passed to every call of the callbacks; may be NULL
 * @pre           No phase of P is running.
 * @par Errors
 *     Each one line, exit status 1: the bspram_vp_* functions' errors, which
 *     name the VP and the step (see each), e.g. "bspram:
 *     bspram_vp_read(array=A, index=16): index out of range [0, 16) (VP 5,
 *     step 2)"; a violation of the model's rule, unless in report mode (one
 *     line "bspram: EREW violation in step 3: VPs 17 and 40 both read cell
 *     A[5]", top of this file; over MPI rank 0 prints it);
 *     a write and a reduce, or two operations, at one cell in one write phase,
 *     in the engine's line, which names the cell by its address ("bspram:
 *     bspram_combine: two update species at address 0x10000000005 in one
 *     batch: write(sum:i64#0) and reduce(max:i64#3)");
 *     a phase run from a VP callback, in a line naming the call
 *     ("bspram: bspram_pram_step: the machine's team is already
 *     running (…); a machine runs one team at a time"); P NULL ("bspram:
 *     bspram_pram_step(P=NULL): P must not be NULL").
 * @par BSP cost
 *     Up to two combining batches: the read batch (M forward and M reverse
 *     supersteps) if read is given, the write batch (M forward) if write
 *     is given; one PRAM step (steps + 1); the reads and writes issued are
 *     added to the work. Local work: the callbacks', plus O(1) amortised
 *     per request issued.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P. The callbacks run on the machine's threads.
 */
void bspram_pram_step(bspram_pram *P, bspram_vp_fn read, bspram_vp_fn write, void *arg);

/* One step in the textbook's words: "for all i in parallel do" body — the
 * body reads (bspram_vp_get gives the value), computes and writes
 * (bspram_vp_write, bspram_vp_reduce) as the pseudocode does, and, as on
 * the PRAM, every read of the step sees memory as it was before the step's
 * writes.
 *
 * The body runs twice per VP: the first run learns the VP's reads
 * (bspram_vp_get answers 0, writes are dropped, and the VP's registers are
 * restored afterwards), the reads make one batch, and the second run gets
 * the values, in issue order, and makes the writes, which make the second
 * batch. So the cells a VP reads in a step may not depend on values it
 * reads in that step (a dependent read is the next step's: pointer jumping
 * reads S[i] in one step and S[S[i]] in the next), and what the body does
 * outside the PRAM's memory and its VP's registers must not mind being
 * done twice (set a value, do not add to it). A phase without requests
 * costs no superstep. Callbacks run as bspram_pram_step's (concurrently,
 * VPs of one component in increasing order).
 *
 * @param P       the PRAM; not NULL
 * @param body    the VP's step; not NULL
 * @param arg     passed to every call of body; may be NULL
 * @pre           No phase of P is running.
 * @par Errors
 *     Each one line, exit status 1, naming the least VP that erred, for
 *     any thread count: the bspram_vp_* functions' errors (see each) —
 *     a bad cell met in the body's first run after a bspram_vp_get ends
 *     "; in the body's first run every bspram_vp_get answers 0: a cell
 *     computed from a value read in this step is read in the next step";
 *     a VP whose reads differ between the two runs ("bspram:
 *     bspram_vp_get(array=S, index=9): VP 3's read number 1 in step 2 was
 *     S[4] before its values were known; the cells a VP reads in a step may
 *     not depend on what it reads in that step (read it in the next
 *     step)"; "… VP 3 read 1 cells in step 2 before its values were known;
 *     …" for a read more; "bspram: bspram_vp_get: VP 3 read 1 cells in step
 *     2 once its values were known, 2 before; …" for a read fewer) — in
 *     every model and mode, named before any violation of the step's
 *     reads: those were the first run's, where a read computed from a get
 *     of 0 may meet other VPs' reads at one cell — an EREW violation the
 *     program did not make;
 *     bspram_vp_read or bspram_vp_value called in the body ("bspram:
 *     bspram_vp_read: called in the body of bspram_pram_for_all (VP 3,
 *     step 2); a body reads with bspram_vp_get");
 *     violations of the model's rule, unless in report mode, as
 *     bspram_pram_step's; P or body NULL ("bspram:
 *     bspram_pram_for_all(body=NULL): body must not be NULL").
 * @par BSP cost
 *     As bspram_pram_step with the same requests: the read batch (M
 *     forward and M reverse supersteps) if a VP reads, the write batch (M
 *     forward) if a VP writes; one PRAM step; the reads and writes are
 *     added to the work. Local work: two runs of the body per VP, O(1)
 *     amortised per request, and two teams without supersteps.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P. The body runs on the machine's threads.
 */
void bspram_pram_for_all(bspram_pram *P, bspram_vp_fn body, void *arg);

/* The VP's id i, in [0, n).
 *
 * @param vp      the handle the callback was given; not NULL
 * @return        its id
 * @pre           Called from the callback that was given vp.
 * @par Errors
 *     vp NULL: "bspram: bspram_vp_id(vp=NULL): vp must not be NULL", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step: here, a VP callback of bspram_pram_step,
 *     with the handle it was given.
 */
uint64_t bspram_vp_id(const bspram_vp *vp);

/* The number of VPs n of the PRAM.
 *
 * @param vp      the handle the callback was given; not NULL
 * @return        n
 * @pre           Called from the callback that was given vp.
 * @par Errors
 *     vp NULL: "bspram: bspram_vp_n(vp=NULL): vp must not be NULL", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step: here, a VP callback of bspram_pram_step,
 *     with the handle it was given.
 */
uint64_t bspram_vp_n(const bspram_vp *vp);

/* The VP's private registers: config.registers 64-bit words, 0 at create,
 * kept across steps.
 *
 * @param vp      the handle the callback was given; not NULL
 * @return        the VP's registers, or NULL if config.registers = 0
 * @pre           Called from the callback that was given vp.
 * @par Errors
 *     vp NULL: "bspram: bspram_vp_registers(vp=NULL): vp must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step: here, a VP callback of bspram_pram_step,
 *     with the handle it was given. Only this VP's registers may be touched.
 */
uint64_t *bspram_vp_registers(bspram_vp *vp);

/* In the read callback: read cell index of array a; the value is seen in
 * the write callback (bspram_vp_value).
 *
 * @param vp      the handle the read callback was given; not NULL
 * @param a       a live array of the PRAM
 * @param index   the cell, in [0, cells)
 * @return        the read's number (0, 1, … in this VP's issue order)
 * @pre           Called from the read callback that was given vp.
 * @par Errors
 *     Each one line, exit status 1:
 *     called in the write callback ("bspram: bspram_vp_read(array=1,
 *     index=3): called in the write callback (VP 5, step 2); reads are
 *     issued in the read callback");
 *     no such array ("bspram: bspram_vp_read(array=7, index=3): no such
 *     array (VP 5, step 2)"); index out of range ("bspram:
 *     bspram_vp_read(array=A, index=16): index out of range [0, 16) (VP 5,
 *     step 2)");
 *     more than 2^32 − 1 reads by one VP in a step, found when its callback
 *     returns ("bspram: bspram_vp_read: VP 5 issued more than 2^32 - 1
 *     reads in step 2");
 *     vp NULL ("bspram: bspram_vp_read(vp=NULL): vp must not be NULL").
 *     Two VPs reading one cell under EREW are a violation of the step
 *     (bspram_pram_step).
 * @par BSP cost
 *     No superstep of its own: the read joins the step's read batch. O(1)
 *     amortised, 24 bytes until the batch.
 * @par Thread safety
 *     A component inside its step: here, a VP callback of bspram_pram_step,
 *     with the handle it was given.
 */
uint64_t bspram_vp_read(bspram_vp *vp, bspram_pram_array a, uint64_t index);

/* In the body of bspram_pram_for_all: the value of cell index of array a
 * before the step's writes.
 *
 * @param vp      the handle the body was given; not NULL
 * @param a       a live array of the PRAM
 * @param index   the cell, in [0, cells)
 * @return        the cell's value (0 in the body's first run, which only
 *                learns the reads)
 * @pre           Called from the body of bspram_pram_for_all that was given
 *                vp.
 * @par Errors
 *     Each one line, exit status 1: in a callback of bspram_pram_step
 *     ("bspram: bspram_vp_get: called in a callback of bspram_pram_step (VP
 *     5, step 2); callbacks read with bspram_vp_read"); no such array or
 *     index out of range, as bspram_vp_read's; a read that depends on a
 *     value read in the same step (bspram_pram_for_all); vp NULL ("bspram:
 *     bspram_vp_get(vp=NULL): vp must not be NULL"). Two VPs reading one
 *     cell under EREW are a violation of the step.
 * @par BSP cost
 *     No superstep of its own: the read joins the step's read batch. O(1)
 *     amortised, 24 bytes until the batch.
 * @par Thread safety
 *     A component inside its step: here, the body of bspram_pram_for_all,
 *     with the handle it was given.
 */
uint64_t bspram_vp_get(bspram_vp *vp, bspram_pram_array a, uint64_t index);
/* In the write callback: the value of read number k of this VP in this
 * step.
 *
 * @param vp      the handle the write callback was given; not NULL
 * @param k       a read's number, below the number of reads the VP issued
 * @return        the cell's value before the step's writes
 * @pre           Called from the write callback that was given vp.
 * @par Errors
 *     Each one line, exit status 1:
 *     called in the read callback ("bspram: bspram_vp_value(k=0): called in
 *     the read callback (VP 5, step 2); values are seen in the write
 *     callback");
 *     no reads issued, or none in this step because it had no read callback
 *     ("bspram: bspram_vp_value(k=0): VP 5 issued no reads in step 2");
 *     k out of range ("bspram: bspram_vp_value(k=3): out of range; VP 5
 *     issued 2 reads in step 2, valid: 0..1");
 *     vp NULL ("bspram: bspram_vp_value(vp=NULL): vp must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step: here, a VP callback of bspram_pram_step,
 *     with the handle it was given.
 */
uint64_t bspram_vp_value(const bspram_vp *vp, uint64_t k);
/* In the write callback: write value to cell index of array a, under the
 * model's rule (bspram_pram_scatter).
 *
 * @param vp      the handle the write callback was given; not NULL
 * @param a       a live array of the PRAM
 * @param index   the cell, in [0, cells)
 * @param value   the value to write
 * @pre           Called from the write callback that was given vp.
 * @par Errors
 *     Each one line, exit status 1:
 *     called in the read callback ("bspram: bspram_vp_write(array=1,
 *     index=3, value=9): called in the read callback (VP 5, step 2); writes
 *     are issued in the write callback");
 *     no such array ("bspram: bspram_vp_write(array=7, index=3): no such
 *     array (VP 5, step 2)"); index out of range ("bspram:
 *     bspram_vp_write(array=A, index=16): index out of range [0, 16) (VP 5,
 *     step 2)");
 *     vp NULL ("bspram: bspram_vp_write(vp=NULL): vp must not be NULL").
 *     Violations of the model's rule, and a write and a reduce at one cell,
 *     are errors of the step (bspram_pram_step).
 * @par BSP cost
 *     No superstep of its own: the write joins the step's write batch. O(1)
 *     amortised, 24 bytes until the batch.
 * @par Thread safety
 *     A component inside its step: here, a VP callback of bspram_pram_step,
 *     with the handle it was given.
 */
void bspram_vp_write(bspram_vp *vp, bspram_pram_array a, uint64_t index, uint64_t value);
/* In the write callback, CRCW_COMBINING only: cell ⊕= value with
 * operation op.
 *
 * @param vp      the handle the write callback was given; not NULL
 * @param a       a live array of the PRAM
 * @param index   the cell, in [0, cells)
 * @param value   the contribution
 * @param op      an operation of the PRAM's combiner
 * @pre           Called from the write callback that was given vp, in a
 *                CRCW_COMBINING PRAM.
 * @par Errors
 *     Each one line, exit status 1, checked in this order:
 *     another model ("bspram: bspram_vp_reduce: the EREW model has no
 *     combining operations; use CRCW-combining");
 *     called in the read callback ("bspram: bspram_vp_reduce(array=1,
 *     index=3, value=9, op=0): called in the read callback (VP 5, step 2);
 *     writes are issued in the write callback");
 *     op not an operation of the combiner ("bspram: bspram_vp_reduce(op=40):
 *     no such operation; valid: 0..20 (user operations are registered on
 *     bspram_pram_combiner)");
 *     no such array ("bspram: bspram_vp_reduce(array=7, index=3): no such
 *     array (VP 5, step 2)"); index out of range ("bspram:
 *     bspram_vp_reduce(array=A, index=16): index out of range [0, 16) (VP
 *     5, step 2)");
 *     vp NULL ("bspram: bspram_vp_reduce(vp=NULL): vp must not be NULL").
 *     A write and a reduce, or two operations, at one cell in one step are
 *     an error of the step (bspram_pram_step).
 * @par BSP cost
 *     No superstep of its own: the reduction joins the step's write batch.
 *     O(1) amortised, 24 bytes until the batch.
 * @par Thread safety
 *     A component inside its step: here, a VP callback of bspram_pram_step,
 *     with the handle it was given.
 */
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
    uint64_t ideal;       /* Σ over phases of the ideal one-phase cost (below) */
    double overhead;      /* charge / ideal; 0 before the first request */
    bspram_pram_model weakest; /* the weakest model the run needed (below) */
    uint64_t weakest_step;     /* the first step that needed it; 0 if EREW sufficed */
} bspram_pram_stats;

/* The PRAM's costs so far: steps, work, supersteps, charge, slowdown
 * (charge / (steps · ceil(n/p)), 0 before the first step) and violations
 * (report mode); the emulation's overhead per PRAM operation; and the
 * weakest model the run needed, whatever its own model, with the first step
 * that needed it.
 *
 * The overhead compares the charge with what the same requests would cost
 * on an ideal router in one phase: a phase of R requests (reads, writes,
 * updates) costs ceil(R/p) — the h of an R-request h-relation spread evenly
 * over the p components — and as much again for the answers of reads and
 * fetch-and-op; ideal is the sum over the phases, overhead = charge /
 * ideal. Unlike the slowdown, which divides by ceil(n/p) per step whatever
 * the VPs do, it is 1 for an ideal emulation whether the VPs are idle or
 * issue many requests each.
 *
 * The weakest model orders EREW < CREW < CRCW-common < CRCW-arbitrary
 * (priority alike) < CRCW-combining: a step needs CREW if two VPs read one
 * cell, CRCW-common if two VPs write one cell, CRCW-arbitrary if two
 * writes of one cell carry different values (one VP's two included, but
 * under EREW and CREW, where a VP's last write counts and its earlier ones
 * carry its value), and
 * CRCW-combining if two combining updates meet at one cell (reduce,
 * fetch-and-op, or CRCW_COMBINING's writes). A VP that reads or writes one
 * cell twice with one value competes with no one. They are seen where
 * combining merges requests, as violations are, in every model and mode.
 *
 * Over MPI every rank has the same figures.
 *
 * @param P       the PRAM; not NULL
 * @return        the statistics, by value
 * @pre           None.
 * @par Errors
 *     P NULL: "bspram: bspram_pram_stats_of(P=NULL): P must not be NULL", exit status
 *     1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also from a VP callback of bspram_pram_step (a read-only
 *     question); not concurrently with a call that changes P.
 */
bspram_pram_stats bspram_pram_stats_of(const bspram_pram *P);

/* One step of the trace. */
typedef struct bspram_pram_step_record {
    uint64_t step;        /* 1, 2, … */
    uint64_t reads, writes;
    uint64_t violations;
    uint64_t supersteps;
    uint64_t charge;
} bspram_pram_step_record;

/* The per-step trace: one record per step so far (reads, writes,
 * violations, supersteps, charge), in step order.
 *
 * @param P       the PRAM; not NULL
 * @param n       receives the number of steps; not NULL
 * @return        the records (NULL before the first step), valid until the
 *                next step begins or P is destroyed
 * @pre           None.
 * @par Errors
 *     P or n NULL: "bspram: bspram_pram_trace(n=NULL): n must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
const bspram_pram_step_record *bspram_pram_trace(const bspram_pram *P, size_t *n);

/* Write the per-step trace to path: JSON if the name ends in ".json" (an
 * array of objects with the six fields step, reads, writes, violations,
 * supersteps, charge), CSV otherwise (the header
 * step,reads,writes,violations,supersteps,charge, one row per step).
 *
 * The file is written as bspram_pram_write_html writes its page: to a new
 * file beside path, renamed over it once whole (path holds its old
 * contents or the whole trace, never one cut short), or in place for a
 * device, a FIFO, a symbolic link or a file with hard links, which is
 * never removed; a FIFO that no process reads fails at once (ENXIO). Over MPI
 * (libbspram-mpi) every rank calls it alike; rank 0 writes the file, and
 * every rank returns once it is written, with rank 0's result.
 *
 * @param P       the PRAM; not NULL
 * @param path    the file's name; not NULL
 * @return        0, or −1 with errno set (the file could not be opened or
 *                written)
 * @pre           None.
 * @par Errors
 *     I/O errors are returned (−1, errno), not printed. P or path NULL:
 *     "bspram: bspram_pram_write_trace(path=NULL): path must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     None: no superstep; O(steps) of I/O (over MPI one MPI_Allreduce of
 *     two words).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
int bspram_pram_write_trace(const bspram_pram *P, const char *path);

/* Record the run step by step from the next step on (on), for
 * bspram_pram_write_html: each phase's accesses — the VP, the cell, the
 * kind (read, write, reduce, fetch-and-op, combining write), the value
 * written or contributed, the value a read or fetch-and-op got, and the
 * line of the program that made it (the call's site: pram.h's macros) — as
 * the engine received them, with the phase's supersteps, charge and
 * violations (each (cell, kind) with its two least VPs, up to 2^16 in a
 * run), and where the weakest model the run needed rose (the step, cell,
 * VPs and lines: bspram_pram_stats_of). Off: the record is dropped. At
 * most 2^20 accesses are kept (40 MiB): from the first phase that would
 * pass them on, phases keep their costs only.
 *
 * @param P       the PRAM; not NULL
 * @param on      true: start recording (again: go on); false: stop and
 *                drop what was recorded
 * @pre           One process: not over more than one MPI rank.
 * @par Errors
 *     Over MPI ranks: "bspram: bspram_pram_record(on=true): the accesses
 *     are recorded on one process; this run has 4 MPI ranks"; P NULL:
 *     "bspram: bspram_pram_record(P=NULL): P must not be NULL". Exit
 *     status 1.
 * @par BSP cost
 *     None; while on, each phase copies its requests: O(requests) local
 *     work on the host, no superstep.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
void bspram_pram_record(bspram_pram *P, bool on);

/* Write the recorded run (bspram_pram_record) as one self-contained HTML
 * page to open in a browser (its script, style and data inline; nothing is
 * fetched): the model the run needed and the step (cell, VPs and line)
 * where it first needed each model past EREW; per step the VPs active, the
 * cells each array had read and written (a cell per square up to 4096
 * cells, a density of accesses beyond), the concurrent accesses, the first
 * 64 accesses of each phase with their values and lines, the violations —
 * in report mode all of them, in fatal mode the one that ended the run —
 * each with its line and every VP that took part marked, the step's phases
 * with their supersteps and charge; controls to step, play and jump to the
 * next violation.
 *
 * The page is written to a new file beside path (".NAME.XXXXXX", in the
 * same directory, which must be writable) and renamed over path once it is
 * whole: path holds its old contents or the whole page, never a page cut
 * short, and a failed write removes only that new file. A path that is
 * not a regular file of one name — a device, a FIFO, a symbolic link (such
 * as /dev/stdout), a file with hard links — is written in place, as
 * fopen(path, "w") would, and never removed or renamed over; opening it
 * never waits (a FIFO that no process reads: ENXIO at once).
 *
 * @param P       the PRAM; not NULL
 * @param path    the file's name; not NULL
 * @return        0, or −1 with errno set (the file could not be opened or
 *                written; path is then as it was, or in place as far as
 *                it was written)
 * @pre           bspram_pram_record(P, true) was called before the steps
 *                to show.
 * @par Errors
 *     I/O errors are returned (−1, errno), not printed. Nothing recorded:
 *     "bspram: bspram_pram_write_html(path=\"run.html\"): nothing was
 *     recorded; call bspram_pram_record(P, true) before the steps"; P or
 *     path NULL: "bspram: bspram_pram_write_html(path=NULL): path must not
 *     be NULL". Exit status 1.
 * @par BSP cost
 *     None: no superstep; O(steps + accesses) of I/O.
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
int bspram_pram_write_html(const bspram_pram *P, const char *path);

/* Report mode: print the violations to out, and return their number.
 *
 * The lines:
 *     EREW: 23 violations in 2 steps          (the model; "1 violation in 1 step")
 *     step 2: 3                               (one line per step that has any)
 *     step 4: 20
 *     EREW violation in step 2: VPs 17 and 40 both read cell A[5]
 *     …                                       (the first BSPRAM_PRAM_REPORT_KEEP,
 *                                              the fatal line without "bspram: ")
 *     ... and 7 more                          (if more were counted)
 * or the one line "EREW: no violations" (always so outside report mode,
 * where the first violation is fatal). Over MPI every rank that calls it
 * prints.
 *
 * @param P       the PRAM; not NULL
 * @param out     where to print; not NULL
 * @return        the number of violations counted (bspram_pram_stats_of's
 *                violations)
 * @pre           None.
 * @par Errors
 *     P or out NULL: "bspram: bspram_pram_report(out=NULL): out must not be
 *     NULL", exit status 1. Write errors on out are not reported.
 * @par BSP cost
 *     None: local, O(steps + BSPRAM_PRAM_REPORT_KEEP).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
uint64_t bspram_pram_report(const bspram_pram *P, FILE *out);

/* ---- call sites: violations name the line of the access ---- */

/* Note where the next access of vp is written (file:line), for the
 * violation reports ("EREW violation in step 3 at ranking.c:42: …"). The
 * macros below call it: a program writes bspram_vp_read(vp, A, i) as
 * usual and its accesses carry their call site.
 *
 * @param vp      the handle a callback was given; NULL is passed on (the
 *                call it wraps reports it)
 * @param file    the source file (__FILE__; a static string: kept); NULL:
 *                no site
 * @param line    the line (__LINE__)
 * @return        vp
 * @pre           Called from the callback that was given vp.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step: here, a VP callback of bspram_pram_step
 *     or the body of bspram_pram_for_all, with the handle it was given.
 */
bspram_vp *bspram_vp_at(bspram_vp *vp, const char *file, unsigned line);

/* Note where the next bulk phase of P is called (file:line), for its
 * violation reports; the macros below call it.
 *
 * @param P       the PRAM; NULL is passed on (the call it wraps reports it)
 * @param file    the source file (__FILE__; a static string: kept); NULL:
 *                no site
 * @param line    the line (__LINE__)
 * @return        P
 * @pre           No phase of P is running.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: not from a VP callback, nor concurrently with
 *     another call on P.
 */
bspram_pram *bspram_pram_at(bspram_pram *P, const char *file, unsigned line);

/* Each access carries its call site; (bspram_vp_read)(vp, a, i) calls the
 * function without it. A macro does not expand inside itself: these call
 * the functions of the same names. */
#define bspram_vp_read(vp, a, index) bspram_vp_read(bspram_vp_at((vp), __FILE__, __LINE__), (a), (index))
#define bspram_vp_get(vp, a, index) bspram_vp_get(bspram_vp_at((vp), __FILE__, __LINE__), (a), (index))
#define bspram_vp_write(vp, a, index, value) \
    bspram_vp_write(bspram_vp_at((vp), __FILE__, __LINE__), (a), (index), (value))
#define bspram_vp_reduce(vp, a, index, value, op) \
    bspram_vp_reduce(bspram_vp_at((vp), __FILE__, __LINE__), (a), (index), (value), (op))
#define bspram_pram_gather(P, k, cells, out) \
    bspram_pram_gather(bspram_pram_at((P), __FILE__, __LINE__), (k), (cells), (out))
#define bspram_pram_scatter(P, k, cells, values) \
    bspram_pram_scatter(bspram_pram_at((P), __FILE__, __LINE__), (k), (cells), (values))
#define bspram_pram_scatter_reduce(P, k, cells, values, op) \
    bspram_pram_scatter_reduce(bspram_pram_at((P), __FILE__, __LINE__), (k), (cells), (values), (op))
#define bspram_pram_fetch_op(P, k, cells, values, op, out) \
    bspram_pram_fetch_op(bspram_pram_at((P), __FILE__, __LINE__), (k), (cells), (values), (op), (out))
#define bspram_pram_gather_owned(P, k, cells, out) \
    bspram_pram_gather_owned(bspram_pram_at((P), __FILE__, __LINE__), (k), (cells), (out))
#define bspram_pram_scatter_owned(P, k, cells, values) \
    bspram_pram_scatter_owned(bspram_pram_at((P), __FILE__, __LINE__), (k), (cells), (values))
#define bspram_pram_scatter_reduce_owned(P, k, cells, values, op) \
    bspram_pram_scatter_reduce_owned(bspram_pram_at((P), __FILE__, __LINE__), (k), (cells), (values), (op))
#define bspram_pram_fetch_op_owned(P, k, cells, values, op, out) \
    bspram_pram_fetch_op_owned(bspram_pram_at((P), __FILE__, __LINE__), (k), (cells), (values), (op), (out))

BSPRAM_END_DECLS
#endif
