/* Stable dimension permutations (bsp_sdp.h): layouts, permutations, their
 * cycles, the call, the formulas and the selection. The algorithms are one
 * file each (sdp_a1.c, sdp_a1a.c, sdp_a2.c, sdp_a3.c); this file checks the
 * arguments, applies the virtual cycles locally (Ho & Johnsson 1988, §2:
 * a virtual GSH only changes the local address map), and hands an algorithm
 * the real cycles as a permutation of the processor dimensions. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "bsp/params.h"
#include "coll/sdp_internal.h"

/* ---- layouts and permutations (pure) ---- */

static void check_dims(const char *call, unsigned n, unsigned m, bsp_size_t elem)
{
    if (n > m || m > BSP_SDP_MAX_DIMS)
        bspram__base_fatal("%s(n=%u, m=%u, elem=%zu): need n ≤ m ≤ %u", call, n, m, elem,
                     BSP_SDP_MAX_DIMS);
}

bsp_sdp_layout bsp_sdp_cyclic(unsigned n, unsigned m, bsp_size_t elem)
{
    check_dims("bsp_sdp_cyclic", n, m, elem);
    bsp_sdp_layout L = {.m = m, .elem = elem};
    for (unsigned i = 0; i < m; i++)
        L.pi[i] = (unsigned char)i;
    return L;
}

bsp_sdp_layout bsp_sdp_consecutive(unsigned n, unsigned m, bsp_size_t elem)
{
    check_dims("bsp_sdp_consecutive", n, m, elem);
    bsp_sdp_layout L = {.m = m, .elem = elem};
    for (unsigned i = 0; i < m; i++) /* the n highest logic dimensions on the processor */
        L.pi[i] = (unsigned char)(i >= m - n ? i - (m - n) : n + i);
    return L;
}

bsp_sdp_perm bsp_sdp_identity(unsigned m)
{
    if (m > BSP_SDP_MAX_DIMS)
        bspram__base_fatal("bsp_sdp_identity(m=%u): m is above %u", m, BSP_SDP_MAX_DIMS);
    bsp_sdp_perm d = {.m = m};
    for (unsigned i = 0; i < m; i++)
        d.delta[i] = (unsigned char)i;
    return d;
}

static bsp_sdp_perm range(const char *call, unsigned m, unsigned first, unsigned order)
{
    if (m > BSP_SDP_MAX_DIMS || first > m || order > m - first)
        bspram__base_fatal("%s(m=%u, first=%u, order=%u): the dimensions [first, first + order) must "
                     "lie in [0, m), m ≤ %u", call, m, first, order, BSP_SDP_MAX_DIMS);
    return bsp_sdp_identity(m);
}

bsp_sdp_perm bsp_sdp_shuffle(unsigned m, unsigned first, unsigned order, int k)
{
    bsp_sdp_perm d = range("bsp_sdp_shuffle", m, first, order);
    if (order == 0)
        return d;
    unsigned s = (unsigned)(((long)k % (long)order + (long)order) % (long)order);
    for (unsigned j = 0; j < order; j++) /* δ(j) = j + k: a left rotation by k */
        d.delta[first + j] = (unsigned char)(first + (j + s) % order);
    return d;
}

bsp_sdp_perm bsp_sdp_bit_reversal(unsigned m, unsigned first, unsigned order)
{
    bsp_sdp_perm d = range("bsp_sdp_bit_reversal", m, first, order);
    for (unsigned j = 0; j < order; j++)
        d.delta[first + j] = (unsigned char)(first + order - 1 - j);
    return d;
}

bsp_sdp_perm bsp_sdp_transpose(unsigned m, unsigned first, unsigned order)
{
    range("bsp_sdp_transpose", m, first, order);
    if (order % 2)
        bspram__base_fatal("bsp_sdp_transpose(m=%u, first=%u, order=%u): a 2^(order/2) × 2^(order/2) "
                     "block matrix needs an even order", m, first, order);
    bsp_sdp_perm d = bsp_sdp_shuffle(m, first, order, (int)(order / 2)); /* the halves swapped */
    return d;
}

/* ---- cycles ---- */

/* Why a layout or δ is not valid, or NULL. */
static const char *invalid(unsigned n, const bsp_sdp_layout *L, const bsp_sdp_perm *d)
{
    static _Thread_local char why[160];
    if (L->m < n || L->m > BSP_SDP_MAX_DIMS) {
        snprintf(why, sizeof why, "m = %u must lie in [n, %u] (n = %u)", L->m, BSP_SDP_MAX_DIMS, n);
        return why;
    }
    if (d->m != L->m) {
        snprintf(why, sizeof why, "the permutation has m = %u, the layout %u", d->m, L->m);
        return why;
    }
    uint64_t seen_pi = 0, seen_delta = 0;
    for (unsigned i = 0; i < L->m; i++) {
        if (L->pi[i] >= L->m || (seen_pi >> L->pi[i] & 1)) {
            snprintf(why, sizeof why, "the allocation is not a permutation of [0, %u) (π(%u) = %u)",
                     L->m, i, L->pi[i]);
            return why;
        }
        if (d->delta[i] >= L->m || (seen_delta >> d->delta[i] & 1)) {
            snprintf(why, sizeof why, "δ is not a permutation of [0, %u) (δ(%u) = %u)", L->m, i,
                     d->delta[i]);
            return why;
        }
        seen_pi |= UINT64_C(1) << L->pi[i];
        seen_delta |= UINT64_C(1) << d->delta[i];
    }
    return NULL;
}

static bsp_sdp_cycles cycles_of(unsigned n, const bsp_sdp_layout *L, const bsp_sdp_perm *d)
{
    bsp_sdp_cycles cy = {.separable = 1};
    uint64_t seen = 0;
    unsigned at = 0;
    for (unsigned i = 0; i < L->m; i++) {
        if ((seen >> i & 1) || d->delta[i] == i)
            continue;
        unsigned c = cy.count++, real = 0, order = 0;
        cy.start[c] = (unsigned char)at;
        for (unsigned j = i; !(seen >> j & 1); j = d->delta[j]) {
            seen |= UINT64_C(1) << j;
            cy.dims[at++] = (unsigned char)j;
            real += L->pi[j] < n;
            order++;
        }
        cy.order[c] = (unsigned char)order;
        cy.kind[c] = real == order ? BSP_SDP_REAL : real == 0 ? BSP_SDP_VIRTUAL : BSP_SDP_MIXED;
        if (cy.kind[c] == BSP_SDP_MIXED)
            cy.separable = 0;
        if (cy.kind[c] == BSP_SDP_REAL) {
            cy.real_order += order;
            cy.real_cycles++;
            cy.odd_real_cycles += order % 2;
        }
    }
    return cy;
}

bsp_sdp_cycles bsp_sdp_analyze(unsigned n, const bsp_sdp_layout *layout, const bsp_sdp_perm *perm)
{
    BSPRAM_NONNULL(layout);
    BSPRAM_NONNULL(perm);
    const char *why = invalid(n, layout, perm);
    if (why)
        bspram__base_fatal("bsp_sdp_analyze(n=%u, m=%u): %s", n, layout->m, why);
    return cycles_of(n, layout, perm);
}

/* The cycle's dimensions as text: "(0 1 2)". */
static void cycle_text(const bsp_sdp_cycles *cy, unsigned c, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "(");
    for (unsigned j = 0; j < cy->order[c] && at < len; j++)
        at += (size_t)snprintf(buf + at, len - at, "%s%u", j ? " " : "", cy->dims[cy->start[c] + j]);
    if (at < len)
        snprintf(buf + at, len - at, ")");
}

/* The real cycles as a permutation μ of the processor dimensions: logic
 * dimension i sits on machine dimension π(i) before and π(δ(i)) after. */
static sdp_plan sdp_plan_of(unsigned n, const bsp_sdp_layout *L, const bsp_sdp_perm *d,
                            const bsp_sdp_cycles *cy, unsigned ports)
{
    sdp_plan pl = {.n = n, .ports = ports, .K = ((size_t)1 << (L->m - n)) * L->elem};
    for (unsigned j = 0; j < n; j++)
        pl.mu[j] = j;
    unsigned at = 0;
    for (unsigned c = 0; c < cy->count; c++) {
        if (cy->kind[c] != BSP_SDP_REAL)
            continue;
        unsigned k = pl.cycles++;
        pl.start[k] = at;
        pl.order[k] = cy->order[c];
        for (unsigned j = 0; j < cy->order[c]; j++) {
            unsigned i = cy->dims[cy->start[c] + j];
            pl.alpha[at++] = L->pi[i];
            pl.mu[L->pi[i]] = L->pi[d->delta[i]];
        }
    }
    return pl;
}

/* ---- the algorithms ---- */

typedef struct sdp_entry {
    void (*run)(coll_call *c, const sdp_plan *pl, unsigned char *buf);
    coll_prediction (*predict)(const sdp_plan *pl);
    int one, nport; /* has a one-port, an n-port variant */
} sdp_entry;

static const sdp_entry TABLE[] = {
    [BSP_SDP_A1] = {bspram__coll_sdp_a1, bspram__coll_sdp_predict_a1, 1, 0},
    [BSP_SDP_A1A] = {bspram__coll_sdp_a1a, bspram__coll_sdp_predict_a1a, 1, 0},
    [BSP_SDP_A2] = {bspram__coll_sdp_a2, bspram__coll_sdp_predict_a2, 1, 1},
    [BSP_SDP_A3] = {bspram__coll_sdp_a3, bspram__coll_sdp_predict_a3, 1, 0},
    [BSP_SDP_A5] = {bspram__coll_sdp_a5, bspram__coll_sdp_predict_a5, 0, 1},
};
#define ALGORITHMS (sizeof TABLE / sizeof TABLE[0])

static const char *const NAMES[] = {"auto", "A1", "A1a", "A2", "A3", "A5"};

const char *bsp_sdp_algorithm_name(bsp_sdp_algorithm a)
{
    return (unsigned)a < ALGORITHMS ? NAMES[a] : "unknown";
}

int bsp_sdp_algorithm_parse(const char *name)
{
    BSPRAM_NONNULL(name);
    for (unsigned a = 0; a < ALGORITHMS; a++)
        if (!strcasecmp(name, NAMES[a]))
            return (int)a;
    return -1;
}

/* Without a probe: the collectives' defaults (coll/select.c). */
static double probe_g = 1.0, probe_l = 1000.0;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static void sdp_load_probe(void) { bspram_params_load(&probe_g, &probe_l); }

/* Resolve AUTO to the least C1·l + C2·g among the algorithms with `ports`
 * ports; ties to the fewer rounds, then the earlier algorithm. */
static bsp_sdp_prediction predict(const sdp_plan *pl, const bsp_sdp_cycles *cy,
                                  bsp_sdp_algorithm alg)
{
    bsp_sdp_prediction r = {.algorithm = alg, .ports = pl->ports};
    r.c1_lower = cy->real_order - cy->odd_real_cycles;
    r.c2_lower = pl->ports > 1 ? (pl->K + 1) / 2 : (cy->real_order * pl->K + 1) / 2;
    if (alg == BSP_SDP_AUTO) {
        pthread_once(&probe_once, sdp_load_probe);
        double best = INFINITY;
        for (unsigned a = 1; a < ALGORITHMS; a++) {
            if (pl->ports > 1 ? !TABLE[a].nport : !TABLE[a].one)
                continue;
            coll_prediction p = TABLE[a].predict(pl);
            double cost = (double)p.c1 * probe_l + (double)p.c2 * probe_g;
            if (cost < best || (cost == best && p.c1 < r.c1)) {
                best = cost;
                r.algorithm = (bsp_sdp_algorithm)a;
                r.c1 = p.c1;
                r.c2 = p.c2;
            }
        }
        return r;
    }
    coll_prediction p = TABLE[alg].predict(pl);
    r.c1 = p.c1;
    r.c2 = p.c2;
    return r;
}

/* The options' problem, or NULL. */
static const char *bad_options(unsigned n, const bsp_sdp_options *o)
{
    static _Thread_local char why[96];
    if ((unsigned)o->algorithm >= ALGORITHMS) {
        snprintf(why, sizeof why, "unknown algorithm %d", (int)o->algorithm);
        return why;
    }
    if (o->ports > 1 && o->ports != n) {
        snprintf(why, sizeof why, "ports must be 1 or n = %u, not %u", n, o->ports);
        return why;
    }
    if (o->ports > 1 && o->algorithm != BSP_SDP_AUTO && !TABLE[o->algorithm].nport) {
        snprintf(why, sizeof why, "algorithm %s has one port only",
                 bsp_sdp_algorithm_name(o->algorithm));
        return why;
    }
    if (o->ports <= 1 && o->algorithm != BSP_SDP_AUTO && !TABLE[o->algorithm].one && n > 1) {
        snprintf(why, sizeof why, "algorithm %s needs n = %u ports",
                 bsp_sdp_algorithm_name(o->algorithm), n);
        return why;
    }
    return NULL;
}

/* The first mixed cycle as a reason, or NULL. */
static const char *mixed(const bsp_sdp_cycles *cy)
{
    static _Thread_local char why[320];
    for (unsigned c = 0; c < cy->count; c++)
        if (cy->kind[c] == BSP_SDP_MIXED) {
            char dims[120];
            cycle_text(cy, c, dims, sizeof dims);
            snprintf(why, sizeof why, "δ is not separable: its cycle %s mixes real and virtual "
                     "dimensions (Ho & Johnsson's algorithms move real cycles only)", dims);
            return why;
        }
    return NULL;
}

static size_t block_bytes(unsigned n, const bsp_sdp_layout *L, int *overflow)
{
    unsigned s = L->m - n;
    *overflow = s >= 63 || (L->elem && ((size_t)1 << s) > SIZE_MAX / L->elem);
    return *overflow ? 0 : ((size_t)1 << s) * L->elem;
}

bsp_sdp_prediction bsp_sdp_predict(unsigned n, const bsp_sdp_layout *layout,
                                   const bsp_sdp_perm *perm, const bsp_sdp_options *opt)
{
    BSPRAM_NONNULL(layout);
    BSPRAM_NONNULL(perm);
    bsp_sdp_options o = opt ? *opt : (bsp_sdp_options){0};
    const char *why = invalid(n, layout, perm);
    bsp_sdp_cycles cy = {0};
    int overflow = 0;
    if (!why)
        why = bad_options(n, &o);
    if (!why) {
        cy = cycles_of(n, layout, perm);
        why = mixed(&cy);
    }
    if (!why) {
        block_bytes(n, layout, &overflow);
        why = overflow ? "2^(m−n)·elem bytes per process overflow" : NULL;
    }
    if (why)
        bspram__base_fatal("bsp_sdp_predict(n=%u, m=%u, elem=%zu, algorithm=%s, ports=%u): %s", n,
                     layout->m, layout->elem, bsp_sdp_algorithm_name(o.algorithm), o.ports, why);
    sdp_plan pl = sdp_plan_of(n, layout, perm, &cy, o.ports > 1 ? o.ports : 1);
    return predict(&pl, &cy, o.algorithm);
}

void bspram__coll_sdp_pieces(unsigned char *buf, size_t K, unsigned pieces, unsigned char *work, size_t stride,
                int back)
{
    size_t q = K / pieces, r = K % pieces, off = 0;
    if (!back && stride)
        memset(work, 0, stride * pieces);
    for (unsigned i = 0; i < pieces; i++) {
        size_t len = q + (i < r);
        if (len)
            memcpy(back ? buf + off : work + stride * i, back ? work + stride * i : buf + off, len);
        off += len;
    }
}

/* ---- the call ---- */

/* The virtual cycles: element l of src goes to local index λ(l), with
 * λ moving local bit j to where the logic dimension on it goes. */
static void permute_locally(const bsp_sdp_layout *L, const bsp_sdp_perm *d,
                            const bsp_sdp_cycles *cy, unsigned n, const unsigned char *src,
                            unsigned char *dst, unsigned char *tmp)
{
    unsigned s = L->m - n;
    size_t count = (size_t)1 << s, e = L->elem;
    unsigned lambda[BSP_SDP_MAX_DIMS];
    int moves = 0;
    for (unsigned j = 0; j < s; j++)
        lambda[j] = j;
    for (unsigned c = 0; c < cy->count; c++)
        if (cy->kind[c] == BSP_SDP_VIRTUAL)
            for (unsigned t = 0; t < cy->order[c]; t++) {
                unsigned i = cy->dims[cy->start[c] + t];
                lambda[L->pi[i] - n] = L->pi[d->delta[i]] - n;
                moves = 1;
            }
    if (e == 0) /* no bytes to move */
        return;
    if (!moves) {
        if (dst != src)
            memmove(dst, src, count * e);
        return;
    }
    const unsigned char *from = src;
    if (src == dst) { /* in place: through a copy */
        memcpy(tmp, src, count * e);
        from = tmp;
    }
    for (size_t l = 0; l < count; l++) {
        size_t to = 0;
        for (unsigned j = 0; j < s; j++)
            to |= ((l >> j) & 1u) << lambda[j];
        memcpy(dst + to * e, from + l * e, e);
    }
}

void bsp_sdp(const bsp_sdp_layout *layout, const bsp_sdp_perm *perm, const void *src, void *dst,
             const bsp_sdp_options *opt)
{
    bsplib_proc *me = bsplib_me("bsp_sdp");
    bsp_sdp_options o = opt ? *opt : (bsp_sdp_options){0};
    char text[200];
    snprintf(text, sizeof text, "m=%u, elem=%zu, src=%p, dst=%p, algorithm=%s, ports=%u",
             layout ? layout->m : 0, layout ? layout->elem : 0, src, dst,
             bsp_sdp_algorithm_name(o.algorithm), o.ports);
    coll_desc desc = {.text = text, .root = -1, .op = -1};
    coll_call c = {.me = me, .name = "bsp_sdp", .desc = &desc};
    unsigned n = 0;
    while ((1u << n) < me->p)
        n++;
    if ((1u << n) != me->p)
        bspram__coll_fail(&c, "the cube needs P = 2^n processes, not %u", me->p);
    if (!layout)
        bspram__coll_fail(&c, "layout is NULL");
    if (!perm)
        bspram__coll_fail(&c, "perm is NULL");
    const char *why = invalid(n, layout, perm);
    if (!why)
        why = bad_options(n, &o);
    bsp_sdp_cycles cy = {0};
    if (!why) {
        cy = cycles_of(n, layout, perm);
        why = mixed(&cy);
    }
    int overflow = 0;
    size_t K = why ? 0 : block_bytes(n, layout, &overflow);
    if (!why && overflow)
        why = "2^(m−n)·elem bytes per process overflow";
    if (!why && K && (!src || !dst))
        why = src ? "dst is NULL" : "src is NULL";
    if (why)
        bspram__coll_fail(&c, "%s", why);
    sdp_plan pl = sdp_plan_of(n, layout, perm, &cy, o.ports > 1 ? o.ports : 1);
    bsp_sdp_prediction choice = predict(&pl, &cy, o.algorithm);

    /* Every process must pass the same layout, δ, algorithm and ports. */
    uint64_t h = 14695981039346656037ULL; /* FNV-1a of π and δ */
    for (unsigned i = 0; i < layout->m; i++)
        h = (h ^ (uint64_t)layout->pi[i] << 8 ^ perm->delta[i]) * 1099511628211ULL;
    uint64_t sig[] = {layout->m, layout->elem, h, (uint64_t)o.algorithm, pl.ports};
    static const char *const names[] = {"m", "elem", "allocation or permutation", "algorithm",
                                        "ports"};
    desc.names = names;
    bspram__coll_begin(&c, me, "bsp_sdp", NULL, COLL_CODE_SDP, sig, sizeof sig / sizeof *sig, &desc);
    permute_locally(layout, perm, &cy, n, src, dst, K ? coll_scratch(&c, 0, K) : NULL);
    if (pl.cycles && me->p > 1)
        TABLE[choice.algorithm].run(&c, &pl, dst);
    bspram__coll_end(&c);
}
