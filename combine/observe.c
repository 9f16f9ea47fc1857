/* The OBSERVE strategy's observation (combine.h): before phase 1 the
 * components learn the degree of the batch, then run the basis that
 * bspram_basis_auto chooses for it.
 *
 * Valiant §4 (Table 3) asks for a basis when the degree is unknown; his
 * compromise (32,16,8) costs up to 3.5 because a first phase that suits
 * degree 4096 wastes itself at degree 16 and one that suits degree 16
 * overloads the components at degree 4096. Here the components measure the
 * degree first, in supersteps that the router charges like any other:
 *
 *   sketch   every component keeps the K least values of a hash g(t) over
 *            the keys t (species and address) of its requests, each with
 *            the number of its requests that have that key — a bottom-K
 *            sketch with counts, K = 4, 32 bytes, the size of a request's
 *            wire record;
 *   merge    two sketches of disjoint sets of components merge into the
 *            sketch of their union: the K least hashes of both, the counts
 *            of a hash present in both added. A key among the K least of
 *            the union is among the K least of each part that holds it, so
 *            its count is exact: the number of requests on that key in the
 *            whole batch;
 *   reduce   recursive doubling: in superstep j, component c < P2 (P2 the
 *            largest power of two ≤ p) exchanges with c XOR 2^(j−1); when
 *            p > P2 the components from P2 on first fold into c − P2 and
 *            get the result back after. Every superstep sends and receives
 *            at most one message per component, so each is charged 1:
 *            ⌈log2 p⌉ in all (+2 when p is not a power of two), 12 at
 *            p = 4096, i.e. 0.22 of Valiant's baseline of 54.4.
 *
 * The K keys of the global sketch are a uniform sample of the distinct keys
 * (g is a hash drawn per batch), and their counts are their degrees: the
 * estimate is their mean, exact for Valiant's patterns, where every address
 * has the same degree. A few hot addresses among many cold ones are rarely
 * sampled: the cold degree then decides (a limit: the sample is of
 * addresses, not of requests). */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "combine/engine_internal.h"
#include "hash/random.h"
#include "bsp/machine_internal.h"

#define EMPTY UINT64_MAX /* an unused entry: its hash (the high 32 bits) is above every key's */

/* An entry is hash << 32 | count; hashes are 31 bits, so EMPTY sorts last. */
static inline uint64_t entry_hash(uint64_t e) { return e >> 32; }
static inline uint64_t entry_count(uint64_t e) { return e & 0xffffffffu; }

static uint64_t entry(uint64_t hash, uint64_t count)
{
    return hash << 32 | (count < 0xffffffffu ? count : 0xffffffffu);
}

/* Put (hash, count) into the sorted sketch s, adding to an equal hash. */
static void insert(uint64_t s[BSPRAM__SKETCH_K], uint64_t hash, uint64_t count)
{
    for (unsigned i = 0; i < BSPRAM__SKETCH_K; i++) {
        if (s[i] != EMPTY && entry_hash(s[i]) == hash) {
            s[i] = entry(hash, entry_count(s[i]) + count);
            return;
        }
        if (s[i] == EMPTY || entry_hash(s[i]) > hash) {
            memmove(&s[i + 1], &s[i], (BSPRAM__SKETCH_K - 1 - i) * sizeof *s);
            s[i] = entry(hash, count);
            return;
        }
    }
}

static void merge(uint64_t s[BSPRAM__SKETCH_K], const uint64_t *other)
{
    for (unsigned i = 0; i < BSPRAM__SKETCH_K && other[i] != EMPTY; i++)
        insert(s, entry_hash(other[i]), entry_count(other[i]));
}

/* Component c's own sketch, from its requests. */
static void own_sketch(const bspram_combiner *C, const batch_state *b, uint64_t c)
{
    uint64_t *s = C->cs[c].sketch;
    for (unsigned i = 0; i < BSPRAM__SKETCH_K; i++)
        s[i] = EMPTY;
    const bspram_batch_part part = bspram__batch_part(b, c);
    for (uint64_t j = 0, slots = bspram__batch_part_slots(&part); j < slots; j++) {
        if (bspram__batch_part_gap(&part, j))
            continue;
        const bspram_request r = bspram__batch_part_slot(&part, j);
        insert(s, bspram_random2(b->seed, UINT64_C(0x6f627365727665), bspram__key(r.kind, r.address)) >> 33, 1);
    }
}

/* The supersteps of the reduction: a fold (if p > P2), log2 P2 exchanges,
 * an unfold (if p > P2). */
typedef enum { FOLD, EXCHANGE, UNFOLD } role;

typedef struct plan {
    uint64_t p, P2;
    unsigned steps, log2;
} plan;

static plan plan_of(uint64_t p)
{
    plan pl = {p, 1, 0, 0};
    while (pl.P2 * 2 <= p) {
        pl.P2 *= 2;
        pl.log2++;
    }
    pl.steps = pl.log2 + (p > pl.P2 ? 2 : 0);
    return pl;
}

/* Superstep i (1-based) of the plan: its role and, for EXCHANGE, the bit. */
static role role_of(const plan *pl, unsigned i, uint64_t *bit)
{
    unsigned first = pl->p > pl->P2 ? 2 : 1;
    if (pl->p > pl->P2 && i == 1)
        return FOLD;
    if (i - first < pl->log2) {
        *bit = UINT64_C(1) << (i - first);
        return EXCHANGE;
    }
    return UNFOLD;
}

/* What a message delivered by superstep i does to the receiver's sketch. */
static void absorb(const bspram_combiner *C, uint64_t c, const plan *pl, unsigned i,
                   const bspram_message *msgs, size_t k)
{
    uint64_t bit;
    role r = role_of(pl, i, &bit);
    for (size_t j = 0; j < k; j++) {
        uint64_t other[BSPRAM__SKETCH_K];
        memcpy(other, msgs[j].data, sizeof other);
        if (r == UNFOLD) /* the whole machine's sketch: take it */
            memcpy(C->cs[c].sketch, other, sizeof other);
        else
            merge(C->cs[c].sketch, other);
    }
}

typedef struct step_arg {
    bspram_combiner *C;
    plan pl;
    unsigned i;
} step_arg;

static bool observe_step(bspram_component *self, void *arg)
{
    const step_arg *a = arg;
    uint64_t c = bspram_pid(self), bit = 0, dest;
    if (a->i > 1) {
        const bspram_message *msgs;
        size_t k = bspram_inbox(self, &msgs);
        absorb(a->C, c, &a->pl, a->i - 1, msgs, k);
    }
    switch (role_of(&a->pl, a->i, &bit)) {
    case FOLD:
        if (c < a->pl.P2)
            return false;
        dest = c - a->pl.P2;
        break;
    case EXCHANGE:
        if (c >= a->pl.P2)
            return false;
        dest = c ^ bit;
        break;
    default:
        if (c >= a->pl.p - a->pl.P2)
            return false;
        dest = c + a->pl.P2;
        break;
    }
    memcpy(bspram_send_buffer(self, dest, sizeof a->C->cs[c].sketch), a->C->cs[c].sketch,
           sizeof a->C->cs[c].sketch);
    return false;
}

/* The degree estimate of a sketch: its counts' mean, rounded (1 if empty). */
static uint64_t estimate(const uint64_t *s)
{
    uint64_t sum = 0, n = 0;
    for (unsigned i = 0; i < BSPRAM__SKETCH_K && s[i] != EMPTY; i++) {
        sum += entry_count(s[i]);
        n++;
    }
    return n && sum >= n ? (sum + n / 2) / n : 1;
}

unsigned bspram__combine_observe(bspram_team *t, bspram_combiner *C, batch_state *b,
                                 void (*label)(bspram_team *, unsigned))
{
    const uint64_t lo = bspram__bsp_team_first(t), hi = bspram__bsp_team_end(t);
    for (uint64_t c = lo; c < hi; c++)
        own_sketch(C, b, c);
    step_arg a = {C, plan_of(C->p), 0};
    for (a.i = 1; a.i <= a.pl.steps; a.i++) {
        label(t, a.i);
        bspram__bsp_team_each(t, observe_step, &a);
        bspram__bsp_team_exchange(t, 0);
    }
    /* The last observation superstep's messages; without observation
     * supersteps the inbox is not theirs (the last batch's, read and
     * released by it), and is not read. */
    for (uint64_t c = lo; c < hi && a.pl.steps; c++) {
        const bspram_message *msgs;
        size_t k = bspram__bsp_team_inbox(t, c, &msgs);
        absorb(C, c, &a.pl, a.pl.steps, msgs, k);
    }
    /* Every component now holds the same sketch; a lane without components
     * (T > p) learns the estimate from the others: the largest of the lanes'
     * (0 from an empty lane) is every lane's. */
    uint64_t mine = lo < hi ? estimate(C->cs[lo].sketch) : 0, all = 0;
    const bool lead = bspram__bsp_team_leads(t);
    const int T = bspram_machine_threads(C->m);
    uint64_t *each = lead ? bspram__base_malloc((size_t)T * sizeof *each, "bspram_combine") : NULL;
    bspram__bsp_team_gather(t, &mine, sizeof mine, each);
    if (lead) {
        for (int l = 0; l < T; l++)
            all = each[l] > all ? each[l] : all;
        C->observed = all;
        free(each);
    }
    bspram__bsp_team_barrier(t);
    b->observed = C->observed;
    b->basis = bspram_basis_auto(C->p, b->observed);
    b->m_phases = b->basis.m;
    return a.pl.steps;
}
