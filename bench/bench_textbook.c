/* The textbook step (bspram_pram_for_all) beside the bulk calls and the
 * two-callback step (bspram_pram_step) for the same PRAM step: one step of
 * Hillis–Steele prefix sums, "for all i ≥ d in parallel: A[i] ← A[i] +
 * A[i − d]" (two reads and a write per VP), on a CREW PRAM of n VPs and p
 * components. The three forms issue the same requests in the same order, so
 * they run the same batches (the charges are checked equal); what differs
 * is the local work around them: the bulk form's host loops that build the
 * cell arrays, the two-callback form's two passes, the textbook form's two
 * runs of its body. The forms alternate within each round (the machine is
 * shared and noisy); each figure is the median over the rounds of one step's
 * wall time, and the ratios are medians of the per-round ratios.
 *
 *   bench_textbook [n] [p] [threads] [rounds]     (default 262144 4096 2 9)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bspram.h"

typedef struct step {
    bspram_pram_array A;
    uint64_t d;
} step;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void body(bspram_vp *vp, void *arg)
{
    const step *s = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i >= s->d)
        bspram_vp_write(vp, s->A, i, bspram_vp_get(vp, s->A, i) + bspram_vp_get(vp, s->A, i - s->d));
}

static void reads(bspram_vp *vp, void *arg)
{
    const step *s = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i >= s->d) {
        bspram_vp_read(vp, s->A, i);
        bspram_vp_read(vp, s->A, i - s->d);
    }
}

static void writes(bspram_vp *vp, void *arg)
{
    const step *s = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i >= s->d)
        bspram_vp_write(vp, s->A, i, bspram_vp_value(vp, 0) + bspram_vp_value(vp, 1));
}

/* The same step with the bulk calls, the host building the cell arrays. */
static void bulk(bspram_pram *P, const step *s, uint64_t n, uint64_t *cells, uint64_t *out, uint64_t *wc,
                 uint64_t *wv)
{
    const uint64_t base = bspram_pram_cell(P, s->A, 0);
    for (uint64_t i = 0; i < n; i++) {
        cells[2 * i] = i >= s->d ? base + i : BSPRAM_PRAM_NONE;
        cells[2 * i + 1] = i >= s->d ? base + i - s->d : BSPRAM_PRAM_NONE;
    }
    bspram_pram_gather(P, 2, cells, out);
    for (uint64_t i = 0; i < n; i++) {
        wc[i] = i >= s->d ? base + i : BSPRAM_PRAM_NONE;
        wv[i] = out[2 * i] + out[2 * i + 1];
    }
    bspram_pram_scatter(P, 1, wc, wv);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 262144;
    uint64_t p = argc > 2 ? strtoull(argv[2], NULL, 10) : 4096;
    int threads = argc > 3 ? atoi(argv[3]) : 2;
    int rounds = argc > 4 ? atoi(argv[4]) : 9;
    if (n < 2 || p < 1 || p > n || threads < 1 || rounds < 1 || rounds > 1000) {
        fprintf(stderr, "usage: bench_textbook [n >= 2] [p in [1, n]] [threads] [rounds in [1, 1000]]\n");
        return 2;
    }
    bspram_pram *P[3];
    step s[3];
    for (int f = 0; f < 3; f++) {
        bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CREW);
        c.p = p;
        c.threads = threads;
        c.seed = 1;
        P[f] = bspram_pram_create(&c);
        s[f].A = bspram_pram_alloc(P[f], "A", n);
        s[f].d = 1;
    }
    uint64_t *cells = malloc(2 * n * sizeof *cells), *out = malloc(2 * n * sizeof *out);
    uint64_t *wc = malloc(n * sizeof *wc), *wv = malloc(n * sizeof *wv);
    double *t[3], *r_tb = malloc((size_t)rounds * sizeof(double)), *r_cb = malloc((size_t)rounds * sizeof(double));
    for (int f = 0; f < 3; f++)
        t[f] = malloc((size_t)rounds * sizeof(double));
    for (int r = -1; r < rounds; r++) { /* round -1 warms the buffers up */
        for (int f = 0; f < 3; f++) {
            s[f].d = (uint64_t)1 << (r + 1) % 16; /* d < n: every step has requests (a textbook */
            if (s[f].d >= n)                          /* phase without any costs no superstep, a */
                s[f].d = 1;                           /* bulk one an empty batch) */
            double t0 = now();
            if (f == 0)
                bulk(P[0], &s[0], n, cells, out, wc, wv);
            else if (f == 1)
                bspram_pram_step(P[1], reads, writes, &s[1]);
            else
                bspram_pram_for_all(P[2], body, &s[2]);
            if (r >= 0)
                t[f][r] = now() - t0;
        }
        if (r >= 0) {
            r_tb[r] = t[2][r] / t[0][r];
            r_cb[r] = t[1][r] / t[0][r];
        }
    }
    bspram_pram_stats st[3];
    for (int f = 0; f < 3; f++)
        st[f] = bspram_pram_stats_of(P[f]);
    int same = st[0].charge == st[1].charge && st[0].charge == st[2].charge && st[0].work == st[2].work &&
               st[0].supersteps == st[2].supersteps;
    uint64_t *a0 = malloc(n * sizeof *a0), *a2 = malloc(n * sizeof *a2);
    bspram_pram_store(P[0], s[0].A, a0, n);
    bspram_pram_store(P[2], s[2].A, a2, n);
    same &= memcmp(a0, a2, n * sizeof *a0) == 0;
    printf("n=%" PRIu64 " p=%" PRIu64 " T=%d rounds=%d: charge %" PRIu64 " (the three forms equal: %s)\n", n, p,
           threads, rounds, st[0].charge, same ? "yes" : "NO");
    printf("bulk %.3f ms, two callbacks %.3f ms, textbook %.3f ms per step; textbook/bulk %.2f, "
           "callbacks/bulk %.2f\n", 1e3 * median(t[0], rounds), 1e3 * median(t[1], rounds),
           1e3 * median(t[2], rounds), median(r_tb, rounds), median(r_cb, rounds));
    for (int f = 0; f < 3; f++) {
        bspram_pram_destroy(P[f]);
        free(t[f]);
    }
    free(cells), free(out), free(wc), free(wv), free(r_tb), free(r_cb), free(a0), free(a2);
    return same ? 0 : 1;
}
