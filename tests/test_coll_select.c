/* The selection (coll/select.c): for every operation, n and block size, the
 * choice is the least predicted C1·l + H·g among every algorithm of the
 * operation and, for Bruck's index, every radix 2..n (each forced choice's
 * prediction from bsp_coll_predict); H is min(k, n − 1)·C2, a k-port round's
 * h at most k of its largest messages; its cost is c1·l + h·g; ties go to
 * the fewer rounds. With ports 0 the candidates are each algorithm with one
 * port and, where it takes ports, with n − 1. At the extremes it picks what Bruck §3.5 says: with
 * rounds dear (l ≫ g·b) the fewest rounds — radix 2 for the index — and
 * with data dear (l → 0) the least data — the direct index, radix n. No BSP
 * section is needed: selection is local. */
#include <bsp.h>
#include <bsp_coll.h>
#include <math.h>
#include <stdio.h>

#include "check.h"

static const bsp_coll_algorithm ALGS[] = {BSP_COLL_BRUCK, BSP_COLL_DIRECT, BSP_COLL_RING,
                                          BSP_COLL_BINOMIAL, BSP_COLL_SCATTER_ALLGATHER,
                                          BSP_COLL_DOUBLING, BSP_COLL_DISSEMINATION, BSP_COLL_RABENSEIFNER};
static void select_bad(void *arg)
{
    const double *gl = arg;
    bsp_coll_select(BSP_COLL_ALLGATHER, 8, 8, 1, gl[0], gl[1]);
}

/* Which algorithms each operation has (bsp_coll.h). */
static int has(bsp_coll_op op, bsp_coll_algorithm a)
{
    switch (op) {
    case BSP_COLL_BROADCAST:
        return a == BSP_COLL_BINOMIAL || a == BSP_COLL_SCATTER_ALLGATHER || a == BSP_COLL_DIRECT;
    case BSP_COLL_SCATTER: case BSP_COLL_GATHER:
        return a == BSP_COLL_BINOMIAL || a == BSP_COLL_DIRECT;
    case BSP_COLL_REDUCE:
        return a == BSP_COLL_BINOMIAL || a == BSP_COLL_DIRECT || a == BSP_COLL_RABENSEIFNER;
    case BSP_COLL_ALLGATHER: return a == BSP_COLL_BRUCK || a == BSP_COLL_RING || a == BSP_COLL_DIRECT;
    case BSP_COLL_ALLTOALL: return a == BSP_COLL_BRUCK || a == BSP_COLL_DIRECT;
    case BSP_COLL_ALLREDUCE:
        return a == BSP_COLL_DOUBLING || a == BSP_COLL_DISSEMINATION || a == BSP_COLL_RABENSEIFNER;
    default:
        return a == BSP_COLL_DISSEMINATION || a == BSP_COLL_BINOMIAL || a == BSP_COLL_DIRECT;
    }
}
static int one_port_only(bsp_coll_op op, bsp_coll_algorithm a)
{
    return a == BSP_COLL_RING || a == BSP_COLL_DOUBLING || a == BSP_COLL_RABENSEIFNER ||
           (a == BSP_COLL_BINOMIAL && op != BSP_COLL_BROADCAST) ||
           (a == BSP_COLL_DISSEMINATION && op == BSP_COLL_SCAN);
}

int main(void)
{
    const double gs[] = {0.1, 1, 10}, ls[] = {0, 100, 1e4, 1e9};
    const unsigned ns[] = {1, 2, 3, 7, 8, 16, 31, 64};
    const size_t bs[] = {0, 8, 4096};
    for (int op = 0; op < 8; op++)
        for (size_t in = 0; in < sizeof ns / sizeof *ns; in++)
            for (size_t ib = 0; ib < sizeof bs / sizeof *bs; ib++)
                for (unsigned k = 1; k <= 2; k++)
                    for (size_t ig = 0; ig < 3; ig++)
                        for (size_t il = 0; il < 4; il++) {
                            unsigned n = ns[in];
                            double g = gs[ig], l = ls[il];
                            bsp_coll_choice ch = bsp_coll_select(op, n, bs[ib], k, g, l);
                            const uint64_t kk = n < 2 ? 1 : k < n - 1 ? k : n - 1;
                            CHECK(ch.h == kk * ch.c2);
                            CHECK(ch.cost_ns == (double)ch.c1 * l + (double)ch.h * g);
                            CHECK(has(op, ch.algorithm) && ch.ports == k);
                            /* No forced choice is better. */
                            double best = INFINITY;
                            for (size_t a = 0; a < sizeof ALGS / sizeof *ALGS; a++) {
                                if (!has(op, ALGS[a]) || (k > 1 && one_port_only(op, ALGS[a])))
                                    continue;
                                unsigned rmax = op == BSP_COLL_ALLTOALL && ALGS[a] == BSP_COLL_BRUCK && n > 2 ? n : 2;
                                for (unsigned r = 2; r <= rmax; r++) {
                                    bsp_coll_options o = {.algorithm = ALGS[a], .ports = k,
                                                          .radix = op == BSP_COLL_ALLTOALL && ALGS[a] == BSP_COLL_BRUCK ? r : 0};
                                    bsp_coll_choice f = bsp_coll_predict(op, n, bs[ib], &o);
                                    double cost = (double)f.c1 * l + (double)(kk * f.c2) * g;
                                    best = cost < best ? cost : best;
                                }
                            }
                            CHECK(ch.cost_ns <= best);
                        }
    /* Ports 0: the least of every algorithm with one port and, where it takes
     * ports, n − 1; for small blocks with l dear the direct schedule's single
     * superstep (broadcast of 8 bytes on 8 processes: one round, not 3). */
    for (int op = 0; op < 8; op++)
        for (size_t in = 0; in < sizeof ns / sizeof *ns; in++)
            for (size_t ib = 0; ib < sizeof bs / sizeof *bs; ib++)
                for (size_t il = 0; il < 4; il++) {
                    unsigned n = ns[in];
                    double g = 1, l = ls[il];
                    bsp_coll_choice ch = bsp_coll_select(op, n, bs[ib], 0, g, l);
                    CHECK(ch.ports == 1 || (n > 2 && ch.ports == n - 1));
                    CHECK(ch.cost_ns == (double)ch.c1 * l + (double)ch.h * g);
                    for (unsigned k = 1; k <= (n > 2 ? n - 1 : 1); k += (n > 3 ? n - 2 : 1)) {
                        bsp_coll_choice f = bsp_coll_select(op, n, bs[ib], k, g, l);
                        CHECK(ch.cost_ns <= f.cost_ns);
                    }
                }
    /* Long allreduce operands: Rabenseifner's 2m(1 − 1/n) bytes beat
     * recursive doubling's m·log2 n (16 members, 1 MiB: 2 MiB against 4). */
    bsp_coll_choice longer = bsp_coll_select(BSP_COLL_ALLREDUCE, 16, 1 << 20, 1, 1, 1000);
    CHECK(longer.algorithm == BSP_COLL_RABENSEIFNER && longer.c1 == 8 && longer.c2 == 2 * 15 * 65536);
    bsp_coll_choice one = bsp_coll_select(BSP_COLL_BROADCAST, 8, 8, 0, 1, 1000);
    CHECK(one.algorithm == BSP_COLL_DIRECT && one.ports == 7 && one.c1 == 1 && one.h == 7 * 8);
    /* The extremes of Bruck §3.5, for the index on 16 processes. */
    bsp_coll_choice rounds = bsp_coll_select(BSP_COLL_ALLTOALL, 16, 64, 1, 1, 1e9);
    CHECK(rounds.algorithm == BSP_COLL_BRUCK && rounds.radix == 2 && rounds.c1 == 4);
    bsp_coll_choice data = bsp_coll_select(BSP_COLL_ALLTOALL, 16, 64, 1, 1, 0);
    CHECK(data.c1 == 15 && data.c2 == 64 * 15); /* radix 16, or 15: the same schedule cost */
    /* Allgather: Bruck's concatenation is optimal in both measures. */
    bsp_coll_choice cat = bsp_coll_select(BSP_COLL_ALLGATHER, 13, 8, 1, 1, 1000);
    CHECK(cat.algorithm == BSP_COLL_BRUCK && cat.c1 == 4 && cat.c2 == 8 * 12);
    /* A NaN or infinite g or l is refused in one line (a NaN cost once
     * compared false with every other and the pick was arbitrary). */
    static const double bad[][2] = {{NAN, 1}, {1, NAN}, {INFINITY, 1}, {1, -INFINITY}};
    for (int i = 0; i < 4; i++)
        check_death("bsp_coll_select, g or l not finite", select_bad, (void *)bad[i],
                    "bspram: bsp_coll_select(op=allgather, n=8, block=8, g=", 1, 10);
    check_death("bsp_coll_select, g = NaN", select_bad, (void *)bad[0],
                "g=nan, l=1): g and l must be finite", 1, 10);
    return check_report("test_coll_select");
}
