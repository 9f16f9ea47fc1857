/* bspram's side of bench/contention.sh (figures in bench/RESULTS.md,
 * "Contention"): small, so that the script can build it against another
 * build's libbspram (the code before a change) with one compiler call.
 *   bench_contention sync P [N (2000)]
 *     an empty bsp_sync among P processes: the median over 7 repetitions of
 *     max(N, about 20 ms' worth) syncs, pid 0's clock (bsp_time);
 *   bench_contention section P [N (200)]
 *     a whole section, bsp_begin(P), one bsp_sync, bsp_end, called N times
 *     in a row from the main thread: what the OpenMP runtime's idle threads
 *     (OMP_WAIT_POLICY, GOMP_SPINCOUNT) cost between sections; the median
 *     over 7 repetitions.
 *   bench_contention pram T [N (20)]
 *     a small PRAM run, N times in a row: create a PRAM of 1024 VPs on T
 *     threads (EREW), load 2048 numbers, sum them by a balanced tree (11
 *     steps), store the sum, destroy; the median over 7 repetitions of the
 *     time per run (a run is several teams of the machine's threads, with
 *     the host's serial work between them).
 * output: <mode>,bspram,<P or T>,<us> */
#include <bsp.h>
#include <bspram.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { REPS = 7, WINDOW_MS = 20 };

static unsigned P;
static int mode, iters;
static double result; /* pid 0 writes it */

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void spmd(void)
{
    bsp_begin(P);
    if (mode == 0) {
        /* Windows of at least `iters` syncs and about WINDOW_MS: on a loaded
         * machine a window shorter than a scheduler timeslice can fall where
         * both threads happen to be running (an MPI_Barrier of 2 ranks that
         * spin then took 0.4 us over 2000 barriers, 11–58 us over 30000).
         * Pid 0's calibration sets the count for all. */
        static long n;
        bsp_push_reg(&n, sizeof n);
        bsp_sync();
        double c0 = bsp_time();
        for (int i = 0; i < 20; i++)
            bsp_sync();
        if (bsp_pid() == 0) {
            double per = (bsp_time() - c0) / 20, want = WINDOW_MS * 1e-3 / (per > 1e-9 ? per : 1e-9);
            long v = want > iters ? (long)want : iters;
            if (v > 10000000L)
                v = 10000000L;
            for (unsigned q = 0; q < bsp_nprocs(); q++)
                bsp_put(q, &v, &n, 0, sizeof v);
        }
        bsp_sync();
        double t[REPS];
        for (int r = 0; r < REPS; r++) {
            bsp_sync();
            double t0 = bsp_time();
            for (long i = 0; i < n; i++)
                bsp_sync();
            t[r] = (bsp_time() - t0) / (double)n;
        }
        qsort(t, REPS, sizeof *t, cmpd);
        if (bsp_pid() == 0)
            result = t[REPS / 2];
        bsp_pop_reg(&n);
        bsp_sync();
    } else {
        bsp_sync();
    }
    bsp_end();
}

typedef struct level {
    bspram_pram_array A;
    uint64_t active;
} level;

static void add_pairs(bspram_vp *vp, void *arg)
{
    const level *l = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i < l->active)
        bspram_vp_write(vp, l->A, i, bspram_vp_get(vp, l->A, 2 * i) + bspram_vp_get(vp, l->A, 2 * i + 1));
}

/* One small PRAM run; returns the sum (checked by the caller). */
static uint64_t pram_run(unsigned threads)
{
    enum { M = 2048 };
    static uint64_t x[M];
    for (uint64_t i = 0; i < M; i++)
        x[i] = i;
    bspram_pram_config cfg = bspram_pram_config_default(M / 2, BSPRAM_EREW);
    cfg.threads = (int)threads;
    bspram_pram *pr = bspram_pram_create(&cfg);
    level l = {bspram_pram_alloc(pr, "A", M), 0};
    bspram_pram_load(pr, l.A, x, M);
    for (l.active = M / 2; l.active >= 1; l.active /= 2)
        bspram_pram_for_all(pr, add_pairs, &l);
    uint64_t got;
    bspram_pram_store(pr, l.A, &got, 1);
    bspram_pram_destroy(pr);
    return got;
}

int main(int argc, char **argv)
{
    const char *usage = "usage: bench_contention sync|section|pram P [N]\n";
    if (argc < 3 || (strcmp(argv[1], "sync") && strcmp(argv[1], "section") && strcmp(argv[1], "pram"))) {
        fputs(usage, stderr);
        return 2;
    }
    mode = strcmp(argv[1], "sync") == 0 ? 0 : strcmp(argv[1], "section") == 0 ? 1 : 2;
    P = (unsigned)atoi(argv[2]);
    iters = argc > 3 ? atoi(argv[3]) : mode == 0 ? 2000 : mode == 1 ? 200 : 20;
    if (P < 1 || iters < 1) {
        fputs(usage, stderr);
        return 2;
    }
    if (mode == 2) {
        double t[REPS];
        for (int r = 0; r < REPS; r++) {
            double t0 = now();
            for (int i = 0; i < iters; i++)
                if (pram_run(P) != 2047ull * 2048 / 2) {
                    fprintf(stderr, "bench_contention pram: wrong sum\n");
                    return 1;
                }
            t[r] = (now() - t0) / iters;
        }
        qsort(t, REPS, sizeof *t, cmpd);
        printf("pram,bspram,%u,%.3f\n", P, t[REPS / 2] * 1e6);
        return 0;
    }
    bsp_init(spmd, argc, argv);
    double us;
    if (mode == 0) {
        spmd();
        us = result * 1e6;
    } else {
        double t[REPS];
        for (int r = 0; r < REPS; r++) {
            double t0 = now();
            for (int i = 0; i < iters; i++)
                spmd();
            t[r] = (now() - t0) / iters;
        }
        qsort(t, REPS, sizeof *t, cmpd);
        us = t[REPS / 2] * 1e6;
    }
    printf("%s,bspram,%u,%.3f\n", argv[1], P, us);
    return 0;
}
