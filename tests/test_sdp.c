/* Stable dimension permutations (bsp_sdp.h) on P = 2, 4, …, 256: every
 * permutation kind (shuffle, unshuffle, k-shuffle, bit reversal, transpose,
 * random separable δ with real and virtual cycles), cyclic, consecutive and
 * random allocations, m − n = 0 … 13 local dimensions, elements of 0, 1, 3
 * and 8 bytes, every algorithm one-port and A2 n-port, in place and not.
 * Results against a sequential reference that moves element w to the
 * address with its bits permuted; C1 and C2 from the records against Ho &
 * Johnsson's counts (A1: σ cycles for a real GSH of order σ, C2 = 2(σ−1)K;
 * A2: σ + 1 and (σ+1)·K/2; A1a: σ + 1 and σK; A3: 2n and nK), worked out
 * here from δ's cycles, never from the library's formulas; Theorem 1's
 * lower bounds; at most one message out and in per process one-port. Each
 * process checks its own block and the measured cost; inside the processes
 * P is bsp_nprocs() (main's P is pid 0's alone over MPI). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsp.h>
#include <bsp_coll.h>
#include <bsp_sdp.h>

#include "check.h"

static unsigned P;
static _Thread_local unsigned n; /* log2 bsp_nprocs(), set by every process */

static unsigned char content(uint64_t w, size_t k)
{
    return (unsigned char)(w * 131 + k * 7 + (w >> 8) * 3 + 1);
}

/* The logic address of machine address a under π. */
static uint64_t logic(const bsp_sdp_layout *L, uint64_t a)
{
    uint64_t w = 0;
    for (unsigned i = 0; i < L->m; i++)
        w |= ((a >> L->pi[i]) & 1u) << i;
    return w;
}

/* The real cycles' orders, from δ and π (independently of the library). */
typedef struct cycles {
    unsigned count, order[64], sum, odd;
} cycles;

static cycles real_cycles(const bsp_sdp_layout *L, const bsp_sdp_perm *d)
{
    cycles c = {0};
    int seen[64] = {0};
    for (unsigned i = 0; i < L->m; i++) {
        if (seen[i] || d->delta[i] == i)
            continue;
        unsigned len = 0, real = 1;
        for (unsigned j = i; !seen[j]; j = d->delta[j]) {
            seen[j] = 1;
            len++;
            real &= L->pi[j] < n;
        }
        if (real) {
            c.order[c.count++] = len;
            c.sum += len;
            c.odd += len % 2;
        }
    }
    return c;
}

/* The paper's C1 and C2 for this algorithm (Ho & Johnsson §4.2, Table 2). */
static void expected(bsp_sdp_algorithm a, unsigned ports, const cycles *cy, uint64_t K,
                     uint64_t *c1, uint64_t *c2)
{
    *c1 = *c2 = 0;
    if (a == BSP_SDP_A5) { /* σ_p + β steps; C2: at most two pieces of K/S per link and step */
        unsigned smin = 64;
        for (unsigned i = 0; i < cy->count; i++)
            smin = cy->order[i] < smin ? cy->order[i] : smin;
        uint64_t S = cy->count ? cy->sum + cy->count + smin - 1 : 1;
        *c1 = cy->sum + cy->count;
        *c2 = *c1 * 2 * (((K + S - 1) / S + 1) / 2); /* the upper end; checked as a bound */
        return;
    }
    if (a == BSP_SDP_A3) {
        const uint64_t p = bsp_nprocs();
        if (cy->count && p > 1)
            *c1 = 2 * n, *c2 = n * p * ((K + p - 1) / p);
        return;
    }
    for (unsigned i = 0; i < cy->count; i++) {
        uint64_t s = cy->order[i];
        if (a == BSP_SDP_A1)
            *c1 += s, *c2 += 2 * (s - 1) * K;
        else if (a == BSP_SDP_A1A) { /* σK for even K (Table 2); halves of ⌈K/2⌉, ⌊K/2⌋ */
            uint64_t up = (K + 1) / 2, down = K / 2, tail = up > 2 * down ? up : 2 * down;
            *c1 += s + 1;
            *c2 += s == 2 ? 2 * up + down : up + (s - 2) * 2 * up + tail + down;
            if (K % 2 == 0 && s >= 3) /* the same as the paper's σK */
                CHECK_EQ_U64(up + (s - 2) * 2 * up + tail + down, s * K);
        }
        else { /* A2, one port or σ ports */
            uint64_t piece = ports > 1 ? (K + s - 1) / s : K;
            *c1 += s + 1, *c2 += (s + 1) * ((piece + 1) / 2);
        }
    }
}

static _Thread_local uint64_t rng;
static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* A random permutation of the `k` values in v (in place). */
static void shuffle_values(unsigned char *v, unsigned k)
{
    for (unsigned i = k; i > 1; i--) {
        unsigned j = (unsigned)(next() % i);
        unsigned char t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

static void one(const bsp_sdp_layout *L, const bsp_sdp_perm *d, bsp_sdp_algorithm a,
                unsigned ports, int in_place)
{
    unsigned pid = bsp_pid(), s = L->m - n;
    size_t count = (size_t)1 << s, e = L->elem, K = count * e;
    unsigned char *src = malloc(K + 1), *dst = in_place ? src : malloc(K + 1);
    for (size_t l = 0; l < count; l++) {
        uint64_t w = logic(L, pid | (uint64_t)l << n);
        for (size_t k = 0; k < e; k++)
            src[l * e + k] = content(w, k);
    }
    bsp_sdp_options opt = {.algorithm = a, .ports = ports};
    bsp_sdp(L, d, src, dst, &opt);
    bsp_coll_cost cost = bsp_coll_last_cost();

    /* The reference: the element now at (pid, l) is w with dp(w) there. */
    int ok = 1;
    for (size_t l = 0; l < count && ok; l++) {
        uint64_t v = logic(L, pid | (uint64_t)l << n), w = 0; /* v = dp(w) */
        for (unsigned i = 0; i < L->m; i++)
            w |= ((v >> d->delta[i]) & 1u) << i;
        for (size_t k = 0; k < e; k++)
            ok &= dst[l * e + k] == content(w, k);
    }
    CHECK(ok);
    cycles cy = real_cycles(L, d);
    bsp_sdp_prediction pr = bsp_sdp_predict(n, L, d, &opt);
    if (a != BSP_SDP_AUTO) {
        uint64_t c1, c2;
        expected(a, ports, &cy, K, &c1, &c2);
        CHECK_EQ_U64(cost.c1, c1);
        if (a == BSP_SDP_A5)
            CHECK(cost.c2 <= c2);
        else
            CHECK_EQ_U64(cost.c2, c2);
    }
    CHECK_EQ_U64(cost.c1, pr.c1);
    CHECK_EQ_U64(cost.c2, pr.c2);
    CHECK(cost.c1 >= cy.sum - cy.odd);                       /* Theorem 1 */
    CHECK(cost.c2 >= (ports > 1 ? (cy.count ? (K + 1) / 2 : 0) : (cy.sum * K + 1) / 2));
    CHECK(cost.max_q <= (ports > 1 ? n : 1));
    CHECK(cost.max_r <= (ports > 1 ? n : 1));
    if (!ok)
        fprintf(stderr, "P=%u m=%u elem=%zu alg=%s ports=%u in_place=%d: wrong result\n",
                bsp_nprocs(), L->m, e, bsp_sdp_algorithm_name(a), ports, in_place);
    free(src);
    if (!in_place)
        free(dst);
}

static void every_algorithm(const bsp_sdp_layout *L, const bsp_sdp_perm *d)
{
    for (int a = BSP_SDP_AUTO; a <= BSP_SDP_A3; a++)
        one(L, d, (bsp_sdp_algorithm)a, 1, a % 2);
    if (n > 1) {
        one(L, d, BSP_SDP_A2, n, 0);
        one(L, d, BSP_SDP_A5, n, 1);
    }
}

/* The real dimensions of a layout, as logic dimensions, lowest first. */
static unsigned real_dims(const bsp_sdp_layout *L, unsigned char *dims)
{
    unsigned k = 0;
    for (unsigned i = 0; i < L->m; i++)
        if (L->pi[i] < n)
            dims[k++] = (unsigned char)i;
    return k;
}

/* δ on the real logic dimensions as perm_on_n does on 0..n−1. */
static bsp_sdp_perm on_real(const bsp_sdp_layout *L, const bsp_sdp_perm *on_n)
{
    unsigned char dims[64];
    real_dims(L, dims);
    bsp_sdp_perm d = bsp_sdp_identity(L->m);
    for (unsigned j = 0; j < n; j++)
        d.delta[dims[j]] = dims[on_n->delta[j]];
    return d;
}

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(); /* main's P is pid 0's alone (over MPI) */
    n = 0;
    while ((1u << n) < p)
        n++;
    rng = 88172645463325252ULL + p; /* the same on every process */
    static const unsigned locals[] = {1, 0, 3};
    static const size_t elems[] = {8, 3, 0, 1};
    /* Fewer cases as P grows (P threads on 2 cores, and sanitizer builds). */
    int big = p >= 64;
    for (size_t li = 0; li < (big ? 1 : 3); li++)
        for (size_t ei = 0; ei < (big ? 1 : p >= 16 ? 2 : 4); ei++) {
            unsigned m = n + locals[li];
            bsp_sdp_layout layouts[3] = {bsp_sdp_cyclic(n, m, elems[ei]),
                                         bsp_sdp_consecutive(n, m, elems[ei]),
                                         bsp_sdp_cyclic(n, m, elems[ei])};
            shuffle_values(layouts[2].pi, m); /* a random allocation */
            for (int k = 0; k < 3; k++) {
                const bsp_sdp_layout *L = &layouts[k];
                bsp_sdp_perm kinds[5] = {bsp_sdp_shuffle(n, 0, n, 1), bsp_sdp_shuffle(n, 0, n, -1),
                                         bsp_sdp_shuffle(n, 0, n, 2), bsp_sdp_bit_reversal(n, 0, n),
                                         n % 2 ? bsp_sdp_shuffle(n, 0, n, 3)
                                               : bsp_sdp_transpose(n, 0, n)};
                for (int q = 0; q < 5; q++) {
                    bsp_sdp_perm d = on_real(L, &kinds[q]);
                    every_algorithm(L, &d);
                }
                /* A random separable δ: real and virtual dimensions permuted apart. */
                bsp_sdp_perm d = bsp_sdp_identity(m);
                unsigned char re[64], vi[64], rp[64], vp[64];
                unsigned nr = 0, nv = 0;
                for (unsigned i = 0; i < m; i++) {
                    if (L->pi[i] < n)
                        re[nr++] = (unsigned char)i;
                    else
                        vi[nv++] = (unsigned char)i;
                }
                memcpy(rp, re, nr);
                memcpy(vp, vi, nv);
                shuffle_values(rp, nr);
                shuffle_values(vp, nv);
                for (unsigned i = 0; i < nr; i++)
                    d.delta[re[i]] = rp[i];
                for (unsigned i = 0; i < nv; i++)
                    d.delta[vi[i]] = vp[i];
                every_algorithm(L, &d);
            }
        }
    /* Large blocks: 2^13 elements of 8 bytes (64 KiB) per process. */
    if (p <= 16) {
        bsp_sdp_layout L = bsp_sdp_cyclic(n, n + 13, 8);
        bsp_sdp_perm d = bsp_sdp_shuffle(n + 13, 0, n, 1);
        every_algorithm(&L, &d);
    }
    bsp_end();
}

int main(void)
{
    static const unsigned Ps[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++) {
        P = Ps[i];
        bsp_init(spmd, 0, NULL);
        spmd();
    }
    return check_report("test_sdp");
}
