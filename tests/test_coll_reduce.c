/* Reductions and scans (bsp_coll.h: bsp_coll_reduce, _allreduce, _scan,
 * _exscan) with every algorithm, against a sequential reference, for
 * P = 1..40, 64, 65 and 100 (fewer cases at the large P), and on groups.
 *
 * Operands are a pure function of (case, rank, word), so every process
 * computes its own reference. Operations: sum:i64, max:u64, xor:u64,
 * sum:f64 and a user operation (saturating unsigned add, registered with
 * bsp_shm_add_op). Exact types: the result equals the left fold
 * x_0 ⊕ … ⊕ x_{n−1} (scan: up to the rank) bit for bit, for every
 * algorithm. sum:f64: the bracketing each algorithm documents, bit for bit —
 * the sequential left fold (direct algorithms, dissemination allreduce),
 * the aligned binary tree for every root (binomial reduce), the paired-off
 * tree (doubling, and Rabenseifner's reduce-scatter, whose pieces are folded
 * over the same blocks), Hillis–Steele's (dissemination scan) — and, for the
 * binomial scan, the left fold within a rounding bound; allreduce results
 * are also compared with rank 0's (bsp_get) bit for bit.
 *
 * Cost (bsp_coll_last_cost) against the formulas of bsp_coll.h, written here
 * afresh: binomial reduce C1 = ⌈log2 n⌉; direct C1 = ⌈(n−1)/k⌉; doubling
 * log2 n or ⌊log2 n⌋ + 2; dissemination allreduce ⌈log_{k+1} n⌉ with
 * C2 = ⌈m(n−1)/k⌉ (Bruck Theorem 4.3; in its tradeoff range C2 less than m
 * above); Rabenseifner 2⌊log2 n⌋ (+2 off powers of two) with C2 twice the
 * largest halves, written afresh below; Rabenseifner's reduce 2⌊log2 n⌋ (+1
 * off powers of two) with C2 the largest halves plus the largest ranges the
 * gather's senders hold for the root at hand (root 0's from
 * bsp_coll_predict), every root, and the bits of recursive doubling; dissemination scan ⌈log2 n⌉; binomial scan 2⌈log2 n⌉ − 1, one
 * less where its top down-level is empty (coll/scan_binomial.c); C2 = m·C1
 * for all but the dissemination allreduce; every round moves a message
 * (supersteps = C1); C1 ≥ ⌈log_{k+1} n⌉ for n ≥ 2; max_q ≤ k and
 * max_r ≤ k (k = 1 for the one-port algorithms); and bsp_coll_predict
 * gives the measured C1 and C2 exactly. BSP_COLL_AUTO is checked as the
 * algorithm bsp_coll_select names. In place, counts 0 (with NULL buffers
 * too), 1, 3 and 10000, several roots, non-roots' recv NULL or untouched,
 * send buffers unchanged. Groups: rows and columns of a 3×4 grid (P = 12) and
 * an uneven partition {7}, {9, 2, 4}, {0, 1, 3, 5, 6, 8} (P = 10), each
 * group checked with its own ranks, C1 = the largest group's. */
#include <bsp.h>
#include <bsp_coll.h>
#include <bsp_shm.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"
#include "coll_check.h"

static unsigned P;
enum { BIG = 10000, MAXC = BIG };

/* ---- operations ---- */

enum { O_SUM_I64, O_MAX_U64, O_XOR, O_SUM_F64, O_USER, NOPS };
static const char *const opnames[NOPS] = {"sum:i64", "max:u64", "xor:u64", "sum:f64", "sat"};

static uint64_t sat_add(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return a + b < a ? UINT64_MAX : a + b;
}

static double dbl(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static uint64_t bits(double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    return v;
}

static uint64_t apply(unsigned o, uint64_t a, uint64_t b)
{
    switch (o) {
    case O_SUM_I64: return a + b; /* two's complement: the i64 sum's bits */
    case O_MAX_U64: return a > b ? a : b;
    case O_XOR: return a ^ b;
    case O_SUM_F64: return bits(dbl(a) + dbl(b));
    default: return sat_add(a, b, NULL);
    }
}

static uint64_t identity(unsigned o) { return o == O_SUM_F64 ? bits(0.0) : 0; }

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

/* Operand word w of rank j in case `seed`. */
static uint64_t gen(uint64_t seed, unsigned j, size_t w, unsigned o)
{
    uint64_t h = mix(seed * UINT64_C(0x9e3779b97f4a7c15) + mix((uint64_t)j << 32 | w));
    switch (o) {
    case O_SUM_F64: { /* mixed magnitudes and signs: bracketings differ in the last bits */
        double v = ldexp((double)(h >> 11), -53 + (int)(h & 31) - 16);
        return bits(h & 32 ? -v : v);
    }
    case O_USER: return h >> 4; /* saturates after some 16 operands */
    case O_MAX_U64: return h >> (h & 7); /* ties and varied sizes */
    default: return h;
    }
}

/* ---- references ---- */

/* Left fold of ranks [lo, hi), word w (hi > lo). */
static uint64_t left_fold(uint64_t seed, unsigned o, size_t w, unsigned lo, unsigned hi)
{
    uint64_t acc = gen(seed, lo, w, o);
    for (unsigned j = lo + 1; j < hi; j++)
        acc = apply(o, acc, gen(seed, j, w, o));
    return acc;
}

/* The aligned binary tree over the values v[0..n): block [lo, lo + 2^t). */
static uint64_t tree(unsigned o, const uint64_t *v, unsigned n, unsigned lo, unsigned t)
{
    if (t == 0)
        return v[lo];
    unsigned mid = lo + (1u << (t - 1));
    uint64_t l = tree(o, v, n, lo, t - 1);
    return mid < n ? apply(o, l, tree(o, v, n, mid, t - 1)) : l;
}

static unsigned floor_log2(uint64_t n)
{
    unsigned f = 0;
    while ((UINT64_C(2) << f) <= n)
        f++;
    return f;
}

/* The documented f64 bracketings (exact types give the left fold anyway). */
static uint64_t ref_tree(uint64_t seed, unsigned o, size_t w, unsigned n, uint64_t *tmp)
{
    for (unsigned j = 0; j < n; j++)
        tmp[j] = gen(seed, j, w, o);
    return tree(o, tmp, n, 0, ceil_log(n, 2));
}

static uint64_t ref_doubling(uint64_t seed, unsigned o, size_t w, unsigned n, uint64_t *tmp)
{
    unsigned f = floor_log2(n), np = 1u << f, r = n - np;
    for (unsigned s = 0; s < np; s++)
        tmp[s] = s < r ? apply(o, gen(seed, 2 * s, w, o), gen(seed, 2 * s + 1, w, o))
                       : gen(seed, s + r, w, o);
    return tree(o, tmp, np, 0, f);
}

/* Hillis–Steele: inclusive partials a[], exclusive e[] (have[]: not empty). */
static uint64_t ref_hillis(uint64_t seed, unsigned o, size_t w, unsigned n, unsigned me,
                           int exclusive, uint64_t *a, uint64_t *e, unsigned char *have)
{
    for (unsigned j = 0; j < n; j++) {
        a[j] = gen(seed, j, w, o);
        have[j] = 0;
    }
    for (unsigned dist = 1; dist < n; dist *= 2)
        for (unsigned j = n; j-- > dist;) { /* top down: a[j − dist] still old */
            uint64_t in = a[j - dist];
            e[j] = have[j] ? apply(o, in, e[j]) : in;
            have[j] = 1;
            a[j] = apply(o, in, a[j]);
        }
    if (!exclusive)
        return a[me];
    return me ? e[me] : identity(o);
}

/* ---- variants ---- */

enum { K_REDUCE, K_ALLREDUCE, K_SCAN, K_EXSCAN };
typedef struct variant {
    int kind;
    bsp_coll_algorithm alg;
    unsigned ports; /* as passed; 0: the default */
} variant;

static const variant variants[] = {
    {K_REDUCE, BSP_COLL_BINOMIAL, 0},        {K_REDUCE, BSP_COLL_DIRECT, 1},
    {K_REDUCE, BSP_COLL_DIRECT, 2},          {K_REDUCE, BSP_COLL_DIRECT, 3},
    {K_REDUCE, BSP_COLL_DIRECT, 0},          {K_REDUCE, BSP_COLL_RABENSEIFNER, 0},
    {K_ALLREDUCE, BSP_COLL_DOUBLING, 0},
    {K_ALLREDUCE, BSP_COLL_DISSEMINATION, 1}, {K_ALLREDUCE, BSP_COLL_DISSEMINATION, 2},
    {K_ALLREDUCE, BSP_COLL_DISSEMINATION, 3}, {K_ALLREDUCE, BSP_COLL_RABENSEIFNER, 0},
    {K_SCAN, BSP_COLL_DISSEMINATION, 0},
    {K_SCAN, BSP_COLL_BINOMIAL, 0},          {K_SCAN, BSP_COLL_DIRECT, 1},
    {K_SCAN, BSP_COLL_DIRECT, 2},            {K_SCAN, BSP_COLL_DIRECT, 0},
    {K_EXSCAN, BSP_COLL_DISSEMINATION, 0},   {K_EXSCAN, BSP_COLL_BINOMIAL, 0},
    {K_EXSCAN, BSP_COLL_DIRECT, 3},          {K_EXSCAN, BSP_COLL_DIRECT, 0},
    /* the selection's choice, checked as that algorithm */
    {K_REDUCE, BSP_COLL_AUTO, 0},            {K_ALLREDUCE, BSP_COLL_AUTO, 0},
    {K_SCAN, BSP_COLL_AUTO, 0},              {K_EXSCAN, BSP_COLL_AUTO, 0},
};
enum { NVAR = sizeof variants / sizeof variants[0] };

/* The k a variant runs with on n members. */
static unsigned ports_of(const variant *v, unsigned n)
{
    if (v->ports)
        return v->ports;
    return v->alg == BSP_COLL_DIRECT && n > 2 ? n - 1 : 1;
}

/* Expected C1 (exact) of a variant on n members with k ports. */
static unsigned expect_c1(const variant *v, unsigned n, unsigned k)
{
    if (n < 2)
        return 0;
    unsigned d = ceil_log(n, 2);
    switch (v->alg) {
    case BSP_COLL_DIRECT: return (n - 1 + k - 1) / k;
    case BSP_COLL_DOUBLING: return (1u << floor_log2(n)) == n ? floor_log2(n) : floor_log2(n) + 2;
    case BSP_COLL_RABENSEIFNER: /* reduce: a pair-off round; allreduce: and a hand-back */
        return 2 * floor_log2(n) + ((1u << floor_log2(n)) == n ? 0 : v->kind == K_REDUCE ? 1 : 2);
    case BSP_COLL_DISSEMINATION: return v->kind == K_ALLREDUCE ? ceil_log(n, k + 1) : d;
    default: /* BINOMIAL */
        if (v->kind == K_REDUCE)
            return d;
        /* scan: 2d − 1, less one where down-level d−2 has no block
         * [2^(d−1), …) with a right half (n ≤ 3·2^(d−2)) */
        return d >= 2 && n <= 3u << (d - 2) ? 2 * d - 2 : 2 * d - 1;
    }
}

/* Bruck §4.2's range where C1 and C2 are not both optimal. */
static int tradeoff_range(unsigned n, unsigned k, size_t b)
{
    if (b < 3 || k < 3)
        return 0;
    unsigned d = ceil_log(n, k + 1);
    uint64_t top = 1;
    for (unsigned i = 0; i < d; i++)
        top *= k + 1;
    return top - k < n && n < top;
}

static atomic_int spmd_checks; /* by this address space's processes (over MPI: a rank's) */
#define SCHECK(cond)                                                                        \
    do {                                                                                    \
        atomic_fetch_add(&spmd_checks, 1);                                                  \
        SPMD_CHECK(cond);                                                                   \
    } while (0)

/* ---- one call ---- */

typedef struct ctx {
    const bsp_coll_group *g; /* NULL: all */
    unsigned n, rank;
    unsigned first_pid;   /* the pid of rank 0 */
    const unsigned *sizes; /* groups: every group's size (NULL: the whole machine) */
    unsigned ngroups;
    uint64_t *snd, *res, *keep, *tmp, *tmp2;
    unsigned char *have;
    unsigned opid[NOPS];
} ctx;

static atomic_int failed_before; /* cases reported so far */

static void report(const ctx *x, const variant *v, unsigned o, size_t count, unsigned root,
                   int inplace, const char *what)
{
    fprintf(stderr, "  P=%u n=%u rank=%u kind=%d alg=%s ports=%u op=%s count=%zu root=%u "
            "inplace=%d: %s\n", bsp_nprocs(), x->n, x->rank, v->kind,
            bsp_coll_algorithm_name(v->alg), v->ports, opnames[o], count, root, inplace, what);
}

static bsp_coll_op op_of(const variant *v)
{
    return v->kind == K_REDUCE ? BSP_COLL_REDUCE : v->kind == K_ALLREDUCE ? BSP_COLL_ALLREDUCE
                                                                          : BSP_COLL_SCAN;
}

/* AUTO: the algorithm the selection picks (one port) for n and m. */
static variant resolve(const variant *given, unsigned n, size_t m)
{
    variant v = *given;
    if (given->alg == BSP_COLL_AUTO) {
        bsp_coll_choice ch = bsp_coll_select(op_of(given), n, m, 0, -1, -1);
        v.alg = ch.algorithm;
        v.ports = ch.ports;
    }
    return v;
}

static void run_case(ctx *x, const variant *given, unsigned o, size_t count, unsigned root,
                     int inplace, uint64_t seed)
{
    unsigned n = x->n, me = x->rank;
    size_t m = 8 * count;
    variant chosen = resolve(given, n, m);
    const variant *v = &chosen;
    int fails0 = atomic_load(&spmd_failures);
    for (size_t w = 0; w < count; w++)
        x->snd[w] = gen(seed, me, w, o);
    memcpy(x->keep, x->snd, m);
    for (size_t w = 0; w < count + 1; w++)
        x->res[w] = UINT64_C(0xdeadbeefcafef00d); /* canary, and one word beyond */
    if (inplace && (v->kind != K_REDUCE || me == root))
        memcpy(x->res, x->snd, m);
    const void *send = inplace && (v->kind != K_REDUCE || me == root) ? BSP_COLL_IN_PLACE
                                                                         : (const void *)x->snd;
    void *recv = x->res;
    if (v->kind == K_REDUCE && me != root && me % 2)
        recv = NULL; /* not the root's: never touched */
    if (count == 0 && seed % 2) { /* nothing to read or write: NULL buffers are fine */
        send = send == BSP_COLL_IN_PLACE ? send : NULL;
        recv = NULL;
    }
    bsp_coll_options opt = {.algorithm = given->alg, .ports = given->ports};
    unsigned op = x->opid[o];
    switch (v->kind) {
    case K_REDUCE: bsp_coll_reduce(x->g, send, recv, count, op, root, &opt); break;
    case K_ALLREDUCE: bsp_coll_allreduce(x->g, send, recv, count, op, &opt); break;
    case K_SCAN: bsp_coll_scan(x->g, send, recv, count, op, &opt); break;
    default: bsp_coll_exscan(x->g, send, recv, count, op, &opt); break;
    }
    bsp_coll_cost cost = bsp_coll_last_cost();

    /* Results. */
    int gets = v->kind != K_REDUCE || me == root;
    if (!gets) {
        SCHECK(x->res[0] == UINT64_C(0xdeadbeefcafef00d));
    } else {
        size_t bad = 0;
        for (size_t w = 0; w < count; w++) {
            uint64_t want, got = x->res[w];
            int ex = v->kind == K_EXSCAN;
            unsigned hi = v->kind == K_SCAN ? me + 1 : ex ? me : n;
            if (o != O_SUM_F64 || v->alg == BSP_COLL_DIRECT ||
                (v->kind == K_ALLREDUCE && v->alg == BSP_COLL_DISSEMINATION))
                want = hi ? left_fold(seed, o, w, 0, hi) : identity(o);
            else if (v->kind == K_REDUCE && v->alg == BSP_COLL_RABENSEIFNER)
                want = ref_doubling(seed, o, w, n, x->tmp); /* the allreduce's pieces */
            else if (v->kind == K_REDUCE)
                want = ref_tree(seed, o, w, n, x->tmp);
            else if (v->kind == K_ALLREDUCE)
                want = ref_doubling(seed, o, w, n, x->tmp);
            else if (v->alg == BSP_COLL_DISSEMINATION)
                want = ref_hillis(seed, o, w, n, me, ex, x->tmp, x->tmp2, x->have);
            else { /* binomial scan, f64: the left fold within rounding */
                want = got;
                if (hi) {
                    double l = dbl(left_fold(seed, o, w, 0, hi)), mag = 0;
                    for (unsigned j = 0; j < hi; j++)
                        mag += fabs(dbl(gen(seed, j, w, o)));
                    bad += !(fabs(dbl(got) - l) <= 4.0 * n * 0x1p-53 * mag);
                } else {
                    bad += got != identity(o);
                }
            }
            bad += got != want;
        }
        SCHECK(bad == 0);
        SCHECK(x->res[count] == UINT64_C(0xdeadbeefcafef00d)); /* nothing beyond */
    }
    if (!inplace || (v->kind == K_REDUCE && me != root))
        SCHECK(memcmp(x->snd, x->keep, m) == 0);

    /* Allreduce: the same bits as rank 0's (f64 above all). */
    if (v->kind == K_ALLREDUCE && count) {
        size_t c = count < 64 ? count : 64;
        bsp_get(x->first_pid, x->res, 0, x->tmp, c * 8);
        bsp_sync();
        SCHECK(memcmp(x->tmp, x->res, c * 8) == 0);
    }

    /* Cost. */
    unsigned k = ports_of(v, n), c1 = expect_c1(v, n, k);
    unsigned kq = v->alg == BSP_COLL_DIRECT || (v->kind == K_ALLREDUCE &&
                                                v->alg == BSP_COLL_DISSEMINATION) ? k : 1;
    if (!x->sizes) { /* the whole machine */
        SCHECK(cost.c1 == c1);
        SCHECK(cost.supersteps == c1);
        if (n >= 2)
            SCHECK(cost.c1 >= ceil_log(n, kq + 1));
        if (v->kind == K_ALLREDUCE && v->alg == BSP_COLL_DISSEMINATION && n >= 2) {
            /* Bruck's concatenation uses at most n − 1 ports: a rank has no
             * more partners (coll/allgather_bruck.c). */
            unsigned ke = k < n - 1 ? k : n - 1;
            uint64_t opt2 = (m * (n - 1) + ke - 1) / ke;
            if (tradeoff_range(n, ke, m))
                SCHECK(cost.c2 >= opt2 && cost.c2 < opt2 + m);
            else
                SCHECK(cost.c2 == opt2);
        } else if (v->kind == K_ALLREDUCE && v->alg == BSP_COLL_RABENSEIFNER && n >= 2) {
            /* Each round of the halving moves the larger of the halves of
             * the aligned piece ranges at its level (pieces of
             * ⌊j·count/n'⌋ words), and the doubling the same again; the
             * pair-off and the hand-back move m each when n' < n. */
            unsigned f = floor_log2(n), np = 1u << f;
            uint64_t c2 = (np < n) ? 2 * (uint64_t)m : 0;
            for (unsigned q = np / 2; q >= 1; q /= 2) {
                uint64_t most = 0;
                for (unsigned g = 0; g < np / q; g++) {
                    uint64_t w = (uint64_t)(g + 1) * q * count / np - (uint64_t)g * q * count / np;
                    most = w > most ? w : most;
                }
                c2 += 2 * 8 * most;
            }
            SCHECK(cost.c2 == c2);
        } else if (v->alg == BSP_COLL_RABENSEIFNER && n >= 2) { /* reduce */
            /* The pair-off moves m when n' < n; halving round t the largest
             * of the aligned halves (as above); gather round t, going back,
             * the largest range a sender holds: the aligned blocks of
             * n'/2^(t+1) pieces whose index's parity differs from bit t of
             * the root's survivor (the root stands for its pair). */
            unsigned f = floor_log2(n), np = 1u << f, r = n - np;
            unsigned sr = root < 2 * r ? root / 2 : root - r;
            uint64_t c2 = r ? (uint64_t)m : 0, c2_root0 = c2;
            for (unsigned t = 0; t < f; t++) {
                unsigned q = np >> (t + 1);
                uint64_t most = 0, sent = 0, sent0 = 0;
                for (unsigned g = 0; g < np / q; g++) {
                    uint64_t w = (uint64_t)(g + 1) * q * count / np - (uint64_t)g * q * count / np;
                    most = w > most ? w : most;
                    if ((g & 1) != ((sr >> t) & 1))
                        sent = w > sent ? w : sent;
                    if (g & 1)
                        sent0 = w > sent0 ? w : sent0;
                }
                c2 += 8 * (most + sent);
                c2_root0 += 8 * (most + sent0);
            }
            SCHECK(cost.c2 == c2);
            bsp_coll_choice pr = bsp_coll_predict(BSP_COLL_REDUCE, n, m, &opt); /* root 0's */
            SCHECK(pr.c1 == cost.c1 && pr.c2 == c2_root0);
            SCHECK(cost.c2 <= pr.c2 + 8 * f && pr.c2 <= cost.c2 + 8 * f);
            /* The root receives m(1 − 1/n') in the gather, give or take a word a round. */
        } else {
            SCHECK(cost.c2 == m * c1);
        }
        SCHECK(cost.max_q <= kq && cost.max_r <= kq);
        bsp_coll_choice pr = bsp_coll_predict(op_of(v), n, m, &opt); /* the exact schedule */
        if (!(v->kind == K_REDUCE && v->alg == BSP_COLL_RABENSEIFNER)) /* root 0's: above */
            SCHECK(pr.c1 == cost.c1 && pr.c2 == cost.c2);
        if (n >= 2)
            SCHECK(cost.max_q >= 1 && cost.max_r >= 1);
    } else { /* groups: the rounds run side by side; C1 is the largest group's */
        unsigned max_c1 = 0;
        int all_m = 1; /* every group's rounds move m bytes */
        for (unsigned i = 0; i < x->ngroups; i++) {
            variant w = resolve(given, x->sizes[i], m);
            unsigned c = expect_c1(&w, x->sizes[i], ports_of(&w, x->sizes[i]));
            max_c1 = c > max_c1 ? c : max_c1;
            all_m &= !(w.kind == K_ALLREDUCE && w.alg == BSP_COLL_DISSEMINATION) &&
                     w.alg != BSP_COLL_RABENSEIFNER;
        }
        SCHECK(cost.c1 == max_c1);
        SCHECK(cost.supersteps == (max_c1 ? max_c1 : 1));
        if (all_m)
            SCHECK(cost.c2 == m * max_c1);
    }
    if (atomic_load(&spmd_failures) != fails0 && atomic_fetch_add(&failed_before, 1) < 20)
        report(x, v, o, count, root, inplace, "failed");
}

/* ---- the whole machine ---- */

static void whole(ctx *x)
{
    unsigned n = x->n;
    unsigned roots[4] = {0, n - 1, n / 2, (n * 2) / 3};
    uint64_t seed = 1000 * (uint64_t)n;
    /* Every operation at count 3, and counts 1 and 0, up to n = 10; above,
     * one case per variant, its count (3, 1, 0) and operation in turn, to
     * keep the test short: the staged transport's supersteps cost O(P). */
    for (unsigned vi = 0; vi < NVAR; vi++) {
        const variant *v = &variants[vi];
        if (n > 10) {
            if (n > 40 && v->alg == BSP_COLL_DIRECT && v->ports && v->ports < 3)
                continue; /* n − 1 or (n − 1)/2 rounds: k = 3 and n − 1 do at large n */
            static const size_t counts[3] = {3, 1, 0};
            unsigned o = (vi + n) % NOPS;
            run_case(x, v, o, counts[(vi + n) % 3], roots[(vi + n) % 4], (vi + n) % 2, seed++);
            if (v->alg != BSP_COLL_DIRECT && v->alg != BSP_COLL_AUTO) /* its own bracketing */
                run_case(x, v, O_SUM_F64, 2, roots[(vi + n + 1) % 4], !((vi + n) % 2), seed++);
            continue;
        }
        for (unsigned o = 0; o < NOPS; o++)
            run_case(x, v, o, 3, roots[(o + vi) % 4], (o + vi) % 2, seed++);
        run_case(x, v, (vi + n + 1) % NOPS, 1, roots[(vi + n) % 4], n % 2, seed++);
        run_case(x, v, (vi + n + 2) % NOPS, 0, roots[(vi + n + 1) % 4], !(n % 2), seed++);
        if (n == 5 || n == 8) /* a large vector */
            for (unsigned o = O_SUM_I64; o <= O_SUM_F64; o += O_SUM_F64)
                run_case(x, v, o, BIG, roots[(vi + o) % 4], vi % 2, seed++);
    }
    /* The binomial reduce has the same bits for every root (f64): all
     * roots up to n = 16, four above. */
    if (n >= 3 && n <= 40)
        for (unsigned r = 0; r < n; r += n <= 16 ? 1 : (n + 3) / 4)
            run_case(x, &variants[0], O_SUM_F64, 2, r, r % 2, 77);
    run_case(x, &variants[0], O_SUM_F64, 2, n - 1, 0, 77);
    /* Rabenseifner's reduce: every root, the paired ones (odd roots below
     * 2r stand for their pair) among them, bits and C2 as the root's. */
    const variant rab = {K_REDUCE, BSP_COLL_RABENSEIFNER, 0};
    if (n >= 2 && n <= 40)
        for (unsigned r = 0; r < n; r += n <= 16 ? 1 : (n + 7) / 8)
            run_case(x, &rab, r % 2 ? O_SUM_F64 : O_USER, 5 + r % 3, r, r % 3 == 1, 91 + r);
}

/* ---- groups ---- */

static void grouped(ctx *x, const bsp_pid_t *members, unsigned gn, const unsigned *sizes,
                    unsigned ngroups)
{
    bsp_coll_group *g = bsp_coll_group_create(members, gn);
    SCHECK(bsp_coll_group_size(g) == gn);
    unsigned rank = bsp_coll_group_rank(g);
    SCHECK(members[rank] == bsp_pid());
    ctx y = *x;
    y.g = g;
    y.n = gn;
    y.rank = rank;
    y.first_pid = members[0];
    y.sizes = sizes;
    y.ngroups = ngroups;
    uint64_t seed = 555 + gn;
    for (unsigned vi = 0; vi < NVAR; vi++) {
        const variant *v = &variants[vi];
        unsigned o = vi % NOPS, root = (vi * 7) % gn;
        run_case(&y, v, o, 3, root, vi % 2, seed++);
        run_case(&y, v, O_SUM_F64, 1, gn - 1 - root, !(vi % 2), seed++);
    }
    bsp_coll_group_destroy(g);
}

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), pid = bsp_pid(); /* main's P is pid 0's alone (over MPI) */
    ctx x = {.g = NULL, .n = p, .rank = pid, .first_pid = 0, .sizes = NULL};
    x.snd = calloc(MAXC + 1, 8);
    x.res = calloc(MAXC + 1, 8);
    x.keep = calloc(MAXC + 1, 8);
    x.tmp = calloc(MAXC + 128, 8);
    x.tmp2 = calloc(128, 8);
    x.have = calloc(128, 1);
    for (unsigned o = 0; o < O_USER; o++)
        x.opid[o] = (unsigned)bspram_op_parse(opnames[o]);
    x.opid[O_USER] = bsp_shm_add_op("sat", sat_add, NULL, 0);
    bsp_push_reg(x.res, (MAXC + 1) * 8);
    bsp_sync(); /* the user operation and the registration take effect */
    whole(&x);

    if (p == 12) { /* rows, then columns, of a 3×4 grid */
        bsp_pid_t row[4], col[3];
        for (unsigned j = 0; j < 4; j++)
            row[j] = (pid / 4) * 4 + j;
        for (unsigned i = 0; i < 3; i++)
            col[i] = i * 4 + pid % 4;
        unsigned rs[3] = {4, 4, 4}, cs[4] = {3, 3, 3, 3};
        grouped(&x, row, 4, rs, 3);
        grouped(&x, col, 3, cs, 4);
    }
    if (p == 10) { /* uneven: sizes 1, 3, 6, ranks not in pid order */
        static const bsp_pid_t a[] = {7}, b[] = {9, 2, 4}, c[] = {0, 1, 3, 5, 6, 8};
        unsigned sizes[3] = {1, 3, 6};
        const bsp_pid_t *mine = pid == 7 ? a : pid == 9 || pid == 2 || pid == 4 ? b : c;
        unsigned gn = mine == a ? 1 : mine == b ? 3 : 6;
        grouped(&x, mine, gn, sizes, 3);
    }

    bsp_pop_reg(x.res);
    bsp_sync();
    free(x.snd);
    free(x.res);
    free(x.keep);
    free(x.tmp);
    free(x.tmp2);
    free(x.have);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    for (unsigned i = 0; i < COLL_TEST_NPS; i++) {
        P = coll_test_p(i);
        spmd();
        char what[64];
        snprintf(what, sizeof what, "reductions and scans, P = %u", P);
        CHECK_SPMD(what);
    }
    printf("%d checks in the processes (over MPI: rank 0's)\n", atomic_load(&spmd_checks));
    return check_report("test_coll_reduce");
}
