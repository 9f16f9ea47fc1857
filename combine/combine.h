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
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "combine/combine.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
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

/* The id of a built-in operation: kind + 7·type.
 *
 * @param kind    the operation, BSPRAM_OP_SUM … BSPRAM_OP_XOR (unchecked)
 * @param type    how the words are read, BSPRAM_TYPE_I64, _U64 or _F64
 *                (unchecked)
 * @return        the id, in [0, BSPRAM_BUILTIN_OPS) for valid arguments
 * @pre           kind and type are values of their enums; this inline
 *                helper checks neither (an id out of range is refused where
 *                it is used: bspram_combine, bspram_shared_reduce, …).
 * @par Errors
 *     None: nothing is checked.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
static inline unsigned bspram_op_builtin(bspram_op_kind kind, bspram_type type)
{
    return (unsigned)kind + 7u * (unsigned)type;
}

/* The id of a built-in operation named "sum", "prod", "min", "max", "and",
 * "or" or "xor", followed by ":i64", ":u64" or ":f64" (default i64), e.g.
 * "max:f64".
 *
 * The names are matched exactly (lower case, no spaces).
 *
 * @param name    the operation's name; not NULL
 * @return        its id, bspram_op_builtin(kind, type), or −1 for any other
 *                name
 * @pre           None.
 * @par Errors
 *     name NULL: "bspram: bspram_op_parse(name=NULL): name must not be
 *     NULL", exit status 1. An unknown name is no error (−1).
 * @par BSP cost
 *     None: local, O(length of name).
 * @par Thread safety
 *     Any thread; a pure function.
 */
int bspram_op_parse(const char *name);
/* The name of a built-in operation: "sum:i64", …, "xor:f64".
 *
 * User operations' names belong to their combiner (error messages show
 * them).
 *
 * @param op      the operation's id
 * @return        its name (a static string), or NULL for an id that is not
 *                built in (op ≥ BSPRAM_BUILTIN_OPS)
 * @pre           None.
 * @par Errors
 *     None: an id that is not built in gives NULL.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
const char *bspram_op_name(unsigned op);
/* The identity of a built-in operation: 0 for sum, or and xor, 1 for
 * prod, the largest value for min, the least for max, all ones for and (as
 * words of their type: INT64_MAX for min:i64, +infinity for min:f64, 1.0
 * for prod:f64 and logical and:f64, …).
 *
 * User operations belong to a combiner: see bspram_combiner_op_identity.
 *
 * @param op      the operation's id
 * @return        the identity's 64-bit word
 * @pre           op < BSPRAM_BUILTIN_OPS.
 * @par Errors
 *     An id that is not built in: "bspram: bspram_op_identity(op=21): not a
 *     built-in operation; valid: 0..20 (…)", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
uint64_t bspram_op_identity(unsigned op);
/* a ⊕ b for a built-in operation (the sequential definition the engine
 * combines with).
 *
 * Integer sums and products wrap modulo 2^64 (two's complement for i64).
 * For f64, and, or and xor are logical (non-zero is true; the result is
 * 1.0 or 0.0); min and max return b when a and b are unordered (a NaN), so
 * with NaNs they are not commutative.
 *
 * @param op      the operation's id
 * @param a       the left operand, a word of the operation's type
 * @param b       the right operand, a word of the operation's type
 * @return        a ⊕ b
 * @pre           op < BSPRAM_BUILTIN_OPS.
 * @par Errors
 *     An id that is not built in: "bspram: bspram_op_apply(op=999): not a
 *     built-in operation; valid: 0..20 (…)", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
uint64_t bspram_op_apply(unsigned op, uint64_t a, uint64_t b);

/* A user-defined commutative, associative operation with an identity on
 * 64-bit words. The engine trusts commutativity and associativity (results
 * depend on the combining order otherwise). The callback is called
 * concurrently from several threads (one per worker of the machine),
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
/* The kind of a REDUCE request with operation op: 32 + op.
 *
 * @param op      the operation's id, below BSPRAM_MAX_OPS (unchecked)
 * @return        (uint8_t)(32 + op)
 * @pre           op < BSPRAM_MAX_OPS; this inline helper does not check it
 *                (a larger op makes another kind, or an unknown one, which
 *                bspram_combine and bspram_shared_issue refuse).
 * @par Errors
 *     None: nothing is checked.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
static inline uint8_t bspram_kind_reduce(unsigned op) { return (uint8_t)(32u + op); }

/* The kind of a FETCH-and-op request with operation op: 64 + op.
 *
 * @param op      the operation's id, below BSPRAM_MAX_OPS (unchecked)
 * @return        (uint8_t)(64 + op)
 * @pre           op < BSPRAM_MAX_OPS; this inline helper does not check it
 *                (a larger op makes another kind, or an unknown one, which
 *                bspram_combine and bspram_shared_issue refuse).
 * @par Errors
 *     None: nothing is checked.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
static inline uint8_t bspram_kind_fetch(unsigned op) { return (uint8_t)(64u + op); }

/* The kind of a combining WRITE request with operation op: 96 + op.
 *
 * @param op      the operation's id, below BSPRAM_MAX_OPS (unchecked)
 * @return        (uint8_t)(96 + op)
 * @pre           op < BSPRAM_MAX_OPS; this inline helper does not check it
 *                (a larger op makes another kind, or an unknown one, which
 *                bspram_combine and bspram_shared_issue refuse).
 * @par Errors
 *     None: nothing is checked.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
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
 *             (32,16,8), but the same worst case, 3.5 — bench/RESULTS.md).
 *   OBSERVE   no degree knowledge either: before phase 1 the components
 *             measure the batch's degree — a bottom-4 sketch with counts of
 *             their requests' keys, merged by recursive doubling in
 *             ⌈log2 p⌉ supersteps "combine:observe:j" (+2 when p is not a
 *             power of two), each charged at most 1 — and run
 *             bspram_basis_auto(p, measured degree). The degree is the mean
 *             over a uniform sample of 4 of the distinct keys: exact when
 *             every address has the same degree (Valiant §4's patterns),
 *             blind to a few hot addresses among many cold ones. The
 *             observation is charged in stats.charge (combine/observe.c).
 *   ROUTE     the programmer's own phases (Valiant §5, last paragraphs):
 *             route_phases phases; in phase i < route_phases the component
 *             u holding a request on address t (combined with the others
 *             of its address and species there) sends it to
 *             route(i, t, u, route_arg), and the last phase sends it to its
 *             owner (H(t), or the extra physical phase after it). A pattern
 *             whose structure the programmer knows is combined where they
 *             choose; the reverse flow runs back along the same phases.
 *             stats.basis is then the one-phase basis (p). */
typedef enum {
    BSPRAM_STRATEGY_FIXED = 0,
    BSPRAM_STRATEGY_AUTO = 1,
    BSPRAM_STRATEGY_ADAPTIVE = 2,
    BSPRAM_STRATEGY_OBSERVE = 3,
    BSPRAM_STRATEGY_ROUTE = 4
} bspram_strategy;

/* ROUTE: where the component `component` sends a request on `address` in
 * phase `phase` (1 ≤ phase < route_phases): a component in [0, p). Called
 * by the machine's threads concurrently, once per combined request and
 * phase; it must be a pure function of its arguments (and of what arg
 * points to, unchanged during a batch) for the results to be the same for
 * any thread count. */
typedef uint64_t (*bspram_route_fn)(unsigned phase, uint64_t address, uint64_t component, void *arg);

typedef struct bspram_combine_options {
    bspram_strategy strategy;
    bspram_basis basis;         /* FIXED: the basis (product p) */
    uint64_t degree_hint;       /* AUTO: the expected degree, 0 if unknown */
    bspram_spread spread;
    bspram_physical physical;
    uint64_t seed;              /* spreading and arbitrary-write winners */
    bspram_route_fn route;      /* ROUTE: the phases' destinations */
    void *route_arg;            /* ROUTE: route's last argument */
    unsigned route_phases;      /* ROUTE: phases, in [1, BSPRAM_MAX_PHASES] */
} bspram_combine_options;

/* Options for p components: the FIXED one-phase basis (p), RANDOM spread,
 * the extra physical phase, seed 0 (degree_hint 0).
 *
 * @param p       the number of components, ≥ 1
 * @return        the options, by value
 * @pre           None.
 * @par Errors
 *     p = 0: "bspram: bspram_combine_defaults(p=0): p must be >= 1", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
bspram_combine_options bspram_combine_defaults(uint64_t p);

typedef struct bspram_combiner bspram_combiner;

/* A combiner for machine m over address space s (same p), with options o.
 *
 * The combiner keeps m and s (it does not own them) and the batch counter
 * that keys the random spreading.
 *
 * @param m       the machine that runs the batches; not NULL
 * @param s       the address space the requests name; same p as m; not NULL
 * @param o       the options (copied); not NULL
 * @return        the combiner (free it with bspram_combiner_destroy); never
 *                NULL
 * @pre           A FIXED basis in o was made by bspram_basis_make or
 *                bspram_basis_parse (its suffix products are used as they
 *                are).
 * @par Errors
 *     Each one line, exit status 1: "bspram: bspram_combiner_create: the
 *     machine has p = 8 components but the address space has p = 4"; the
 *     options' errors, named as bspram_combiner_set_options's: "bspram:
 *     bspram_combiner_set_options(basis=8x8): basis product is 64; it must
 *     equal p = 4096" (a FIXED basis whose product is not p, or that
 *     bspram_basis_make refuses; "(empty)" for m = 0); "bspram:
 *     bspram_combiner_set_options(strategy=5): unknown strategy; valid: 0
 *     fixed, 1 auto, 2 adaptive, 3 observe, 4 route"; "bspram:
 *     bspram_combiner_set_options(route_phases=0): ROUTE needs a route and
 *     route_phases in [1, 64]"; "bspram:
 *     bspram_combiner_set_options(spread=5): unknown spreading; valid: 0
 *     random, 1 source"; "bspram: bspram_combiner_set_options(physical=5):
 *     unknown delivery; valid: 0 extra phase, 1 direct last"; out of memory
 *     ("bspram: bspram_combiner_create: out of memory"); m, s or o NULL
 *     ("bspram: bspram_combiner_create(o=NULL): o must not be NULL").
 * @par BSP cost
 *     None: no superstep. O(p + T) time and memory (per-component and
 *     per-lane state, which grows with the batches).
 * @par Thread safety
 *     The host only: outside every run of m.
 */
bspram_combiner *bspram_combiner_create(bspram_machine *m, bspram_space *s,
                                        const bspram_combine_options *o);

/* Free the combiner (not its machine, not its space).
 *
 * @param c       the combiner; NULL does nothing
 * @pre           No batch of c is running; c is not used afterwards.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(p + T).
 * @par Thread safety
 *     The host only: outside every run of the combiner's machine.
 */
void bspram_combiner_destroy(bspram_combiner *c);

/* Replace the options (same rules as create) for the next batches.
 *
 * The batch counter that keys the random spreading (see the top of this
 * file) is not reset: it counts every batch since create, so changing only
 * the basis or the strategy between batches still draws new offsets.
 *
 * @param c       the combiner; not NULL
 * @param o       the new options (copied); not NULL
 * @pre           No batch of c is running. A FIXED basis was made by
 *                bspram_basis_make or bspram_basis_parse.
 * @par Errors
 *     Each one line, exit status 1: "bspram: bspram_combiner_set_options(basis=8x8): basis
 *     product is 64; it must equal p = 4096" (a FIXED basis whose product
 *     is not p, or that bspram_basis_make refuses; "(empty)" for m = 0);
 *     "bspram: bspram_combiner_set_options(strategy=5): unknown strategy;
 *     valid: 0 fixed, 1 auto, 2 adaptive, 3 observe, 4 route"; "bspram:
 *     bspram_combiner_set_options(spread=5): unknown spreading; valid: 0
 *     random, 1 source"; "bspram: bspram_combiner_set_options(physical=5):
 *     unknown delivery; valid: 0 extra phase, 1 direct last"; c or o NULL ("bspram:
 *     bspram_combiner_set_options(o=NULL): o must not be NULL").
 * @par BSP cost
 *     None: local, O(m) (the basis is checked).
 * @par Thread safety
 *     The host only: between batches, outside every run of the combiner's
 *     machine.
 */
void bspram_combiner_set_options(bspram_combiner *c, const bspram_combine_options *o);

/* Register a user operation with its identity; returns its id (≥ 21),
 * usable with bspram_kind_reduce, bspram_kind_fetch and
 * bspram_kind_combine_write.
 *
 * The engine never needs the identity (cells start with their stored
 * values); bspram_combiner_op_identity returns it.
 *
 * @param c        the combiner; not NULL
 * @param name     names the operation in error messages, e.g.
 *                 "reduce(gcd#21)" (copied, the first 31 bytes kept);
 *                 NULL = "user"
 * @param fn       the operation, commutative and associative, called
 *                 concurrently from the machine's threads (thread-safe);
 *                 not NULL
 * @param ctx      passed to every call of fn; may be NULL
 * @param identity the operation's identity
 * @return         the operation's id, BSPRAM_BUILTIN_OPS + the number of
 *                 user operations registered before it
 * @pre           No batch of c is running.
 * @par Errors
 *     Each one line, exit status 1: fn NULL ("bspram:
 *     bspram_combiner_add_op(name=gcd): fn is NULL" — this line, unlike
 *     the other NULL refusals, does not say "must not be NULL"); more than
 *     BSPRAM_MAX_OPS − 21 = 11 user operations ("bspram:
 *     bspram_combiner_add_op(name=gcd): more than 11 user operations"); c
 *     NULL ("bspram: bspram_combiner_add_op(c=NULL): c must not be NULL").
 *     The name is printed as given, "(null)" for NULL.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: between batches, outside every run of the combiner's
 *     machine.
 */
unsigned bspram_combiner_add_op(bspram_combiner *c, const char *name, bspram_user_op_fn fn,
                                void *ctx, uint64_t identity);

/* The number of operations of combiner c: the ids 0 .. count−1 are valid
 * (the BSPRAM_BUILTIN_OPS built-in ones, then the user operations in the
 * order they were registered).
 *
 * @param c       the combiner; not NULL
 * @return        BSPRAM_BUILTIN_OPS + the user operations, at most
 *                BSPRAM_MAX_OPS
 * @pre           None.
 * @par Errors
 *     c NULL: "bspram: bspram_combiner_op_count(c=NULL): c must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not concurrently with bspram_combiner_add_op on c.
 */
unsigned bspram_combiner_op_count(const bspram_combiner *c);

/* The identity of operation op of combiner c: bspram_op_identity for a
 * built-in op, the registered identity for a user op.
 *
 * @param c       the combiner; not NULL
 * @param op      an operation of c, below bspram_combiner_op_count(c)
 * @return        the identity's 64-bit word
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1: op not registered ("bspram:
 *     bspram_combiner_op_identity(op=25): no such operation; valid:
 *     0..21"); c NULL ("bspram: bspram_combiner_op_identity(c=NULL): c must
 *     not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not concurrently with bspram_combiner_add_op on c.
 */
uint64_t bspram_combiner_op_identity(const bspram_combiner *c, unsigned op);

/* What a batch cost, read back from the router's records. */
typedef struct bspram_combine_stats {
    unsigned phases;            /* M forward supersteps */
    unsigned reverse_phases;    /* M or 0 */
    bspram_basis basis;         /* the basis used (after AUTO / ADAPTIVE / OBSERVE) */
    unsigned observe_phases;    /* OBSERVE: the observation's supersteps, else 0 */
    uint64_t observe_charge;    /* OBSERVE: their Σ max(q, r) */
    uint64_t observed_degree;   /* OBSERVE: the degree they measured */
    /* [1..M]; M ≤ BSPRAM_MAX_PHASES + 1 (an extra physical phase) */
    uint64_t forward_charge[BSPRAM_MAX_PHASES + 2]; /* max(q_i, r_i) */
    uint64_t forward_q[BSPRAM_MAX_PHASES + 2];
    uint64_t forward_r[BSPRAM_MAX_PHASES + 2];
    uint64_t forward_messages[BSPRAM_MAX_PHASES + 2];
    uint64_t reverse_charge[BSPRAM_MAX_PHASES + 2];
    uint64_t charge;            /* Σ forward charges, and the observation's */
    uint64_t reverse_total;     /* Σ reverse charges */
    uint64_t first_record;      /* index of the batch's first record in the log */
} bspram_combine_stats;

/* Run one batch: component c issues requests[first[c] .. first[c+1]), and
 * the answers of READ and FETCH requests go to results[same index].
 *
 * The requests are combined and carried to the owners of their cells in
 * the phases of the basis (top of this file), the updates applied, and the
 * answers carried back; other entries of results are left untouched. One
 * start of the machine's threads for the whole batch. Over MPI (libbspram-mpi)
 * every rank calls it alike, and on return every rank has every answer, as
 * on one machine (each rank gives its components': two MPI_Allgatherv of
 * O(requests) per batch, the answers of a batch below 2^31 bytes); the
 * cells stay with their owners' ranks (bspram_holds), and
 * bspram_gather_cells brings a range of them to every rank when asked.
 *
 * @param c        the combiner; not NULL
 * @param requests the requests, first[p] of them; not NULL
 * @param first    p + 1 offsets, non-decreasing, first[0] = 0; not NULL
 * @param results  first[p] entries for the answers; may be NULL if the
 *                 batch has no READ or FETCH
 * @param stats    receives what the batch cost (read from the records);
 *                 may be NULL
 * @pre           No run of the combiner's machine is in progress; the
 *                 space's segments are not allocated or freed meanwhile.
 * @par Errors
 *     Each one line, exit status 1:
 *     "bspram: bspram_combine(first[0]=3): first[0] must be 0";
 *     "bspram: bspram_combine(first[3]=5, first[4]=2): offsets must not
 *     decrease";
 *     "bspram: bspram_combine(request 3 of component 2): address
 *     0x50000000000 is in no live segment (segment 5)" (or "…: address
 *     0x1000000000a: segment 1 index 10 out of range [0, 10)");
 *     "bspram: bspram_combine(request 3 of component 2, address
 *     0x10000000005): unknown species or operation (kind 40); valid: 0
 *     read, 1-3 write, 32+op reduce, 64+op fetch with op < 21" (96+op,
 *     the combining write, is valid too, though the line omits it);
 *     "bspram: bspram_combine(request 3 of component 2, address
 *     0x10000000005): reduce, fetch-and-op and combining writes need cells
 *     of 8 bytes; the segment's are 4";
 *     "bspram: bspram_combine(results=NULL): the batch holds READ or FETCH
 *     requests (request 0 of component 1)";
 *     "bspram: bspram_combine: route(phase=1, address=0x10000000000,
 *     component=0) = 256: not a component; p = 256" (ROUTE);
 *     "bspram: bspram_combine: two update species at address 0x10000000005
 *     in one batch: write(arbitrary) and reduce(sum:u64#7)";
 *     "bspram: bspram_combine: common-write conflict at address
 *     0x10000000005 (segment 1, cell 5): origin 2 writes 7, origin 3 writes
 *     8" (unless BSPRAM_WATCH_VALUES is watched);
 *     a run of the machine already in progress, named as this call
 *     ("bspram: bspram_combine: the machine's team is already running
 *     (…); a machine runs one team at a time"), or threads
 *     that cannot be started (bspram_machine_run's error, under the same
 *     name); c, requests or first NULL ("bspram:
 *     bspram_combine(requests=NULL): requests must not be NULL").
 * @par BSP cost
 *     With OBSERVE first ⌈log2 p⌉ supersteps (+2 if p is not a power of
 *     two) "combine:observe:j", one 32-byte message per component each,
 *     charged at most 1. Then M forward supersteps (M = m, or m + 1 with
 *     an extra physical phase)
 *     labelled "combine:forward:i", phase i charged max(q_i, r_i); and, if
 *     the batch holds a READ or FETCH, M reverse supersteps
 *     "combine:reverse:j". Messages of 32 bytes forward (16 for a reduction
 *     on a hashed segment outside ADAPTIVE), 16 back. Local work O(messages
 *     held) expected per component and phase (hash grouping); memory
 *     O(requests) kept and reused by the combiner: among it the reverse
 *     flow's records, 16 bytes per source and 5 per group of a READ or
 *     FETCH at each level, sized exactly to the largest batch yet (not
 *     doubled), plus the router's for the messages in flight (32 or 16
 *     bytes each forward, 16 back) and O(p·levels) fixed per combiner.
 * @par Thread safety
 *     The host only: outside every run of the combiner's machine, one
 *     batch at a time (user operations run concurrently on its threads).
 */
void bspram_combine(bspram_combiner *c, const bspram_request *requests, const uint64_t *first,
                    uint64_t *results, bspram_combine_stats *stats);

/* Host access, an explicit gather: values[i] = the cell at address + i, for
 * i < count, on every process — the cells of one segment, consecutive
 * indices. On one machine a copy; over MPI every rank calls it alike, each
 * gives the cells it holds (bspram_holds) and every rank gets them all.
 * Batches never do this by themselves: a rank holds its own cells only.
 *
 * @param c        the combiner; not NULL
 * @param address  the first cell (bspram_address)
 * @param count    the cells to read, all in address's segment
 * @param values   receives count values; may be NULL only when count = 0
 * @pre           No run of the combiner's machine is in progress.
 * @par Errors
 *     Each one line, exit status 1: a range outside one live segment
 *     ("bspram: bspram_gather_cells(address=0x10000000008, count=5):
 *     address 0x1000000000c: segment 1 index 12 out of range [0, 10)");
 *     values NULL with count > 0; c NULL.
 * @par BSP cost
 *     None recorded (no superstep). O(count) expected time; over MPI one
 *     MPI_Allreduce of count words.
 * @par Thread safety
 *     The host only, as bspram_combine.
 */
void bspram_gather_cells(bspram_combiner *c, uint64_t address, uint64_t count, uint64_t *values);

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

/* Watch the next batches for conflicts of the kinds in watch (an OR of
 * BSPRAM_WATCH_*; 0 = none, the default).
 *
 * With BSPRAM_WATCH_VALUES a common-write conflict is recorded instead of
 * being fatal, and the request of the least origin is written.
 *
 * @param c       the combiner; not NULL
 * @param watch   an OR of BSPRAM_WATCH_READS, _WRITES, _VALUES, _DISTINCT
 * @pre           No batch of c is running.
 * @par Errors
 *     Each one line, exit status 1: unknown bits ("bspram:
 *     bspram_combiner_watch(watch=16): unknown bits; valid: an OR of 1
 *     reads, 2 writes, 4 values, 8 distinct"); c NULL ("bspram:
 *     bspram_combiner_watch(c=NULL): c must not be NULL").
 * @par BSP cost
 *     None now; while watching, O(1) per merge of two requests of one cell
 *     (no pass over the requests), and O(R) memory for R merges that
 *     conflicted.
 * @par Thread safety
 *     The host only: between batches.
 */
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
 * then what.
 *
 * Of the pairs that met at a cell the least (label[0], label[1]) is given,
 * so the answer is a pure function of the seed whatever the number of
 * threads or MPI ranks. The list is kept until the next batch. Over MPI
 * every rank calls it alike: it gathers every rank's conflicts.
 *
 * @param c       the combiner; not NULL
 * @param out     receives the first min(count, max) conflicts; may be NULL
 *                when max = 0 (the count only)
 * @param max     the room in out
 * @return        the number of conflicts (which may exceed max)
 * @pre           No batch of c is running.
 * @par Errors
 *     c NULL, or out NULL with max > 0: "bspram:
 *     bspram_combiner_conflicts(out=NULL): out must not be NULL", exit
 *     status 1.
 * @par BSP cost
 *     None: no superstep (over MPI one MPI_Allgatherv). O(R log R) for R
 *     merges that conflicted.
 * @par Thread safety
 *     The host only: after the batch, outside every run of the combiner's
 *     machine.
 */
size_t bspram_combiner_conflicts(bspram_combiner *c, bspram_conflict *out, size_t max);

/* ---- basis choice (combine/strategy.c) ---- */

/* A good basis for p components and an expected degree (0 = unknown).
 *
 * For p = 4096 it follows Valiant's Table 2 (one phase for degree ≤ 8; for
 * a larger degree the row of the largest tabulated degree ≤ it, 16 serving
 * 9..15) and, with no hint, his compromise (32,16,8) of Table 3. For other
 * p: one phase for degree ≤ 8 (or p ≤ 8 with no hint); otherwise a first
 * phase that spreads each group over about degree/8 components (p^(7/12)
 * with no hint, the spread of (32,16,8) at 4096), then phases of radix ≤ 8
 * (a prime factor above 8 makes one phase of its own).
 *
 * @param p           the number of components, ≥ 1
 * @param degree_hint the expected number of requests per address, 0 if
 *                    unknown
 * @return            a basis of product p
 * @pre           None.
 * @par Errors
 *     p = 0: "bspram: bspram_basis_auto(p=0): p must be >= 1", exit status
 *     1. Never fails for p ≥ 1.
 * @par BSP cost
 *     None: local, O(min(p, degree_hint/2 + 4)) to search the divisors of p
 *     (O(p^(7/12)) with no hint).
 * @par Thread safety
 *     Any thread; a pure function.
 */
bspram_basis bspram_basis_auto(uint64_t p, uint64_t degree_hint);

/* The basis the ADAPTIVE strategy runs: 32x16x8 for p = 4096, else
 * bspram_basis_auto(p, 0).
 *
 * @param p       the number of components, ≥ 1
 * @return        a basis of product p
 * @pre           None.
 * @par Errors
 *     p = 0: "bspram: bspram_basis_auto(p=0): p must be >= 1" (the line
 *     names bspram_basis_auto), exit status 1.
 * @par BSP cost
 *     None: local, as bspram_basis_auto.
 * @par Thread safety
 *     Any thread; a pure function.
 */
bspram_basis bspram_basis_adaptive(uint64_t p);

BSPRAM_END_DECLS
#endif
