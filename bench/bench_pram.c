/* Benchmark of the PRAM layer (pram/pram.h). Three parts, each timed in one
 * run beside its reference; every time is the median of `reps` repetitions
 * (the machine is shared: noise only adds), with the range.
 *
 *   reduce    2^24 scatter-reduce(sum) operations by n = 2^20 VPs (k = 16 per
 *             VP) on CRCW-combining, p = 4096, T threads, at degrees 1, 64,
 *             4096 and 2^20 (every target cell hit exactly d times, targets
 *             random), beside a sequential loop and an OpenMP loop of atomic
 *             adds on a plain array. 2^24 / d target cells among max(2^20,
 *             2^24 / d) cells: degree 1 needs 2^24 cells. The PRAM runs with
 *             its default engine options (AUTO, no degree hint) and with the
 *             degree as AUTO's hint.
 *   slack     one EREW step (read and write a random permutation) and one
 *             CRCW-arbitrary step (every cell read by 64 VPs and written by
 *             64) at n/p = 1, 4, …, 1024 on p = 1024: the slowdown of
 *             bspram_pram_stats_of (charge / (steps · n/p)), median over
 *             `reps` seeds, and the step's wall time. The table also goes to
 *             a data file for bench/pram_slack.gp.
 *   atomics   the goals' comparison with OpenMP atomics: 2^24 operations by
 *             2^20 VPs (k = 16), p = 4096, T threads, default settings (AUTO
 *             without a hint), at degree 1, 64 and all to one cell: PRAM
 *             scatter-reduce(sum) against `#pragma omp atomic` adds on a plain
 *             array, and PRAM fetch-and-add against `#pragma omp atomic
 *             capture`; the four alternate round by round (the cores are
 *             shared), after one untimed round of each PRAM operation;
 *             medians and the ratios PRAM / atomics.
 *   examples  every PRAM example (examples/pram_*.c) at n = 2^20 (the
 *             O(1) maximum at n = 2^10, 2^20 VPs): the wall time of its PRAM
 *             steps and of its whole run (create, load, steps, store) beside
 *             the plain sequential C code of the same computation that the
 *             example checks itself against.
 *
 *   bench_pram [part|all] [reps] [threads] [slack data file]
 *              (part: reduce, atomics, slack, examples; "all" runs all but atomics)
 *              (defaults: all 5 2 pram_slack.dat)
 */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "examples/pram/example.h"
#include "hash/random.h"
#include "pram/pram.h"

#define MAX_REPS 64

static double now(void) { return bspram__clock(); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of t[0..n) (sorted in place); lo and hi get the range. */
static double median(double *t, int n, double *lo, double *hi)
{
    qsort(t, (size_t)n, sizeof t[0], cmp_double);
    if (lo)
        *lo = t[0];
    if (hi)
        *hi = t[n - 1];
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

static void *words(uint64_t n)
{
    void *w = calloc(n ? n : 1, sizeof(uint64_t));
    if (!w) {
        fprintf(stderr, "bench_pram: out of memory (%" PRIu64 " words)\n", n);
        exit(1);
    }
    return w;
}

/* ---- part 1: scatter-reduce against loops ---- */

/* t[0..ops): `targets` distinct random cells of [0, cells), each hit ops/targets
 * times, in a random order (a random permutation's first ones, shuffled). */
static void make_targets(uint64_t *t, uint64_t ops, uint64_t targets, uint64_t cells, uint64_t salt)
{
    uint64_t *perm = words(cells);
    for (uint64_t i = 0; i < cells; i++)
        perm[i] = i;
    for (uint64_t i = cells; i-- > 1;) {
        uint64_t j = bspram_random_below(i + 1, 11, i, salt, 0), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    for (uint64_t j = 0; j < ops; j++)
        t[j] = perm[j % targets];
    for (uint64_t j = ops; j-- > 1;) {
        uint64_t i = bspram_random_below(j + 1, 12, j, salt, 0), x = t[j];
        t[j] = t[i];
        t[i] = x;
    }
    free(perm);
}

static void part_reduce(int reps, int threads)
{
    const uint64_t n = UINT64_C(1) << 20, k = 16, ops = n * k, p = 4096;
    const uint64_t degrees[] = {1, 64, 4096, UINT64_C(1) << 20};
    const unsigned add = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    printf("## scatter-reduce(sum): %" PRIu64 " operations, n = %" PRIu64 " VPs x k = %" PRIu64
           ", p = %" PRIu64 ", T = %d, median of %d\n\n",
           ops, n, k, p, threads, reps);
    printf("| degree | cells | sequential (Mop/s) | atomic, T = %d (Mop/s) | PRAM AUTO (Mop/s) | PRAM AUTO:d (Mop/s) "
           "| atomic / PRAM AUTO | atomic / PRAM AUTO:d | slowdown AUTO | slowdown AUTO:d |\n"
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
           threads);
    for (size_t di = 0; di < sizeof degrees / sizeof degrees[0]; di++) {
        const uint64_t d = degrees[di], targets = ops / d, cells = targets > n ? targets : n;
        /* The targets: `targets` distinct random cells, each hit d times. */
        uint64_t *t = words(ops), *v = words(ops);
        make_targets(t, ops, targets, cells, d);
        for (uint64_t j = 0; j < ops; j++)
            v[j] = bspram_random_below(1000, 13, j, 0, 0) + 1;

        uint64_t *seq = words(cells), *at = words(cells), *got = words(cells);
        double ts[MAX_REPS], ta[MAX_REPS], tp[2][MAX_REPS];
        double slow[2] = {0, 0};
        int bad = 0;
        for (int r = 0; r < reps; r++) {
            memset(seq, 0, cells * sizeof *seq);
            double t0 = now();
            for (uint64_t j = 0; j < ops; j++)
                seq[t[j]] += v[j];
            ts[r] = now() - t0;
            memset(at, 0, cells * sizeof *at);
            t0 = now();
#pragma omp parallel for num_threads(threads) schedule(static)
            for (uint64_t j = 0; j < ops; j++)
                __atomic_fetch_add(&at[t[j]], v[j], __ATOMIC_RELAXED);
            ta[r] = now() - t0;
            bad |= memcmp(seq, at, cells * sizeof *seq) != 0;
        }
        for (int hint = 0; hint < 2; hint++) {
            bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CRCW_COMBINING);
            c.p = p;
            c.threads = threads;
            c.registers = 0;
            c.seed = 5;
            if (hint)
                c.combine.degree_hint = d;
            bspram_pram *P = bspram_pram_create(&c);
            bspram_pram_array A = bspram_pram_alloc(P, "A", cells);
            uint64_t *names = words(ops);
            for (uint64_t j = 0; j < ops; j++)
                names[j] = bspram_pram_cell(P, A, t[j]);
            for (int r = 0; r < reps; r++) {
                memset(got, 0, cells * sizeof *got);
                bspram_pram_load(P, A, got, cells);
                double t0 = now();
                bspram_pram_scatter_reduce(P, k, names, v, add);
                tp[hint][r] = now() - t0;
                bspram_pram_store(P, A, got, cells);
                bad |= memcmp(seq, got, cells * sizeof *seq) != 0;
            }
            slow[hint] = bspram_pram_stats_of(P).slowdown;
            bspram_pram_destroy(P);
            free(names);
        }
        double ms = median(ts, reps, NULL, NULL), ma = median(ta, reps, NULL, NULL);
        double m0 = median(tp[0], reps, NULL, NULL), m1 = median(tp[1], reps, NULL, NULL);
        printf("| %" PRIu64 " | %" PRIu64 " | %.1f | %.1f | %.1f | %.1f | %.1f× | %.1f× | %.2f | %.2f |%s\n", d, cells,
               ops / ms / 1e6, ops / ma / 1e6, ops / m0 / 1e6, ops / m1 / 1e6, m0 / ma, m1 / ma, slow[0], slow[1],
               bad ? " RESULTS DIFFER" : "");
        fflush(stdout);
        free(t);
        free(v);
        free(seq);
        free(at);
        free(got);
    }
    printf("\n");
}

/* ---- part 1b: against OpenMP atomics, alternating ---- */


static void part_atomics(int reps, int threads)
{
    const uint64_t n = UINT64_C(1) << 20, k = 16, ops = n * k, p = 4096;
    const uint64_t degrees[] = {1, 64, ops}; /* ops: all to one cell */
    const unsigned add = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    printf("## against OpenMP atomics: %" PRIu64 " operations, n = %" PRIu64 " VPs x k = %" PRIu64
           ", p = %" PRIu64 ", T = %d, default settings, rounds alternate, median of %d\n\n",
           ops, n, k, p, threads, reps);
    printf("| degree | cells | omp atomic (Mop/s) | PRAM scatter-reduce (Mop/s) | PRAM / atomic "
           "| omp atomic capture (Mop/s) | PRAM fetch-and-add (Mop/s) | PRAM / atomic capture |\n"
           "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t di = 0; di < sizeof degrees / sizeof degrees[0]; di++) {
        const uint64_t d = degrees[di], targets = ops / d, cells = targets > n ? targets : n;
        uint64_t *t = words(ops), *v = words(ops), *got = words(ops), *fa = words(ops);
        make_targets(t, ops, targets, cells, d);
        for (uint64_t j = 0; j < ops; j++)
            v[j] = bspram_random_below(1000, 13, j, 0, 0) + 1;
        uint64_t *at = words(cells), *pc = words(cells);
        bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CRCW_COMBINING);
        c.p = p;
        c.threads = threads;
        c.registers = 0;
        c.seed = 5;
        bspram_pram *P = bspram_pram_create(&c);
        bspram_pram_array A = bspram_pram_alloc(P, "A", cells);
        uint64_t *names = words(ops);
        for (uint64_t j = 0; j < ops; j++)
            names[j] = bspram_pram_cell(P, A, t[j]);
        double ta[MAX_REPS], tp[MAX_REPS], tc[MAX_REPS], tf[MAX_REPS];
        int bad = 0;
        /* One untimed round of each PRAM operation first: the atomic loops
         * run on arrays already touched (memset), and the PRAM's buffers
         * (requests, answers, the router's arenas) are reused from the second
         * phase on; a first phase spends much of its time clearing fresh
         * pages (perf: clear_page_erms 26 % of a one-round run). */
        bspram_pram_scatter_reduce(P, k, names, v, add);
        bspram_pram_fetch_op(P, k, names, v, add, got);
        for (int r = 0; r < reps; r++) {
            memset(at, 0, cells * sizeof *at);
            double t0 = now();
#pragma omp parallel for num_threads(threads) schedule(static)
            for (uint64_t j = 0; j < ops; j++) {
#pragma omp atomic
                at[t[j]] += v[j];
            }
            ta[r] = now() - t0;

            memset(pc, 0, cells * sizeof *pc);
            bspram_pram_load(P, A, pc, cells);
            t0 = now();
            bspram_pram_scatter_reduce(P, k, names, v, add);
            tp[r] = now() - t0;
            bspram_pram_store(P, A, pc, cells);
            bad |= memcmp(at, pc, cells * sizeof *at) != 0;

            memset(at, 0, cells * sizeof *at);
            t0 = now();
#pragma omp parallel for num_threads(threads) schedule(static)
            for (uint64_t j = 0; j < ops; j++) {
                uint64_t old;
#pragma omp atomic capture
                {
                    old = at[t[j]];
                    at[t[j]] += v[j];
                }
                fa[j] = old;
            }
            tc[r] = now() - t0;

            memset(pc, 0, cells * sizeof *pc);
            bspram_pram_load(P, A, pc, cells);
            t0 = now();
            bspram_pram_fetch_op(P, k, names, v, add, got);
            tf[r] = now() - t0;
            bspram_pram_store(P, A, pc, cells);
            bad |= memcmp(at, pc, cells * sizeof *at) != 0;
            /* The fetched values: each op's own answer plus its value is at
             * most the cell's total; their sum over all ops checks nothing
             * order-free, so check that each answer is below the total. */
            for (uint64_t j = 0; j < ops; j++)
                bad |= got[j] + v[j] > pc[t[j]];
        }
        double ma = median(ta, reps, NULL, NULL), mp = median(tp, reps, NULL, NULL);
        double mc = median(tc, reps, NULL, NULL), mf = median(tf, reps, NULL, NULL);
        char deg[32];
        if (d == ops)
            snprintf(deg, sizeof deg, "all (%" PRIu64 ")", d);
        else
            snprintf(deg, sizeof deg, "%" PRIu64, d);
        printf("| %s | %" PRIu64 " | %.1f | %.1f | %.2f× | %.1f | %.1f | %.2f× |%s\n", deg, cells, ops / ma / 1e6,
               ops / mp / 1e6, mp / ma, ops / mc / 1e6, ops / mf / 1e6, mf / mc, bad ? " RESULTS DIFFER" : "");
        fflush(stdout);
        bspram_pram_destroy(P);
        free(names);
        free(t);
        free(v);
        free(got);
        free(fa);
        free(at);
        free(pc);
    }
    printf("\n");
}

/* ---- part 2: slowdown against slack ---- */

typedef struct {
    double slowdown, seconds;
} step_cost;

/* One step on a fresh PRAM: EREW (read perm(i), write perm'(i)) or
 * CRCW-arbitrary (every cell read by 64 VPs and written by 64). */
static step_cost one_step(uint64_t n, uint64_t p, int crcw, uint64_t seed, int threads, int hint)
{
    bspram_pram_config c = bspram_pram_config_default(n, crcw ? BSPRAM_CRCW_ARBITRARY : BSPRAM_EREW);
    c.p = p;
    c.threads = threads;
    c.registers = 0;
    c.seed = seed;
    if (hint)
        c.combine.degree_hint = crcw ? 64 : 1;
    bspram_pram *P = bspram_pram_create(&c);
    uint64_t cells = crcw ? n / 64 : n;
    bspram_pram_array A = bspram_pram_alloc(P, "A", cells);
    uint64_t *rc = words(n), *wc = words(n), *val = words(n), *perm = words(n);
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t i = 0; i < n; i++)
            perm[i] = i;
        for (uint64_t i = n; i-- > 1;) {
            uint64_t j = bspram_random_below(i + 1, seed, i, (uint64_t)pass, 21), x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        for (uint64_t i = 0; i < n; i++)
            (pass ? wc : rc)[i] = bspram_pram_cell(P, A, perm[i] % cells);
    }
    double t0 = now();
    bspram_pram_gather(P, 1, rc, val);
    bspram_pram_scatter(P, 1, wc, val);
    step_cost sc = {bspram_pram_stats_of(P).slowdown, now() - t0};
    bspram_pram_destroy(P);
    free(rc);
    free(wc);
    free(val);
    free(perm);
    return sc;
}

static void part_slack(int reps, int threads, const char *dat)
{
    const uint64_t p = 1024, slacks[] = {1, 4, 16, 64, 256, 1024};
    FILE *f = fopen(dat, "w");
    if (!f)
        fprintf(stderr, "bench_pram: cannot write %s; the table is printed only\n", dat);
    else
        fprintf(f, "# bench_pram slack: p = %" PRIu64 ", T = %d, median over %d seeds\n"
                   "# slack erew_auto crcw_auto erew_hint crcw_hint erew_ms crcw_ms\n", p, threads, reps);
    printf("## slowdown against slack: one step, p = %" PRIu64 ", T = %d, median over %d seeds\n\n", p, threads,
           reps);
    printf("| n/p | n | EREW, AUTO | CRCW (degree 64), AUTO | EREW, AUTO:1 | CRCW, AUTO:64 | EREW step (ms) | CRCW step (ms) |\n"
           "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t si = 0; si < sizeof slacks / sizeof slacks[0]; si++) {
        uint64_t n = p * slacks[si];
        double s[4][MAX_REPS], ms[2][MAX_REPS], med[4];
        for (int r = 0; r < reps; r++)
            for (int kind = 0; kind < 4; kind++) {
                step_cost c = one_step(n, p, kind & 1, (uint64_t)r + 1, threads, kind >> 1);
                s[kind][r] = c.slowdown;
                if (kind < 2)
                    ms[kind][r] = 1e3 * c.seconds;
            }
        for (int kind = 0; kind < 4; kind++)
            med[kind] = median(s[kind], reps, NULL, NULL);
        double me = median(ms[0], reps, NULL, NULL), mc = median(ms[1], reps, NULL, NULL);
        printf("| %" PRIu64 " | %" PRIu64 " | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f |\n", slacks[si], n, med[0],
               med[1], med[2], med[3], me, mc);
        if (f)
            fprintf(f, "%" PRIu64 " %.4f %.4f %.4f %.4f %.3f %.3f\n", slacks[si], med[0], med[1], med[2], med[3], me,
                    mc);
        fflush(stdout);
    }
    if (f)
        fclose(f);
    printf("\n");
}

/* ---- part 3: the examples at n = 2^20 ---- */

static void part_examples(int reps, int threads)
{
    printf("## the PRAM examples at n = 2^20 (max_crcw: n = 2^10, 2^20 VPs), p = 4096, T = %d, median of %d\n\n",
           threads, reps);
    printf("| example | model | VPs | steps | work | slowdown | PRAM steps (s) | whole PRAM run (s) | sequential (s) "
           "| steps / sequential |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < pram_example_count; i++) {
        const pram_example *ex = pram_examples[i];
        pram_example_params prm;
        memset(&prm, 0, sizeof prm);
        prm.n = !strcmp(ex->name, "max_crcw") ? 1024 : UINT64_C(1) << 20;
        prm.seed = 1;
        prm.threads = threads;
        prm.model = ex->model;
        double tp[MAX_REPS], tw[MAX_REPS], ts[MAX_REPS];
        pram_example_result res;
        int ok = 1;
        for (int r = 0; r < reps; r++) {
            memset(&res, 0, sizeof res);
            ex->run(&prm, &res);
            ok &= res.verified;
            tp[r] = res.pram_seconds;
            tw[r] = res.pram_seconds + res.setup_seconds;
            ts[r] = res.seq_seconds;
            free(res.report);
        }
        double lo, hi;
        double mp = median(tp, reps, &lo, &hi), mw = median(tw, reps, NULL, NULL);
        double msq = median(ts, reps, NULL, NULL);
        printf("| %s | %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %.2f | %.2f (%.2f–%.2f) | %.2f | %.4f | %.0f× |%s\n",
               ex->name, bspram_pram_model_name(ex->model), res.vps, res.stats.steps, res.stats.work,
               res.stats.slowdown, mp, lo, hi, mw, msq, msq > 0 ? mp / msq : 0, ok ? "" : " NOT VERIFIED");
        fflush(stdout);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "all";
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    int threads = argc > 3 ? atoi(argv[3]) : 2;
    const char *dat = argc > 4 ? argv[4] : "pram_slack.dat";
    if (reps < 1 || reps > MAX_REPS || threads < 1 || threads > 1024 ||
        (strcmp(part, "all") && strcmp(part, "reduce") && strcmp(part, "atomics") && strcmp(part, "slack") &&
         strcmp(part, "examples"))) {
        fprintf(stderr, "usage: bench_pram [all|reduce|atomics|slack|examples] [reps 1..%d] [threads] [slack data file]\n",
                MAX_REPS);
        return 2;
    }
    printf("# bench_pram %s, reps %d, T = %d (omp_get_max_threads %d)\n\n", part, reps, threads,
           omp_get_max_threads());
    if (!strcmp(part, "all") || !strcmp(part, "reduce"))
        part_reduce(reps, threads);
    if (!strcmp(part, "atomics"))
        part_atomics(reps, threads);
    if (!strcmp(part, "all") || !strcmp(part, "slack"))
        part_slack(reps, threads, dat);
    if (!strcmp(part, "all") || !strcmp(part, "examples"))
        part_examples(reps, threads);
    return 0;
}
