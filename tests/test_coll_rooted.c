/* The rooted collectives: broadcast (binomial, direct, scatter-allgather),
 * scatter and gather (binomial, direct), on the whole machine for n =
 * 1..40, 64, 65, 100 and on groups (rows of a grid; an uneven partition of
 * sizes 1, 3, 6 in a shuffled member order), every algorithm, ports 1..3
 * where the algorithm takes ports (and the default, n − 1, for DIRECT),
 * sizes 0, 1, 3, 8 and large ones, in place and not, roots 0, n − 1 and n/3
 * (a middle root whose binomial ranges wrap past rank n − 1). Results
 * against a sequential reference (the byte pattern each rank's data was
 * made from, with guard bytes after every buffer); measured
 * cost (bsp_coll_last_cost) against the papers' formulas, written here:
 *   - broadcast, (k+1)-nomial tree (Saad & Schultz 1986 §3.2; Bruck et al.
 *     1997 §2): C1 = ⌈log_{k+1} n⌉, C2 = size·C1;
 *   - scatter and gather, recursive halving (Saad & Schultz §3.4):
 *     C1 = ⌈log2 n⌉, C2 = b(n − 1) for n a power of two — and for every n,
 *     since b(n − 1) is the one-port lower bound (the root's b(n − 1) bytes
 *     pass its one port, at most one message a round) and halving with the
 *     larger half below attains it;
 *   - direct: C1 = ⌈(n − 1)/k⌉, C2 = size·C1 (b·C1);
 *   - scatter-allgather: C1 = ⌈log2 n⌉ + ⌈log_{k+1} n⌉, C2 between
 *     p(n − 1) + ⌈p(n − 1)/k⌉ and p − 1 more (Bruck §4, §4.2), p = ⌈size/n⌉;
 *   - everywhere C1 ≥ ⌈log_{k+1} n⌉ (Bruck §2), every round of a whole-
 *     machine call moves a message (supersteps = C1), and max_q ≤ k,
 *     max_r ≤ k (1 for the one-port binomial scatter and gather).
 * Scatter-allgather needs Bruck's allgather (allgather_bruck.c); while that
 * is a placeholder (its predicted C1 is 0) its cases are skipped, loudly. */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"
#include "coll_check.h"

static unsigned P;
/* On the staged transport (the _staged ctest) a superstep costs about ten
 * times more; that run checks the transport seam, the plain run the
 * schedules: half the cases above n = 8 there. Set by main before bsp_init,
 * so on every MPI rank alike (every process must run the same cases). */
static unsigned thin = 1;

/* ---- the papers' formulas ---- */

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* ---- the reference: byte j of rank i's block in case `seed` ---- */

static unsigned char pattern(unsigned i, size_t j, unsigned seed)
{
    return (unsigned char)(i * 131u + j * 7u + seed * 13u + (j >> 8) + 1u);
}

enum { GUARD = 16, JUNK = 0xEE, GUARD_BYTE = 0x5A };

static unsigned char *alloc_filled(size_t size, int junk)
{
    unsigned char *p = malloc(size + GUARD);
    memset(p, junk, size);
    memset(p + size, GUARD_BYTE, GUARD);
    return p;
}

static int guard_ok(const unsigned char *p, size_t size)
{
    for (size_t j = 0; j < GUARD; j++)
        if (p[size + j] != GUARD_BYTE)
            return 0;
    return 1;
}

/* ---- failures, with the case that failed ---- */

static _Atomic int printed;

#define CASE_CHECK(cond, cs)                                                                 \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            atomic_fetch_add(&spmd_failures, 1);                                             \
            if (atomic_fetch_add(&printed, 1) < 30)                                          \
                fprintf(stderr, "%s:%d: failed on pid %u: %s [%s]\n", __FILE__, __LINE__,    \
                        bsp_pid(), #cond, (cs)->text);                                       \
        }                                                                                    \
    } while (0)

typedef struct rcase {
    bsp_coll_op op;
    bsp_coll_algorithm alg;
    unsigned ports;   /* as passed (0: the default) */
    size_t size;      /* broadcast: the buffer; scatter, gather: the block */
    unsigned root;    /* a rank of the group */
    int in_place;
    unsigned seed;
    char text[160];
} rcase;

static void describe(rcase *cs, unsigned n, const char *where)
{
    snprintf(cs->text, sizeof cs->text, "%s n=%u %s %s ports=%u size=%zu root=%u%s", where, n,
             bsp_coll_op_name(cs->op), bsp_coll_algorithm_name(cs->alg), cs->ports, cs->size,
             cs->root, cs->in_place ? " in-place" : "");
}

/* The ports an algorithm runs with, as the formulas count them. */
static unsigned ports_used(const rcase *cs, unsigned n)
{
    if (cs->ports)
        return cs->ports;
    return cs->alg == BSP_COLL_DIRECT && n > 2 ? n - 1 : 1;
}

/* The formulas for one group of n: exact C1, and C2 in [c2_lo, c2_hi]. */
typedef struct expect {
    uint64_t c1, c2_lo, c2_hi, k; /* k: the ports claimed (max_q, max_r ≤ k) */
} expect;

static expect formula(const rcase *cs, unsigned n)
{
    uint64_t k = ports_used(cs, n), s = cs->size;
    expect e = {0, 0, 0, k};
    if (n == 1)
        return e;
    switch (cs->alg) {
    case BSP_COLL_BINOMIAL:
        if (cs->op == BSP_COLL_BROADCAST) {
            e.c1 = ceil_log(n, k + 1); /* Saad & Schultz §3.2, k + 1 holders per holder */
            e.c2_lo = e.c2_hi = s * e.c1;
        } else {
            e.c1 = ceil_log(n, 2); /* Saad & Schultz §3.4: recursive halving */
            e.c2_lo = e.c2_hi = s * (n - 1);
            e.k = 1;
        }
        break;
    case BSP_COLL_DIRECT:
        e.c1 = ceil_div(n - 1, k);
        e.c2_lo = e.c2_hi = s * e.c1;
        break;
    case BSP_COLL_SCATTER_ALLGATHER: {
        uint64_t p = ceil_div(s, n);
        e.c1 = ceil_log(n, 2) + ceil_log(n, k + 1);
        e.c2_lo = p * (n - 1) + ceil_div(p * (n - 1), k);
        e.c2_hi = e.c2_lo + (p ? p - 1 : 0);
        break;
    }
    default:
        break;
    }
    return e;
}

/* ---- one case on one group (g NULL: the whole machine) ---- */

/* Run the case on this process's group and check its own result. */
static void run_case(const bsp_coll_group *g, rcase *cs)
{
    unsigned n = bsp_coll_group_size(g), me = bsp_coll_group_rank(g);
    size_t s = cs->size;
    bsp_coll_options opt = {.algorithm = cs->alg, .ports = cs->ports};
    int at_root = me == cs->root;
    if (cs->op == BSP_COLL_BROADCAST) {
        unsigned char *buf = alloc_filled(s, JUNK);
        if (at_root)
            for (size_t j = 0; j < s; j++)
                buf[j] = pattern(cs->root, j, cs->seed);
        bsp_coll_broadcast(g, buf, s, cs->root, &opt);
        size_t bad = s;
        for (size_t j = 0; j < s && bad == s; j++)
            if (buf[j] != pattern(cs->root, j, cs->seed))
                bad = j;
        CASE_CHECK(bad == s, cs);
        CASE_CHECK(guard_ok(buf, s), cs);
        free(buf);
    } else if (cs->op == BSP_COLL_SCATTER) {
        unsigned char *send = NULL, *recv = alloc_filled(s, JUNK);
        if (at_root) {
            send = alloc_filled((size_t)n * s, JUNK);
            for (unsigned i = 0; i < n; i++)
                for (size_t j = 0; j < s; j++)
                    send[(size_t)i * s + j] = pattern(i, j, cs->seed);
        }
        bsp_coll_scatter(g, send, at_root && cs->in_place ? (void *)BSP_COLL_IN_PLACE : recv, s,
                         cs->root, &opt);
        if (at_root) { /* send untouched; in place, the own block stays in it */
            int same = 1;
            for (unsigned i = 0; i < n; i++)
                for (size_t j = 0; j < s; j++)
                    same &= send[(size_t)i * s + j] == pattern(i, j, cs->seed);
            CASE_CHECK(same, cs);
            CASE_CHECK(guard_ok(send, (size_t)n * s), cs);
        }
        if (!(at_root && cs->in_place)) {
            int ok = 1;
            for (size_t j = 0; j < s; j++)
                ok &= recv[j] == pattern(me, j, cs->seed);
            CASE_CHECK(ok, cs);
        } else {
            for (size_t j = 0; j < s; j++) /* recv untouched */
                CASE_CHECK(recv[j] == JUNK, cs);
        }
        CASE_CHECK(guard_ok(recv, s), cs);
        free(send);
        free(recv);
    } else { /* gather */
        unsigned char *send = alloc_filled(s, JUNK), *recv = NULL;
        for (size_t j = 0; j < s; j++)
            send[j] = pattern(me, j, cs->seed);
        if (at_root) {
            recv = alloc_filled((size_t)n * s, JUNK);
            if (cs->in_place)
                for (size_t j = 0; j < s; j++)
                    recv[(size_t)me * s + j] = pattern(me, j, cs->seed);
        }
        bsp_coll_gather(g, at_root && cs->in_place ? BSP_COLL_IN_PLACE : send, recv, s,
                        cs->root, &opt);
        if (at_root) {
            int ok = 1;
            for (unsigned i = 0; i < n; i++)
                for (size_t j = 0; j < s; j++)
                    ok &= recv[(size_t)i * s + j] == pattern(i, j, cs->seed);
            CASE_CHECK(ok, cs);
            CASE_CHECK(guard_ok(recv, (size_t)n * s), cs);
        }
        for (size_t j = 0; j < s; j++) /* send untouched */
            CASE_CHECK(send[j] == pattern(me, j, cs->seed), cs);
        CASE_CHECK(guard_ok(send, s), cs);
        free(send);
        free(recv);
    }
}

/* The measured cost of a whole-machine call against the formulas. */
static void check_cost(rcase *cs, unsigned n)
{
    bsp_coll_cost m = bsp_coll_last_cost();
    if (bsp_pid() != 0)
        return;
    expect e = formula(cs, n);
    CASE_CHECK(m.c1 == e.c1, cs);
    CASE_CHECK(m.supersteps == e.c1, cs); /* every round moves a message */
    CASE_CHECK(m.c2 >= e.c2_lo && m.c2 <= e.c2_hi, cs);
    CASE_CHECK(m.c1 >= ceil_log(n, e.k + 1), cs); /* Bruck §2's lower bound */
    CASE_CHECK(m.max_q <= e.k && m.max_r <= e.k, cs);
    /* The selection's formula (coll_predict_*) is the schedule's exact cost. */
    bsp_coll_options opt = {.algorithm = cs->alg, .ports = cs->ports};
    bsp_coll_choice pred = bsp_coll_predict(cs->op, n, cs->size, &opt);
    CASE_CHECK(pred.c1 == m.c1 && pred.c2 == m.c2, cs);
    if (m.c1 != e.c1 || m.c2 < e.c2_lo || m.c2 > e.c2_hi || m.max_q > e.k || m.max_r > e.k)
        if (atomic_fetch_add(&printed, 1) < 30)
            fprintf(stderr, "  measured c1=%llu c2=%llu steps=%llu max_q=%llu max_r=%llu; "
                    "expected c1=%llu c2 in [%llu, %llu], k=%llu\n",
                    (unsigned long long)m.c1, (unsigned long long)m.c2,
                    (unsigned long long)m.supersteps, (unsigned long long)m.max_q,
                    (unsigned long long)m.max_r, (unsigned long long)e.c1,
                    (unsigned long long)e.c2_lo, (unsigned long long)e.c2_hi,
                    (unsigned long long)e.k);
}

/* ---- the case lists ---- */

typedef struct algo {
    bsp_coll_op op;
    bsp_coll_algorithm alg;
    int takes_ports;
} algo;

static const algo ALGOS[] = {
    {BSP_COLL_BROADCAST, BSP_COLL_BINOMIAL, 1},
    {BSP_COLL_BROADCAST, BSP_COLL_DIRECT, 1},
    {BSP_COLL_BROADCAST, BSP_COLL_SCATTER_ALLGATHER, 1},
    {BSP_COLL_SCATTER, BSP_COLL_BINOMIAL, 0},
    {BSP_COLL_SCATTER, BSP_COLL_DIRECT, 1},
    {BSP_COLL_GATHER, BSP_COLL_BINOMIAL, 0},
    {BSP_COLL_GATHER, BSP_COLL_DIRECT, 1},
};
#define NALGOS (sizeof ALGOS / sizeof ALGOS[0])

static const size_t SIZES[] = {0, 1, 3, 8};
#define NSIZES (sizeof SIZES / sizeof SIZES[0])

static uint64_t cases_run;

/* One case on the whole machine: run, check the result and the cost. */
static void whole(bsp_coll_op op, bsp_coll_algorithm alg, unsigned ports, size_t size,
                  unsigned root, int in_place, unsigned seed)
{
    unsigned n = bsp_nprocs();
    rcase cs = {.op = op, .alg = alg, .ports = ports, .size = size, .root = root,
                .in_place = in_place, .seed = seed};
    describe(&cs, n, "machine");
    run_case(NULL, &cs);
    check_cost(&cs, n);
    if (bsp_pid() == 0)
        cases_run++;
}

/* The cases of one n on the whole machine: every combination up to n = 8,
 * thinned out above (DIRECT most: with one port it takes n − 1 rounds). */
static void machine(void)
{
    unsigned n = bsp_nprocs(), seed = 0;
    int big = n > 40;
    /* n/3, not n/2: with the root at n/2 no range of the binomial scatter
     * wraps past rank n − 1 in the user's order (n − n/2 is the first split). */
    unsigned roots[3] = {0, n - 1, n / 3};
    unsigned nroots = n == 1 ? 1 : n == 2 ? 2 : 3;
    for (size_t a = 0; a < NALGOS; a++) {
        const algo *al = &ALGOS[a];
        /* ports: 1..3, and the default (0: n − 1 for DIRECT) */
        unsigned plist[4] = {1, 2, 3, 0}, np = al->takes_ports ? 4 : 1;
        if (al->alg != BSP_COLL_DIRECT && np == 4)
            np = 3;
        int inplaces = al->op == BSP_COLL_BROADCAST ? 1 : 2;
        for (unsigned pi = 0; pi < np; pi++)
            for (unsigned si = 0; si < NSIZES; si++)
                for (unsigned ri = 0; ri < nroots; ri++)
                    for (int ip = 0; ip < inplaces; ip++) {
                        /* Fewer at large n (DIRECT with one port takes n − 1
                         * rounds): every size, root and in-place choice
                         * still comes up for every ports value. */
                        unsigned mix = si + ri + pi + (unsigned)ip;
                        int keep = 1;
                        if (al->alg == BSP_COLL_DIRECT && big)
                            keep = si == (pi + a) % NSIZES && ri == (pi + a) % nroots &&
                                   ip == (inplaces == 2 ? (int)(pi % 2) : 0);
                        else if (big)
                            keep = mix % 3 == 0;
                        else if (n > 8)
                            keep = (mix + n) % ((al->alg == BSP_COLL_DIRECT ? 4 : 2) *
                                                (n > 24 ? 2 : 1) * thin) == 0;
                        if (keep)
                            whole(al->op, al->alg, plist[pi], SIZES[si], roots[ri], ip, seed++);
                    }
    }
    /* Large sizes: a few cases (broadcast 100000 bytes; blocks of 4099). */
    if (n == 1 || n == 7 || n == 16 || n == 33 || n == 64) {
        whole(BSP_COLL_BROADCAST, BSP_COLL_BINOMIAL, 1, 100000, n / 3, 0, seed++);
        whole(BSP_COLL_BROADCAST, BSP_COLL_BINOMIAL, 3, 100000, n - 1, 0, seed++);
        whole(BSP_COLL_BROADCAST, BSP_COLL_DIRECT, 2, 100000, 0, 0, seed++);
        whole(BSP_COLL_BROADCAST, BSP_COLL_SCATTER_ALLGATHER, 1, 100000, n / 2, 0, seed++);
        whole(BSP_COLL_BROADCAST, BSP_COLL_SCATTER_ALLGATHER, 2, 100003, n - 1, 0, seed++);
        whole(BSP_COLL_SCATTER, BSP_COLL_BINOMIAL, 1, 4099, n / 3, 1, seed++);
        whole(BSP_COLL_SCATTER, BSP_COLL_DIRECT, 3, 4099, n - 1, 0, seed++);
        whole(BSP_COLL_GATHER, BSP_COLL_BINOMIAL, 1, 4099, n - 1, 0, seed++);
        whole(BSP_COLL_GATHER, BSP_COLL_DIRECT, 2, 4099, n / 3, 1, seed++);
    }
    /* The selection's choice works too (broadcast only with Bruck built:
     * it may pick scatter-allgather). */
    for (size_t si = 0; si < NSIZES; si++) {
        bsp_coll_op ops[3] = {BSP_COLL_BROADCAST, BSP_COLL_SCATTER, BSP_COLL_GATHER};
        for (unsigned o = 0; o < 3; o++) {
            rcase cs = {.op = ops[o], .alg = BSP_COLL_AUTO, .size = SIZES[si] * 100,
                        .root = n / 2, .seed = seed++};
            describe(&cs, n, "machine");
            run_case(NULL, &cs);
        }
    }
}

/* ---- groups ---- */

/* Run every algorithm on a partition given as lists, each group with its
 * own root (0, the last rank or n/3, by group and case); check each
 * process's result, and the machine's cost against the groups' formulas:
 * C1 = the largest group's, supersteps = max(1, that), C2 between the
 * largest group's and the sum of the groups'. */
static void groups(const bsp_pid_t *const *lists, const unsigned *sizes, unsigned ngroups,
                   const char *name, unsigned seed0)
{
    unsigned pid = bsp_pid(), mine = ngroups;
    for (unsigned q = 0; q < ngroups; q++)
        for (unsigned i = 0; i < sizes[q]; i++)
            if (lists[q][i] == pid)
                mine = q;
    bsp_coll_group *g = bsp_coll_group_create(lists[mine], sizes[mine]);
    unsigned seed = seed0;
    for (size_t a = 0; a < NALGOS; a++) {
        const algo *al = &ALGOS[a];
        for (unsigned ports = 1; ports <= (al->takes_ports ? 3u : 1u); ports++)
            for (size_t si = 0; si < NSIZES; si++)
                for (int ip = 0; ip < (al->op == BSP_COLL_BROADCAST ? 1 : 2); ip++) {
                    rcase cs = {.op = al->op, .alg = al->alg, .ports = ports,
                                .size = SIZES[si] * (si + 1), .in_place = ip, .seed = seed++};
                    /* each group's root: 0, the last rank, the middle, … */
                    unsigned n = sizes[mine], variant = (mine + si + (unsigned)ip) % 3;
                    cs.root = variant == 0 ? 0 : variant == 1 ? n - 1 : n / 3;
                    describe(&cs, n, name);
                    run_case(g, &cs);
                    bsp_coll_cost m = bsp_coll_last_cost();
                    if (pid != 0)
                        continue;
                    uint64_t c1 = 0, lo = 0, hi = 0;
                    for (unsigned q = 0; q < ngroups; q++) {
                        expect e = formula(&cs, sizes[q]);
                        c1 = e.c1 > c1 ? e.c1 : c1;
                        lo = e.c2_lo > lo ? e.c2_lo : lo;
                        hi += e.c2_hi;
                        CASE_CHECK(m.max_q <= e.k && m.max_r <= e.k, &cs);
                    }
                    CASE_CHECK(m.c1 == c1, &cs);
                    CASE_CHECK(m.supersteps == (c1 ? c1 : 1), &cs);
                    CASE_CHECK(m.c2 >= lo && m.c2 <= hi, &cs);
                    cases_run++;
                }
    }
    bsp_coll_group_destroy(g);
}

static void partitions(void)
{
    const unsigned p = bsp_nprocs(); /* main's P is pid 0's alone (over MPI) */
    if (p == 10) { /* uneven, shuffled: sizes 1, 3, 6 */
        static const bsp_pid_t a[] = {7}, b[] = {9, 0, 5}, c[] = {1, 8, 2, 6, 4, 3};
        const bsp_pid_t *lists[] = {a, b, c};
        unsigned sizes[] = {1, 3, 6};
        groups(lists, sizes, 3, "groups 1+3+6", 1000);
    } else if (p == 12) { /* rows of a 3 × 4 grid */
        static const bsp_pid_t r0[] = {0, 1, 2, 3}, r1[] = {4, 5, 6, 7}, r2[] = {8, 9, 10, 11};
        const bsp_pid_t *lists[] = {r0, r1, r2};
        unsigned sizes[] = {4, 4, 4};
        groups(lists, sizes, 3, "grid rows 3x4", 2000);
    } else if (p == 20) { /* columns of a 4 × 5 grid: 5 groups of 4, strided */
        bsp_pid_t cols[5][4];
        const bsp_pid_t *lists[5];
        unsigned sizes[5];
        for (unsigned j = 0; j < 5; j++) {
            for (unsigned i = 0; i < 4; i++)
                cols[j][i] = i * 5 + j;
            lists[j] = cols[j];
            sizes[j] = 4;
        }
        groups(lists, sizes, 5, "grid columns 4x5", 3000);
    } else if (p == 6) { /* all singletons: no round, one superstep */
        static const bsp_pid_t s[6][1] = {{0}, {1}, {2}, {3}, {4}, {5}};
        const bsp_pid_t *lists[] = {s[0], s[1], s[2], s[3], s[4], s[5]};
        unsigned sizes[] = {1, 1, 1, 1, 1, 1};
        groups(lists, sizes, 6, "singletons", 4000);
    }
}

static int with_groups; /* main's: the section runs partitions() instead of machine() */

static void spmd(void)
{
    bsp_begin(P);
    if (spmd_int_from_pid0(&with_groups))
        partitions();
    else
        machine();
    bsp_end();
}

int main(int argc, char **argv)
{
    const char *transport = getenv("BSPRAM_TRANSPORT");
    if (transport && strcmp(transport, "staged") == 0)
        thin = 2;
    bsp_init(spmd, argc, argv);
    for (unsigned i = 0; i < COLL_TEST_NPS; i++) {
        P = coll_test_p(i);
        spmd();
        char what[32];
        snprintf(what, sizeof what, "n = %u", P);
        CHECK_SPMD(what);
    }
    static const unsigned gp[] = {10, 12, 20, 6};
    with_groups = 1;
    for (size_t i = 0; i < sizeof gp / sizeof *gp; i++) {
        P = gp[i];
        spmd();
        CHECK_SPMD("groups");
    }
    fprintf(stderr, "test_coll_rooted: %llu cases with their cost checked\n",
            (unsigned long long)cases_run);
    return check_report("test_coll_rooted");
}
