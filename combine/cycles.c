/* The simple router and the S*PRAM at the level of cycles, and the
 * combining algorithm on them, bulk-synchronous and asynchronous (Valiant
 * §5; cycles.h). */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "combine/cycles.h"
#include "combine/species.h"
#include "hash/random.h"

/* A waiting message as the delivery scans it: its priority and ends, and
 * its slot in the store of whole messages (sim.all). Half the bytes of a
 * message, so the per-cycle scan and the merges move half as much (the
 * scan over every waiting message is most of the model's time). */
typedef struct waiting {
    uint64_t prio;
    uint32_t src, dst, slot;
} waiting;

/* Answers (the reverse flow) carry this bit in their phase: the answer to
 * a forward message of phase i has phase BACK | i. */
#define BACK UINT32_C(0x80000000)
#define NO_SOURCE UINT32_MAX
#define DELIVERED UINT32_MAX /* in waiting.src: gone this cycle */

typedef struct sim {
    uint64_t p;
    uint64_t *sent, *recv; /* the last cycle each component sent / received in */
    waiting *pend, *wtmp, *wfresh; /* waiting, in priority order; merge room; new ones */
    waiting *pbuf;   /* the buffer pend points into (the scan drops its delivered head) */
    uint32_t *nsrc_waiting, *ndst_waiting; /* simple router: waiting messages per source /
                                              destination */
    size_t active_src, active_dst; /* the sources / destinations with a waiting message */
    bspram__cycle_msg *fresh, *arr, *all; /* new messages; sync arrivals; the store */
    size_t npend, nfresh, narr, nall, cap; /* every list holds at most cap */
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
    bool answers;    /* some key is a READ or FETCH: the reverse flow runs */
    struct seen { uint64_t key, tag; } *seen; /* async: (key, component, phase) met; tag 0 =
                                                  empty (one line per probe, not two) */
    uint32_t *seen_head; /* async answers: its sources waiting for the answer, a list
                            through src_next; ANSWERED once the answer has come */
    uint32_t *src_comp, *src_next; /* async answers: the stored sources (Valiant §2) */
    size_t nsrc;
    size_t seen_mask;
    size_t *count;   /* the counting sorts' buckets: max(p, 2^16) + 1 */
    bspram__cycle_msg *mtmp; /* combine_by_holder's room */
} sim;

#define ANSWERED (UINT32_MAX - 1)

static int by_priority(const void *a, const void *b)
{
    const waiting *x = a, *y = b;
    if (x->prio != y->prio)
        return x->prio < y->prio ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot; /* slots are given in a fixed order */
}

static uint64_t priority(const sim *S, unsigned phase, uint64_t src, uint64_t key)
{
    return bspram_random3(S->seed ^ UINT64_C(0x6379636c6573), phase, src, key);
}

static bool needs_answer(uint64_t key) { return bspram__answers(bspram__key_kind(key)); }

/* Where component u sends key in phase i (forward.c's rule, k drawn per key);
 * H is the key's owner. */
static uint32_t target(const sim *S, unsigned i, uint64_t u, uint64_t key, uint64_t H)
{
    if (i >= S->B->m)
        return (uint32_t)H;
    uint64_t k = bspram_random_below(S->B->suffix[i], S->seed, i, u, key);
    return (uint32_t)bspram_basis_target(S->B, i, H, k);
}

static bspram__cycle_msg message(const sim *S, unsigned i, uint64_t u, uint64_t key, uint32_t H)
{
    return (bspram__cycle_msg){.prio = priority(S, i, u, key), .key = key, .src = (uint32_t)u,
                               .dst = target(S, i, u, key, H), .phase = i, .owner = H};
}

/* The answer to forward message m (phase i): back from m's destination to
 * its source. Its priority also draws on the destination: one component
 * answers several sources for one key in one phase. */
static bspram__cycle_msg answer(const sim *S, unsigned i, uint32_t from, uint32_t to, uint64_t key)
{
    return (bspram__cycle_msg){.prio = priority(S, BACK | i, (uint64_t)to << 32 | from, key), .key = key,
                               .src = from, .dst = to, .phase = BACK | i};
}

/* Async: the entry of (key, u, phase), made if new (*is_new says so). */
static size_t meeting(sim *S, uint64_t key, uint64_t u, unsigned phase, bool *is_new)
{
    uint64_t tag = (u << 8 | phase) + 1;
    size_t h = (size_t)(bspram_random2(key, tag, 0) & S->seen_mask);
    for (;; h = (h + 1) & S->seen_mask) {
        if (!S->seen[h].tag) {
            S->seen[h].tag = tag;
            S->seen[h].key = key;
            if (S->seen_head)
                S->seen_head[h] = NO_SOURCE;
            *is_new = true;
            return h;
        }
        if (S->seen[h].tag == tag && S->seen[h].key == key) {
            *is_new = false;
            return h;
        }
    }
}

/* Async: an answer for key has come back to component u, which sent key in
 * phase i; u answers the sources it stored for it (§2), and from now on
 * any later arrival at once. Phase 1's sources are u's own requests. */
static void answer_arrives(sim *S, uint64_t key, uint32_t u, unsigned i)
{
    if (i == 1)
        return;
    bool is_new;
    size_t h = meeting(S, key, u, i, &is_new);
    for (uint32_t j = S->seen_head[h]; j != NO_SOURCE; j = S->src_next[j])
        S->fresh[S->nfresh++] = answer(S, i - 1, u, S->src_comp[j], key);
    S->seen_head[h] = ANSWERED;
}

static void arrive(sim *S, const bspram__cycle_msg *m, uint64_t cycle)
{
    if (S->cycle_of)
        S->cycle_of[m->index] = cycle;
    if (!S->B)
        return; /* a lone pattern */
    if (m->phase & BACK) { /* an answer (bulk-synchronously its phase is a lone pattern) */
        if (S->async)
            answer_arrives(S, m->key, m->dst, m->phase & ~BACK);
        return;
    }
    const bool answers = S->answers && needs_answer(m->key);
    if (m->phase >= S->B->m) { /* at H(t): the owner answers at once (async) */
        if (S->async && answers)
            S->fresh[S->nfresh++] = answer(S, m->phase, m->dst, m->src, m->key);
        return;
    }
    if (!S->async) {
        S->arr[S->narr++] = *m; /* held at m->dst for the next phase */
        return;
    }
    /* §5: the first of its key here in the next phase goes on at once. */
    bool is_new;
    size_t h = meeting(S, m->key, m->dst, m->phase + 1, &is_new);
    if (is_new)
        S->fresh[S->nfresh++] = message(S, m->phase + 1, m->dst, m->key, m->owner);
    if (!answers)
        return;
    if (S->seen_head[h] == ANSWERED) { /* the answer is here already */
        S->fresh[S->nfresh++] = answer(S, m->phase, m->dst, m->src, m->key);
        return;
    }
    S->src_comp[S->nsrc] = m->src; /* stored until the answer comes (§2) */
    S->src_next[S->nsrc] = S->seen_head[h];
    S->seen_head[h] = (uint32_t)S->nsrc++;
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
        const waiting *w = &S->pend[j];
        if (S->all[w->slot].ready > cycle)
            continue;
        if (S->sent[w->src] != cycle) {
            S->sent[w->src] = cycle;
            S->ready_count[w->src] = 1;
            S->chosen[w->src] = j;
            S->senders[ns++] = w->src;
        } else {
            uint32_t seen = ++S->ready_count[w->src];
            if (bspram_random_below(seen, S->sseed, cycle, w->src, seen) == 0)
                S->chosen[w->src] = j;
        }
    }
    for (size_t c = 0; c < ns; c++) {
        const waiting *w = &S->pend[S->chosen[S->senders[c]]];
        if (S->recv[w->dst] != cycle) {
            S->recv[w->dst] = cycle;
            S->targeted[w->dst] = 0;
        }
        S->targeted[w->dst]++;
    }
    for (size_t c = 0; c < ns; c++) {
        bspram__cycle_msg *m = &S->all[S->pend[S->chosen[S->senders[c]]].slot];
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
        if (S->all[S->pend[j].slot].ready != UINT64_MAX)
            S->pend[k++] = S->pend[j];
    S->npend = k;
}

/* Sort w[0..n) by priority (by_priority's order) without qsort: the
 * priorities are uniform random 64-bit draws, so a counting sort on their
 * top bits (about one bucket per two messages) leaves buckets of a few,
 * finished by insertion. Linear time where qsort was most of the model's
 * (perf, bspram table --schedule cycles-sync). Uses S->wtmp. */
static void sort_by_priority(sim *S, waiting *w, size_t n)
{
    unsigned b = 1;
    while (b < 16 && (size_t)1 << (b + 1) <= n)
        b++;
    size_t nb = (size_t)1 << b, *count = S->count;
    if (n >= 64) {
        memset(count, 0, (nb + 1) * sizeof *count);
        for (size_t j = 0; j < n; j++)
            count[(w[j].prio >> (64 - b)) + 1]++;
        for (size_t k = 0; k < nb; k++)
            count[k + 1] += count[k];
        for (size_t j = 0; j < n; j++)
            S->wtmp[count[w[j].prio >> (64 - b)]++] = w[j];
        memcpy(w, S->wtmp, n * sizeof *w);
    }
    for (size_t j = 1; j < n; j++) { /* insertion: a few per bucket (all, for n < 64) */
        waiting x = w[j];
        size_t k = j;
        for (; k > 0 && by_priority(&w[k - 1], &x) > 0; k--)
            w[k] = w[k - 1];
        w[k] = x;
    }
}

/* Greedy delivery of what is pending (and, async, of what arrivals add),
 * until nothing is left; returns the cycles. */
static uint64_t run(sim *S)
{
    const uint64_t start = S->clock;
    uint64_t cycle = start;
    S->nall = 0; /* nothing waits: the store starts again */
    while (S->npend || S->nfresh) {
        if (S->nfresh) { /* merge the new messages, in priority order, into the waiting ones */
            for (size_t j = 0; j < S->nfresh; j++) {
                S->all[S->nall] = S->fresh[j];
                S->wfresh[j] = (waiting){.prio = S->fresh[j].prio, .src = S->fresh[j].src,
                                         .dst = S->fresh[j].dst, .slot = (uint32_t)S->nall++};
            }
            sort_by_priority(S, S->wfresh, S->nfresh);
            size_t a = 0, b = 0, o = 0;
            while (a < S->npend && b < S->nfresh)
                S->wtmp[o++] = by_priority(&S->pend[a], &S->wfresh[b]) < 0 ? S->pend[a++] : S->wfresh[b++];
            if (a < S->npend)
                memcpy(S->wtmp + o, S->pend + a, (S->npend - a) * sizeof *S->wtmp);
            if (b < S->nfresh)
                memcpy(S->wtmp + o, S->wfresh + b, (S->nfresh - b) * sizeof *S->wtmp);
            waiting *t = S->pbuf;
            S->pend = S->pbuf = S->wtmp;
            S->wtmp = t;
            S->npend += S->nfresh;
            if (!S->sstar)
                for (size_t j = 0; j < S->nfresh; j++) {
                    S->active_src += S->nsrc_waiting[S->wfresh[j].src]++ == 0;
                    S->active_dst += S->ndst_waiting[S->wfresh[j].dst]++ == 0;
                }
            S->nfresh = 0;
        }
        cycle++;
        if (S->sstar) {
            sstar_cycle(S, cycle, start);
            continue;
        }
        /* In priority order, each message whose source and destination are
         * free this cycle goes. Once every source (or destination) with a
         * waiting message has been used, the rest must wait: the scan stops
         * there (a hot spot of k messages no longer costs k scans of the
         * whole list per cycle), and only the scanned head is compacted —
         * its waiting messages moved up against the unscanned tail. */
        uint64_t *sent = S->sent, *recv = S->recv;
        waiting *P = S->pend;
        const size_t n = S->npend, all_src = S->active_src, all_dst = S->active_dst;
        size_t j = 0, served = 0;
        for (; j < n && served < all_src && served < all_dst; j++) {
            const waiting w = P[j];
            if (sent[w.src] == cycle || recv[w.dst] == cycle)
                continue;
            sent[w.src] = recv[w.dst] = cycle;
            served++;
            S->active_src -= --S->nsrc_waiting[w.src] == 0;
            S->active_dst -= --S->ndst_waiting[w.dst] == 0;
            P[j].src = DELIVERED;
            arrive(S, &S->all[w.slot], cycle - start);
        }
        size_t k = j;
        for (size_t i = j; i-- > 0;)
            if (P[i].src != DELIVERED)
                P[--k] = P[i];
        S->pend = P + k;
        S->npend = n - k;
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
    S->pend = S->pbuf = bspram__base_malloc(S->cap * sizeof *S->pend, "bspram cycles");
    S->nsrc_waiting = bspram__base_calloc(p, sizeof *S->nsrc_waiting, "bspram cycles");
    S->ndst_waiting = bspram__base_calloc(p, sizeof *S->ndst_waiting, "bspram cycles");
    S->wtmp = bspram__base_malloc(S->cap * sizeof *S->wtmp, "bspram cycles");
    S->wfresh = bspram__base_malloc(S->cap * sizeof *S->wfresh, "bspram cycles");
    S->fresh = bspram__base_malloc(S->cap * sizeof *S->fresh, "bspram cycles");
    S->all = bspram__base_malloc(S->cap * sizeof *S->all, "bspram cycles");
    S->count = bspram__base_malloc(((p > 65536 ? p : 65536) + 1) * sizeof *S->count, "bspram cycles");
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
    free(S->pbuf);
    free(S->nsrc_waiting);
    free(S->ndst_waiting);
    free(S->wtmp);
    free(S->wfresh);
    free(S->fresh);
    free(S->all);
    free(S->arr);
    free(S->seen);
    free(S->seen_head);
    free(S->src_comp);
    free(S->src_next);
    free(S->targeted);
    free(S->chosen);
    free(S->ready_count);
    free(S->senders);
    free(S->count);
    free(S->mtmp);
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

static int by_key(const void *a, const void *b)
{
    const bspram__cycle_msg *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The list msgs[0..n) of (holder, key) pairs, sorted by holder and then key, without
 * repeats: what each component holds, combined by key. A counting sort by
 * holder (p buckets), then each holder's few by key. Returns the new
 * length. */
static size_t combine_by_holder(sim *S, bspram__cycle_msg *msgs, size_t n)
{
    size_t *count = S->count;
    memset(count, 0, (S->p + 1) * sizeof *count);
    for (size_t j = 0; j < n; j++)
        count[msgs[j].src + 1]++;
    for (uint64_t c = 0; c < S->p; c++)
        count[c + 1] += count[c];
    for (size_t j = 0; j < n; j++)
        S->mtmp[count[msgs[j].src]++] = msgs[j];
    size_t o = 0, lo = 0;
    for (uint64_t c = 0; c < S->p; c++) { /* count[c] is now the end of holder c's */
        bspram__cycle_msg *g = S->mtmp + lo;
        size_t k = count[c] - lo;
        if (k > 16)
            qsort(g, k, sizeof *g, by_key);
        else
            for (size_t j = 1; j < k; j++) {
                bspram__cycle_msg x = g[j];
                size_t i = j;
                for (; i > 0 && g[i - 1].key > x.key; i--)
                    g[i] = g[i - 1];
                g[i] = x;
            }
        for (size_t j = 0; j < k; j++)
            if (j == 0 || g[j].key != g[j - 1].key)
                msgs[o++] = g[j];
        lo = count[c];
    }
    return o;
}

uint64_t bspram__combine_cycles_batch(const bspram_space *s, const bspram_basis *B, const bspram_request *req,
                              const uint64_t *first, uint64_t seed, bool async, bool sstar,
                              uint64_t *per_phase)
{
    uint64_t p = B->p, v = first[p];
    bool answers = false;
    for (uint64_t j = 0; j < v && !answers; j++)
        answers = bspram__answers(req[j].kind);
    sim S;
    /* At most v messages per phase (one per request at most), each answered
     * once with the reverse flow; async, they may all wait together. */
    const size_t per = (size_t)v * (answers ? 2 : 1);
    sim_init(&S, p, async ? per * B->m : per);
    S.s = s;
    S.B = B;
    S.seed = seed;
    S.async = async;
    S.answers = answers;
    if (sstar)
        sim_sstar(&S, seed);
    S.mtmp = bspram__base_malloc(S.cap * sizeof *S.mtmp, "bspram cycles");
    /* Phase 1: every component's requests, combined by key. */
    bspram__cycle_msg *held = S.fresh;
    for (uint64_t c = 0; c < p; c++)
        for (uint64_t j = first[c]; j < first[c + 1]; j++)
            held[j] = (bspram__cycle_msg){.src = (uint32_t)c, .key = bspram__key(req[j].kind, req[j].address)};
    size_t n = combine_by_holder(&S, held, (size_t)v);
    for (size_t j = 0; j < n; j++)
        held[j] = message(&S, 1, held[j].src, held[j].key,
                          (uint32_t)bspram_hashed_owner(s, bspram__key_address(held[j].key)));
    S.nfresh = n;
    if (async) {
        size_t cap = 4; /* at most v (key, component) pairs met per phase 2..m: load ≤ 1/2 */
        while (cap < 2 * (size_t)v * B->m)
            cap *= 2;
        S.seen = bspram__base_calloc(cap, sizeof *S.seen, "bspram cycles");
        S.seen_mask = cap - 1;
        if (answers) {
            S.seen_head = bspram__base_malloc(cap * sizeof *S.seen_head, "bspram cycles");
            S.src_comp = bspram__base_malloc((size_t)v * B->m * sizeof *S.src_comp, "bspram cycles");
            S.src_next = bspram__base_malloc((size_t)v * B->m * sizeof *S.src_next, "bspram cycles");
        }
        uint64_t cycles = run(&S);
        sim_free(&S);
        return cycles;
    }
    /* Bulk-synchronous: one phase after another, each a lone pattern; with
     * answers, each phase's messages are kept for the reverse flow. */
    S.arr = bspram__base_malloc(S.cap * sizeof *S.arr, "bspram cycles");
    bspram__cycle_msg *kept = answers ? bspram__base_malloc((size_t)v * B->m * sizeof *kept, "bspram cycles")
                                      : NULL;
    size_t kept_first[BSPRAM_MAX_PHASES + 2] = {0};
    uint64_t total = 0;
    for (unsigned i = 1; i <= B->m; i++) {
        if (kept) {
            memcpy(kept + kept_first[i], S.fresh, S.nfresh * sizeof *kept);
            kept_first[i + 1] = kept_first[i] + S.nfresh;
        }
        S.narr = 0;
        uint64_t c = run(&S);
        total += c;
        if (per_phase)
            per_phase[i] = c;
        if (i == B->m)
            break;
        for (size_t j = 0; j < S.narr; j++)
            S.arr[j].src = S.arr[j].dst; /* now held there */
        n = combine_by_holder(&S, S.arr, S.narr);
        for (size_t j = 0; j < n; j++)
            S.fresh[j] = message(&S, i + 1, S.arr[j].src, S.arr[j].key, S.arr[j].owner);
        S.nfresh = n;
    }
    /* The reverse flow (§2): phase m's answers first, down to phase 1's,
     * each phase's forward messages answered along their own edges. */
    for (unsigned i = B->m; kept && i >= 1; i--) {
        n = 0;
        for (size_t j = kept_first[i]; j < kept_first[i + 1]; j++)
            if (needs_answer(kept[j].key))
                S.fresh[n++] = answer(&S, i, kept[j].dst, kept[j].src, kept[j].key);
        S.nfresh = n;
        total += run(&S);
    }
    free(kept);
    sim_free(&S);
    return total;
}
