/* bspram's side of bench/contention.sh (figures in bench/RESULTS.md,
 * "Contention"): small, so that the script can build it against another
 * build's libbspram (the code before a change) with one compiler call.
 *   bench_contention sync P [N (2000)]
 *     an empty bsp_sync among P processes: the median over 7 repetitions of
 *     N syncs, pid 0's clock (bsp_time);
 *   bench_contention section P [N (200)]
 *     a whole section, bsp_begin(P), one bsp_sync, bsp_end, called N times
 *     in a row from the main thread: what the OpenMP runtime's idle threads
 *     (OMP_WAIT_POLICY, GOMP_SPINCOUNT) cost between sections; the median
 *     over 7 repetitions.
 * output: <mode>,bspram,<P>,<us> */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { REPS = 7 };

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
        double t[REPS];
        for (int r = 0; r < REPS; r++) {
            bsp_sync();
            double t0 = bsp_time();
            for (int i = 0; i < iters; i++)
                bsp_sync();
            t[r] = (bsp_time() - t0) / iters;
        }
        qsort(t, REPS, sizeof *t, cmpd);
        if (bsp_pid() == 0)
            result = t[REPS / 2];
    } else {
        bsp_sync();
    }
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "sync") && strcmp(argv[1], "section"))) {
        fprintf(stderr, "usage: bench_contention sync|section P [N]\n");
        return 2;
    }
    mode = strcmp(argv[1], "sync") == 0 ? 0 : 1;
    P = (unsigned)atoi(argv[2]);
    iters = argc > 3 ? atoi(argv[3]) : mode == 0 ? 2000 : 200;
    if (P < 1 || iters < 1) {
        fprintf(stderr, "usage: bench_contention sync|section P [N]\n");
        return 2;
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
