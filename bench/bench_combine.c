/* Benchmark of the combining engine: wall time of bspram_combine
 * for Valiant's §4 patterns, p = 4096, v = 2^20 requests of 8-byte values
 * (REDUCE sum:u64), degrees 1..4096, with the best basis per degree (AUTO
 * with the degree as hint: Valiant's Table 2, one phase for degree ≤ 8),
 * with AUTO without a hint, and with ADAPTIVE — beside the one-phase
 * degree-1 pattern timed in the same run. Reports requests per second, the
 * time ratio against the degree-1 pattern, and the charge factor from the
 * router's records. Times are the median (and the best) of `reps` repetitions;
 * "time×" and "best×" are ratios against the degree-1 pattern's median and best.
 *
 *   bench_combine [p] [v] [threads] [reps] [max degree]
 *                 (defaults 4096 1048576 2 5 p; max degree 1: the degree-1 rows only)
 */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "combine/combine.h"
#include "combine/experiment.h"

static double now(void) { return bspram__clock(); }

typedef struct {
    double seconds; /* median */
    double best;    /* fastest repetition (the machine is shared: noise only adds) */
    double charge;  /* mean */
    char basis[BSPRAM_BASIS_TEXT_MAX];
} result;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Time `reps` batches of the row's options, each right after one batch of
 * the one-phase degree-1 pattern (interleaved, so that both see the same
 * machine: the cores are shared and the load drifts). */
static void time_pair(bspram_combiner *C, const bspram_combine_options *o, const bspram_request *req,
                      const bspram_request *base_req, const uint64_t *first, int reps, result *row,
                      result *base)
{
    double t[64], tb[64];
    bspram_combine_stats st;
    bspram_combine_options ob = bspram_combine_defaults(o->basis.p ? o->basis.p : 1);
    memset(row, 0, sizeof *row);
    memset(base, 0, sizeof *base);
    for (int r = 0; r < reps; r++) {
        ob.seed = (uint64_t)r + 1000;
        bspram_combiner_set_options(C, &ob);
        double t0 = now();
        bspram_combine(C, base_req, first, NULL, &st);
        tb[r] = now() - t0;
        base->charge += (double)st.charge / reps;
        bspram_combine_options oo = *o;
        oo.seed = (uint64_t)r + 1;
        bspram_combiner_set_options(C, &oo);
        t0 = now();
        bspram_combine(C, req, first, NULL, &st);
        t[r] = now() - t0;
        row->charge += (double)st.charge / reps;
    }
    bspram_basis_format(&st.basis, row->basis, sizeof row->basis);
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    qsort(tb, (size_t)reps, sizeof tb[0], cmp_double);
    row->seconds = t[reps / 2];
    row->best = t[0];
    base->seconds = tb[reps / 2];
    base->best = tb[0];
}

int main(int argc, char **argv)
{
    uint64_t p = argc > 1 ? strtoull(argv[1], NULL, 10) : 4096;
    uint64_t v = argc > 2 ? strtoull(argv[2], NULL, 10) : (UINT64_C(1) << 20);
    int threads = argc > 3 ? atoi(argv[3]) : 2;
    int reps = argc > 4 ? atoi(argv[4]) : 5;
    if (reps < 1 || reps > 64)
        reps = 5;
    uint64_t dmax = argc > 5 ? strtoull(argv[5], NULL, 10) : p;
    bspram_config mc = bspram_config_default(p);
    mc.threads = threads;
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_XXH3, 42);
    uint32_t seg = bspram_segment_alloc(s, v, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(p);
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    bspram_request *req = malloc(v * sizeof *req), *base_req = malloc(v * sizeof *base_req);
    uint64_t *first = malloc((p + 1) * sizeof *first);

    bspram_pattern_fill(s, seg, p, v, 1, base_req, first);
    printf("# bench_combine p=%" PRIu64 " v=%" PRIu64 " threads=%d reps=%d; times are medians (best in brackets);\n"
           "# each row is timed interleaved with the one-phase degree-1 pattern (base), ratios against it\n",
           p, v, threads, reps);
    printf("%7s  %-22s %9s %9s %16s %7s %7s %7s\n", "degree", "basis", "ms", "Mreq/s", "base ms (Mreq/s)",
           "time×", "best×", "factor");
    for (uint64_t d = 1; d <= p && d <= dmax; d *= 2) {
        char err[160];
        if (bspram_pattern_check(p, v, d, err, sizeof err))
            continue;
        bspram_pattern_fill(s, seg, p, v, d, req, first);
        const char *names[3] = {"best", "auto", "adaptive"};
        for (int k = 0; k < 3; k++) {
            bspram_combine_options oo = o;
            oo.strategy = k == 2 ? BSPRAM_STRATEGY_ADAPTIVE : BSPRAM_STRATEGY_AUTO;
            oo.degree_hint = k == 0 ? d : 0;
            result r, base;
            time_pair(C, &oo, req, base_req, first, reps, &r, &base);
            char label[sizeof "adaptive:" + BSPRAM_BASIS_TEXT_MAX];
            snprintf(label, sizeof label, "%s:%s", names[k], r.basis);
            printf("%7" PRIu64 "  %-22s %9.2f %9.1f %8.2f (%5.1f) %7.2f %7.2f %7.2f\n", d, label, 1e3 * r.seconds,
                   (double)v / r.seconds / 1e6, 1e3 * base.seconds, (double)v / base.seconds / 1e6,
                   r.seconds / base.seconds, r.best / base.best, r.charge / base.charge);
        }
    }
    free(req);
    free(base_req);
    free(first);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
    return 0;
}
