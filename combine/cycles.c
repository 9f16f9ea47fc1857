/* The simple router and the S*PRAM at the level of cycles, and the
 * combining algorithm on them, bulk-synchronous and asynchronous (Valiant
 * §5; cycles.h). */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "combine/cycles.h"
#include "combine/species.h"
#include "hash/random.h"

typedef struct sim {
    uint64_t p;
    uint64_t *sent, *recv; /* the last cycle each component sent / received in */
    bspram__cycle_msg *pend, *fresh, *tmp, *arr;
    size_t npend, nfresh, narr, cap; /* every list holds at most cap */
    uint64_t clock;  /* cycles so far, over every run (the stamps compare with it) */
    bool sstar;      /* the S*PRAM's delivery instead of the simple router's */
    uint64_t sseed;  /* S*PRAM: the back-off draws */
    uint32_t *targeted; /* S*PRAM: transmissions to each component in the cycle */
    uint32_t *ready_count; /* S*PRAM: each sender's ready messages seen in the cycle */
    size_t *chosen;  /* S*PRAM: each sender's draw (an index into pend) */
    uint32_t *senders; /* S*PRAM: the components that transmit in the cycle */
    uint64_t *cycle_of;
    /* the batch (bspram__combine_cycles_batch) */
    const bspram_space *s;
    const bspram_basis *B;
    uint64_t seed;
    bool async;
    uint64_t *seen_key, *seen_tag; /* async: (key, component, phase) met; tag 0 = empty */
    size_t seen_mask;
} sim;

static int by_priority(const void *a, const void *b)
{
    const bspram__cycle_msg *x = a, *y = b;
    if (x->prio != y->prio)
        return x->prio < y->prio ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->phase < y->phase ? -1 : x->phase > y->phase;
}

static int by_holder(const void *a, const void *b)
{
    const bspram__cycle_msg *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static uint64_t priority(const sim *S, unsigned phase, uint64_t src, uint64_t key)
{
    return bspram_random3(S->seed ^ UINT64_C(0x6379636c6573), phase, src, key);
}

/* Where component u sends key in phase i (forward.c's rule, k drawn per key). */
static uint32_t target(const sim *S, unsigned i, uint64_t u, uint64_t key)
{
    uint64_t H = bspram_hashed_owner(S->s, bspram__key_address(key));
    if (i >= S->B->m)
        return (uint32_t)H;
    uint64_t k = bspram_random_below(S->B->suffix[i], S->seed, i, u, key);
    return (uint32_t)bspram_basis_target(S->B, i, H, k);
}

static bspram__cycle_msg message(const sim *S, unsigned i, uint64_t u, uint64_t key)
{
    return (bspram__cycle_msg){.prio = priority(S, i, u, key), .key = key, .src = (uint32_t)u,
                               .dst = target(S, i, u, key), .phase = i};
}

/* Async: whether (key, u, phase) is met for the first time (and mark it). */
static bool first_meeting(sim *S, uint64_t key, uint64_t u, unsigned phase)
{
    uint64_t tag = (u << 8 | phase) + 1;
    size_t h = (size_t)(bspram_random2(key, tag, 0) & S->seen_mask);
    for (;; h = (h + 1) & S->seen_mask) {
        if (!S->seen_tag[h]) {
            S->seen_tag[h] = tag;
            S->seen_key[h] = key;
            return true;
        }
        if (S->seen_tag[h] == tag && S->seen_key[h] == key)
            return false;
    }
}

static void arrive(sim *S, const bspram__cycle_msg *m, uint64_t cycle)
{
    if (S->cycle_of)
        S->cycle_of[m->index] = cycle;
    if (!S->B || m->phase >= S->B->m)
        return; /* a lone pattern, or at H(t): arrived */
    if (!S->async) {
        S->arr[S->narr++] = *m; /* held at m->dst for the next phase */
        return;
    }
    /* §5: the first of its key here in the next phase goes on at once. */
    if (first_meeting(S, m->key, m->dst, m->phase + 1))
        S->fresh[S->nfresh++] = message(S, m->phase + 1, m->dst, m->key);
}

/* One cycle of the S*PRAM (Valiant §5, after [15]): every component with
 * a message ready transmits one of them, drawn uniformly (seeded by the
 * cycle and the component); a component targeted by exactly one
 * transmission receives it, and the others fail (their senders learn it at
 * once). The retry rule, binary exponential back-off: after its j-th
 * failure a message waits a number of cycles drawn uniformly from
 * [0, 2^min(j, 12)) (seeded by the message and j) before it is ready
 * again — contention among a few senders clears in a cycle or two, a hot
 * spot of many in about as many cycles as it has senders. Any schedule
 * needs max(q, r) cycles here too: a component sends and receives at most
 * one message per cycle. */
static void sstar_cycle(sim *S, uint64_t cycle, uint64_t start)
{
    size_t ns = 0;
    for (size_t j = 0; j < S->npend; j++) { /* each sender's draw, by reservoir sampling */
        const bspram__cycle_msg *m = &S->pend[j];
        if (m->ready > cycle)
            continue;
        if (S->sent[m->src] != cycle) {
            S->sent[m->src] = cycle;
            S->ready_count[m->src] = 1;
            S->chosen[m->src] = j;
            S->senders[ns++] = m->src;
        } else {
            uint32_t seen = ++S->ready_count[m->src];
            if (bspram_random_below(seen, S->sseed, cycle, m->src, seen) == 0)
                S->chosen[m->src] = j;
        }
    }
    for (size_t c = 0; c < ns; c++) {
        const bspram__cycle_msg *m = &S->pend[S->chosen[S->senders[c]]];
        if (S->recv[m->dst] != cycle) {
            S->recv[m->dst] = cycle;
            S->targeted[m->dst] = 0;
        }
        S->targeted[m->dst]++;
    }
    for (size_t c = 0; c < ns; c++) {
        bspram__cycle_msg *m = &S->pend[S->chosen[S->senders[c]]];
        if (S->targeted[m->dst] == 1) {
            arrive(S, m, cycle - start);
            m->ready = UINT64_MAX; /* delivered: dropped below */
            continue;
        }
        m->fails++;
        unsigned e = m->fails < 12 ? m->fails : 12;
        m->ready = cycle + 1 + bspram_random_below(UINT64_C(1) << e, S->sseed, m->key, m->src, m->fails);
    }
    size_t k = 0;
    for (size_t j = 0; j < S->npend; j++)
        if (S->pend[j].ready != UINT64_MAX)
            S->pend[k++] = S->pend[j];
    S->npend = k;
}

/* Greedy delivery of what is pending (and, async, of what arrivals add),
 * until nothing is left; returns the cycles. */
static uint64_t run(sim *S)
{
    const uint64_t start = S->clock;
    uint64_t cycle = start;
    while (S->npend || S->nfresh) {
        if (S->nfresh) { /* merge the new messages, in priority order, into the waiting ones */
            qsort(S->fresh, S->nfresh, sizeof *S->fresh, by_priority);
            size_t a = 0, b = 0, o = 0;
            while (a < S->npend || b < S->nfresh)
                S->tmp[o++] = b == S->nfresh || (a < S->npend && by_priority(&S->pend[a], &S->fresh[b]) < 0)
                                  ? S->pend[a++] : S->fresh[b++];
            bspram__cycle_msg *t = S->pend;
            S->pend = S->tmp;
            S->tmp = t;
            S->npend = o;
            S->nfresh = 0;
        }
        cycle++;
        if (S->sstar) {
            sstar_cycle(S, cycle, start);
            continue;
        }
        size_t k = 0;
        for (size_t j = 0; j < S->npend; j++) {
            bspram__cycle_msg m = S->pend[j];
            if (S->sent[m.src] == cycle || S->recv[m.dst] == cycle) {
                S->pend[k++] = m;
                continue;
            }
            S->sent[m.src] = S->recv[m.dst] = cycle;
            arrive(S, &m, cycle - start);
        }
        S->npend = k;
    }
    S->clock = cycle;
    return cycle - start;
}

static void sim_init(sim *S, uint64_t p, size_t cap)
{
    memset(S, 0, sizeof *S);
    S->p = p;
    S->cap = cap ? cap : 1;
    S->sent = bspram__base_calloc(p, sizeof *S->sent, "bspram cycles");
    S->recv = bspram__base_calloc(p, sizeof *S->recv, "bspram cycles");
    S->pend = bspram__base_malloc(S->cap * sizeof *S->pend, "bspram cycles");
    S->fresh = bspram__base_malloc(S->cap * sizeof *S->fresh, "bspram cycles");
    S->tmp = bspram__base_malloc(S->cap * sizeof *S->tmp, "bspram cycles");
}

static void sim_sstar(sim *S, uint64_t seed)
{
    S->sstar = true;
    S->sseed = seed ^ UINT64_C(0x7373746172);
    S->targeted = bspram__base_calloc(S->p, sizeof *S->targeted, "bspram cycles");
    S->chosen = bspram__base_malloc(S->p * sizeof *S->chosen, "bspram cycles");
    S->ready_count = bspram__base_malloc(S->p * sizeof *S->ready_count, "bspram cycles");
    S->senders = bspram__base_malloc(S->p * sizeof *S->senders, "bspram cycles");
}

static void sim_free(sim *S)
{
    free(S->sent);
    free(S->recv);
    free(S->pend);
    free(S->fresh);
    free(S->tmp);
    free(S->arr);
    free(S->seen_key);
    free(S->seen_tag);
    free(S->targeted);
    free(S->chosen);
    free(S->ready_count);
    free(S->senders);
}

uint64_t bspram__combine_cycles_pattern(uint64_t p, bspram__cycle_msg *msgs, size_t n, uint64_t *cycle_of,
                                bool sstar, uint64_t seed)
{
    sim S;
    sim_init(&S, p, n);
    if (sstar)
        sim_sstar(&S, seed);
    if (n) /* msgs may be NULL for n = 0 */
        memcpy(S.fresh, msgs, n * sizeof *msgs);
    S.nfresh = n;
    S.cycle_of = cycle_of;
    uint64_t cycles = run(&S);
    sim_free(&S);
    return cycles;
}

/* The list msgs[0..n) of (holder, key) pairs, sorted, without repeats:
 * what each component holds, combined by key. Returns the new length. */
static size_t combine_by_holder(bspram__cycle_msg *msgs, size_t n)
{
    qsort(msgs, n, sizeof *msgs, by_holder);
    size_t o = 0;
    for (size_t j = 0; j < n; j++)
        if (!o || msgs[j].src != msgs[o - 1].src || msgs[j].key != msgs[o - 1].key)
            msgs[o++] = msgs[j];
    return o;
}

uint64_t bspram__combine_cycles_batch(const bspram_space *s, const bspram_basis *B, const bspram_request *req,
                              const uint64_t *first, uint64_t seed, bool async, bool sstar,
                              uint64_t *per_phase)
{
    uint64_t p = B->p, v = first[p];
    sim S;
    /* Async, the phases' messages wait together: at most v per phase. */
    sim_init(&S, p, (size_t)v * (async ? B->m : 1));
    S.s = s;
    S.B = B;
    S.seed = seed;
    S.async = async;
    if (sstar)
        sim_sstar(&S, seed);
    /* Phase 1: every component's requests, combined by key. */
    bspram__cycle_msg *held = S.fresh;
    for (uint64_t c = 0; c < p; c++)
        for (uint64_t j = first[c]; j < first[c + 1]; j++)
            held[j] = (bspram__cycle_msg){.src = (uint32_t)c, .key = bspram__key(req[j].kind, req[j].address)};
    size_t n = combine_by_holder(held, (size_t)v);
    for (size_t j = 0; j < n; j++)
        held[j] = message(&S, 1, held[j].src, held[j].key);
    S.nfresh = n;
    if (async) {
        size_t cap = 4;
        while (cap < 2 * (size_t)v * B->m)
            cap *= 2;
        S.seen_key = bspram__base_malloc(cap * sizeof *S.seen_key, "bspram cycles");
        S.seen_tag = bspram__base_calloc(cap, sizeof *S.seen_tag, "bspram cycles");
        S.seen_mask = cap - 1;
        uint64_t cycles = run(&S);
        sim_free(&S);
        return cycles;
    }
    /* Bulk-synchronous: one phase after another, each a lone pattern. */
    S.arr = bspram__base_malloc(S.cap * sizeof *S.arr, "bspram cycles");
    uint64_t total = 0;
    for (unsigned i = 1; i <= B->m; i++) {
        S.narr = 0;
        uint64_t c = run(&S);
        total += c;
        if (per_phase)
            per_phase[i] = c;
        if (i == B->m)
            break;
        for (size_t j = 0; j < S.narr; j++)
            S.arr[j].src = S.arr[j].dst; /* now held there */
        n = combine_by_holder(S.arr, S.narr);
        for (size_t j = 0; j < n; j++)
            S.fresh[j] = message(&S, i + 1, S.arr[j].src, S.arr[j].key);
        S.nfresh = n;
    }
    sim_free(&S);
    return total;
}
