/* bspram — multi-phase combining (Valiant 1992) on the bulk BSP machine.
 *
 * A batch is a set of requests (address, species, value) issued by the p
 * components. bspram_combine carries them to the owners of their addresses
 * through the router in m phases given by a basis sequence (b_1..b_m), one
 * superstep per phase (Valiant §2):
 *
 *   phase i: every component combines the requests it holds by destination
 *   address (and species) into one, then sends each to component
 *       h_i(t)·(b_{i+1}⋯b_m) + k,     h_i(t) = H(t) div (b_{i+1}⋯b_m),
 *   with k random per request, phase and invocation (spread RANDOM;
 *   counter-based, a pure function of (seed, batch number, phase, component,
 *   group index), where the batch number counts the combiner's earlier
 *   batches) or k_i*(s) = s mod (b_{i+1}⋯b_m) with s the sending
 *   component (spread SOURCE).
 *
 * After phase m the requests for t have met at H(t). For a segment with a
 * physical layout (address_space.h) the engine delivers to owner(t) either in one
 * extra phase m+1 (PHYSICAL_EXTRA_PHASE) or by sending phase m straight to
 * owner(t) (PHYSICAL_DIRECT_LAST) — Valiant §5. The owner combines once more,
 * answers reads, then applies the updates.
 *
 * Reverse flow (§2, §5): every combining point stores the sources it merged
 * for reads and fetch-and-ops; the answers travel back along the same tree,
 * one superstep per level, and each requester gets its own answer.
 *
 * Species and their meaning at one cell, for one batch:
 *   READ                 returns the cell's value before the batch.
 *   WRITE  ARBITRARY     one of the written values: the request with the least
 *                        bspram_random2(seed, origin, request index) wins
 *                        (ties, probability 2^-64, by least value).
 *          PRIORITY      the request of the lowest origin component wins (then
 *                        the lowest request index within that component).
 *          COMMON        all written values must be equal; if two differ the
 *                        batch is a fatal error naming the address and two
 *                        origins that disagree.
 *   REDUCE op            cell ← cell ⊕ (⊕ of the values).
 *   WRITE  op            (a combining write, the CRCW-combining PRAM's rule)
 *                        cell ← ⊕ of the values; the old value is dropped.
 *   FETCH  op            cell ← cell ⊕ (⊕ of the values), and each requester
 *                        gets cell_before ⊕ (the values that precede its own in
 *                        the combining order) — multiprefix, like the
 *                        Ultracomputer's fetch-and-add. The order is the
 *                        combining tree's: at each combining point, the order
 *                        of arrival (source component, then issue), so it is
 *                        a pure function of the seed, the same for any T.
 * Reads may be mixed with one update species per cell in a batch; reads see
 * memory before the batch's updates. Two different update species (e.g. a
 * write and a sum, or sum and max) at one cell in one batch are a fatal error
 * naming the address and the two species (e.g. "write(arbitrary) and
 * reduce(sum:u64#7)"); the origins are not named: they are met only at the
 * owner, after combining has merged the requests.
 *
 * Values are 64-bit words: int64, uint64 or the bits of an IEEE double; a
 * cell of w < 8 bytes stores (and a read returns) the low w bytes. For
 * doubles, and/or/xor are logical (non-zero is true, the result is 1.0 or
 * 0.0); REDUCE, FETCH and combining writes need w = 8.
 * Floating-point sum and product are exact only
 * when every partial result is representable (the grouping is the tree's).
 *
 * Cost (every figure from the router's records, never from a formula): the
 * batch runs M forward supersteps (M = m, or m+1 with an extra physical
 * phase) labelled "combine:forward:i" and, if it holds a READ or FETCH, M
 * reverse supersteps "combine:reverse:j"; forward phase i is charged
 * max(q_i, r_i). Local work per component and phase is O(messages held)
 * expected (hash grouping). Messages are 32 bytes forward (16 for a
 * reduction on a hashed segment outside ADAPTIVE), 16 bytes back.
 *
 * Errors are fatal (base/error.h): one line, exit status 1. So is a NULL
 * pointer argument that a call needs — a combiner, a machine, a space,
 * options, a name to parse, requests, first, results with a READ or FETCH
 * in the batch, parts, out with max > 0 ("bspram_combine(requests=NULL):
 * requests must not be NULL"; docs/limits.md). NULL is allowed where a
 * function says so: stats, a user operation's name and ctx, and
 * bspram_combiner_destroy(NULL), which does nothing.
 */
#ifndef BSPRAM_COMBINE_COMBINE_H
#define BSPRAM_COMBINE_COMBINE_H

#include <stdint.h>

#include "base/api.h"
#include "bsp/machine.h"
#include "hash/basis.h"
#include "hash/address_space.h"

BSPRAM_BEGIN_DECLS

/* ---- operations ---- */

typedef enum { BSPRAM_TYPE_I64 = 0, BSPRAM_TYPE_U64 = 1, BSPRAM_TYPE_F64 = 2 } bspram_type;
typedef enum {
    BSPRAM_OP_SUM = 0, BSPRAM_OP_PROD, BSPRAM_OP_MIN, BSPRAM_OP_MAX,
    BSPRAM_OP_AND, BSPRAM_OP_OR, BSPRAM_OP_XOR
} bspram_op_kind;

#define BSPRAM_BUILTIN_OPS 21   /* 7 operations × 3 types */
#define BSPRAM_MAX_OPS 32       /* built-in + user-defined */

/* The id of a built-in operation: kind + 7·type. */
static inline unsigned bspram_op_builtin(bspram_op_kind kind, bspram_type type)
{
    return (unsigned)kind + 7u * (unsigned)type;
}

/* Parse "sum", "prod", "min", "max", "and", "or", "xor" followed by ":i64",
 * ":u64" or ":f64" (default i64), e.g. "max:f64". Returns the id or −1. */
int bspram_op_parse(const char *name);
/* "sum:i64", …; NULL for an id that is not built in. */
const char *bspram_op_name(unsigned op);
/* The identity of a built-in operation (0 for sum, 1 for prod, …); 0 for an
 * id that is not built in (user operations belong to a combiner: see
 * bspram_combiner_op_identity). */
uint64_t bspram_op_identity(unsigned op);
/* a ⊕ b for a built-in operation (the sequential definition). */
uint64_t bspram_op_apply(unsigned op, uint64_t a, uint64_t b);

/* A user-defined commutative, associative operation with an identity on
 * 64-bit words. The engine trusts commutativity and associativity (results
 * depend on the combining order otherwise). The callback is called
 * concurrently from several OpenMP threads (one per worker of the machine),
 * all with the same ctx: it must be thread-safe (a pure function of a and b,
 * or ctx guarded by the callback itself). */
typedef uint64_t (*bspram_user_op_fn)(uint64_t a, uint64_t b, void *ctx);

/* ---- species: one byte per request ---- */

/* Request kinds (species with their policy or operation):
 *   0            READ
 *   1, 2, 3      WRITE arbitrary, priority, common
 *   32 + op      REDUCE with operation op (op < BSPRAM_MAX_OPS)
 *   64 + op      FETCH-and-op with operation op
 *   96 + op      combining WRITE with operation op                           */
enum {
    BSPRAM_READ = 0,
    BSPRAM_WRITE_ARBITRARY = 1,
    BSPRAM_WRITE_PRIORITY = 2,
    BSPRAM_WRITE_COMMON = 3
};
static inline uint8_t bspram_kind_reduce(unsigned op) { return (uint8_t)(32u + op); }
static inline uint8_t bspram_kind_fetch(unsigned op) { return (uint8_t)(64u + op); }
static inline uint8_t bspram_kind_combine_write(unsigned op) { return (uint8_t)(96u + op); }

/* One request. `value` is ignored for READ. `label` names the request's
 * issuer in conflict reports (bspram_combiner_watch: e.g. a PRAM virtual
 * processor); it changes nothing else and may be left 0. */
typedef struct bspram_request {
    uint64_t address;
    uint64_t value;
    uint8_t kind;
    uint32_t label;
} bspram_request;

/* ---- the combiner ---- */

typedef enum { BSPRAM_SPREAD_RANDOM = 0, BSPRAM_SPREAD_SOURCE = 1 } bspram_spread;
typedef enum { BSPRAM_PHYSICAL_EXTRA_PHASE = 0, BSPRAM_PHYSICAL_DIRECT_LAST = 1 } bspram_physical;

/* How the basis is chosen (combine/strategy.c):
 *   FIXED     the given basis.
 *   AUTO      bspram_basis_auto(p, degree_hint) (0 = no hint).
 *   ADAPTIVE  the basis bspram_basis_adaptive(p), but in a phase i with
 *             2 ≤ i < m a component that saw almost no combining (at most
 *             1 in 32 of the requests it received met another of the same
 *             address) sends its requests that still stand for a single
 *             original request straight to their owners, skipping the
 *             remaining phases. No degree knowledge, every superstep counted
 *             (at p = 4096, v = 2^17: factor 2.0 at degree 1 against 3.0 for
 *             (32,16,8), but the same worst case, 3.5 — bench/RESULTS.md). */
typedef enum { BSPRAM_STRATEGY_FIXED = 0, BSPRAM_STRATEGY_AUTO = 1, BSPRAM_STRATEGY_ADAPTIVE = 2 } bspram_strategy;

typedef struct bspram_combine_options {
    bspram_strategy strategy;
    bspram_basis basis;         /* FIXED: the basis (product p) */
    uint64_t degree_hint;       /* AUTO: the expected degree, 0 if unknown */
    bspram_spread spread;
    bspram_physical physical;
    uint64_t seed;              /* spreading and arbitrary-write winners */
} bspram_combine_options;

/* Options: FIXED one-phase basis (p), RANDOM spread, extra physical phase, seed 0. */
bspram_combine_options bspram_combine_defaults(uint64_t p);

typedef struct bspram_combiner bspram_combiner;

/* A combiner for machine m over address space s (same p). Errors: p of the
 * machine and the space differ; FIXED basis whose product is not p. */
bspram_combiner *bspram_combiner_create(bspram_machine *m, bspram_space *s,
                                        const bspram_combine_options *o);
void bspram_combiner_destroy(bspram_combiner *c);

/* Replace the options (same rules as create; call between batches). The
 * batch counter that keys the random spreading (see the top of this file) is
 * not reset: it counts every batch since create, so changing only the basis
 * or the strategy between batches still draws new offsets. */
void bspram_combiner_set_options(bspram_combiner *c, const bspram_combine_options *o);

/* Register a user operation with its identity; returns its id (≥ 21), usable
 * with bspram_kind_reduce / bspram_kind_fetch. `name` (NULL = "user"; the
 * first 31 bytes are kept) names the operation in error messages, e.g.
 * "reduce(gcd#21)". The engine never needs the identity (cells start with
 * their stored values); bspram_combiner_op_identity returns it. Errors: more
 * than BSPRAM_MAX_OPS − 21 user operations; fn NULL. */
unsigned bspram_combiner_add_op(bspram_combiner *c, const char *name, bspram_user_op_fn fn,
                                void *ctx, uint64_t identity);

/* The number of operations of combiner c: the ids 0 .. count−1 are valid
 * (the BSPRAM_BUILTIN_OPS built-in ones, then the user operations in the
 * order they were registered). */
unsigned bspram_combiner_op_count(const bspram_combiner *c);

/* The identity of operation op of combiner c: bspram_op_identity for a
 * built-in op, the registered identity for a user op. Error (fatal): op not
 * registered. */
uint64_t bspram_combiner_op_identity(const bspram_combiner *c, unsigned op);

/* What a batch cost, read back from the router's records. */
typedef struct bspram_combine_stats {
    unsigned phases;            /* M forward supersteps */
    unsigned reverse_phases;    /* M or 0 */
    bspram_basis basis;         /* the basis used (after AUTO / ADAPTIVE) */
    /* [1..M]; M ≤ BSPRAM_MAX_PHASES + 1 (an extra physical phase) */
    uint64_t forward_charge[BSPRAM_MAX_PHASES + 2]; /* max(q_i, r_i) */
    uint64_t forward_q[BSPRAM_MAX_PHASES + 2];
    uint64_t forward_r[BSPRAM_MAX_PHASES + 2];
    uint64_t forward_messages[BSPRAM_MAX_PHASES + 2];
    uint64_t reverse_charge[BSPRAM_MAX_PHASES + 2];
    uint64_t charge;            /* Σ forward charges */
    uint64_t reverse_total;     /* Σ reverse charges */
    uint64_t first_record;      /* index of the batch's first record in the log */
} bspram_combine_stats;

/* Run one batch. Component c issues requests[first[c] .. first[c+1]) (first
 * has p+1 entries, non-decreasing, first[0] = 0); answers of READ and FETCH
 * requests go to results[same index] (results may be NULL if the batch has
 * none; other entries are left untouched). stats may be NULL.
 * Must be called from outside the machine's supersteps (one OpenMP
 * parallel region for the whole batch).
 * Over MPI (libbspram-mpi) every rank calls it alike, and on return every
 * rank has every answer and every cell, as on one machine (each rank gives
 * what its components hold: O(requests + live cells), two MPI_Allgatherv
 * for the answers and one MPI_Allreduce per live segment, per batch; the
 * answers of a batch stay below 2^31 bytes).
 * Errors (fatal): an address outside every live segment or a segment index
 * out of range; an unknown kind or operation; REDUCE/FETCH on a cell of
 * w ≠ 8; a common-write conflict; two update species at one cell; results
 * NULL with a READ or FETCH present.
 * Cost: see the top of this file. */
void bspram_combine(bspram_combiner *c, const bspram_request *requests, const uint64_t *first,
                    uint64_t *results, bspram_combine_stats *stats);

/* ---- conflicts (for the PRAM's exclusive and common rules) ---- */

/* What a batch watches for, detected where combining meets it — when two
 * requests for one cell are merged at a component — so watching costs no
 * pass over the requests:
 *   READS   two READs of one cell;
 *   WRITES  two WRITEs (any policy) of one cell;
 *   VALUES  two WRITEs of one cell with different values (a COMMON write
 *           then is recorded instead of being fatal, and the request of the
 *           least origin is written);
 *   DISTINCT with READS or WRITES: two requests of equal labels are no
 *           conflict (a PRAM processor that reads one cell twice in a step
 *           competes with no one); the pair reported is then the two least
 *           distinct labels. */
enum {
    BSPRAM_WATCH_READS = 1,
    BSPRAM_WATCH_WRITES = 2,
    BSPRAM_WATCH_VALUES = 4,
    BSPRAM_WATCH_DISTINCT = 8
};

/* Watch the next batches for `watch` (an OR of BSPRAM_WATCH_*; 0 = none,
 * the default). Call between batches. Errors (fatal): unknown bits. */
void bspram_combiner_watch(bspram_combiner *c, unsigned watch);

/* A conflict: the cell, what was watched (READS, WRITES or VALUES), and two
 * labels, label[0] ≤ label[1]: for READS and WRITES the two least labels of
 * the requests of that species at the cell; for VALUES the labels of two
 * requests that write different values there. */
typedef struct bspram_conflict {
    uint64_t address;
    unsigned what;
    uint32_t label[2];
} bspram_conflict;

/* The conflicts of the last batch: one per (cell, what), sorted by address
 * then what; of the pairs that met at a cell the least (label[0], label[1])
 * is given, so the answer is a pure function of the seed whatever the
 * number of threads or MPI ranks. Copies the first min(count, max) into out
 * and returns the count (out may be NULL when max = 0: the count only). Call
 * after the batch; the list is kept until the next batch. Over MPI every
 * rank calls it alike: it gathers every rank's conflicts. Cost O(R log R) for R merges that conflicted. */
size_t bspram_combiner_conflicts(bspram_combiner *c, bspram_conflict *out, size_t max);

/* ---- basis choice (combine/strategy.c) ---- */

/* A good basis for p components and an expected degree (0 = unknown).
 * For p = 4096 it follows Valiant's Table 2 (one phase for degree ≤ 8) and,
 * with no hint, his compromise (32,16,8) of Table 3. For other p: one phase
 * for degree ≤ 8 (or p ≤ 8); otherwise a first phase that spreads each group
 * over about degree/8 components (p^(7/12) with no hint, the spread of
 * (32,16,8) at 4096), then phases of radix ≤ 8. Never fails for p ≥ 1. */
bspram_basis bspram_basis_auto(uint64_t p, uint64_t degree_hint);

/* The basis the ADAPTIVE strategy runs (for p = 4096: 32x16x8, else auto without hint). */
bspram_basis bspram_basis_adaptive(uint64_t p);

BSPRAM_END_DECLS
#endif
