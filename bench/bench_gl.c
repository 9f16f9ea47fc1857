/* l and g of a BSPlib program, portable: built against libbspram (shared
 * memory) and against libbspram-mpi (MPI ranks), the same program measures
 * both (bench/mpi_vs_shm.sh runs them beside plain Open MPI, mpi_ref.c):
 *   l        an empty bsp_sync;
 *   g_word   per 8-byte bsp_put, each process putting h words to the next
 *            process per superstep: the slope between h = 256 and h = 4096;
 *   g_byte   per byte of a 1 MiB bsp_put to the next process per superstep
 *            (the time of that superstep less l, over 2^20).
 * Each figure is the median of 7 repetitions, timed by pid 0 with bsp_time
 * around N supersteps. Its parameters come from the command line, read before
 * bsp_init, so every MPI rank has them.
 * usage: bench_gl P [iterations (1000)]
 * output: gl,<P>,<l us>,<g_word ns>,<g_byte ns> */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned P;
static int iters = 1000;

enum { REPS = 7, H_LO = 256, H_HI = 4096, MIB = 1 << 20 };

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median over REPS of the time per superstep of `n` supersteps in which each
 * process puts `words` words (or one put of `bytes`) to the next. */
static double per_superstep(int n, int words, size_t bytes, char *src, char *dst)
{
    const unsigned p = bsp_nprocs(), to = (bsp_pid() + 1) % p;
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        bsp_sync();
        double t0 = bsp_time();
        for (int k = 0; k < n; k++) {
            for (int w = 0; w < words; w++)
                bsp_put(to, src + 8 * w, dst, 8 * (size_t)w, 8);
            if (bytes)
                bsp_put(to, src, dst, 0, bytes);
            bsp_sync();
        }
        t[r] = (bsp_time() - t0) / n;
    }
    qsort(t, REPS, sizeof *t, cmpd);
    return t[REPS / 2];
}

static void spmd(void)
{
    bsp_begin(P);
    char *src = calloc(MIB, 1), *dst = calloc(MIB, 1);
    bsp_push_reg(dst, MIB);
    bsp_sync();
    double l = per_superstep(iters, 0, 0, src, dst);
    double lo = per_superstep(iters / 10 + 1, H_LO, 0, src, dst);
    double hi = per_superstep(iters / 10 + 1, H_HI, 0, src, dst);
    double big = per_superstep(iters / 20 + 1, 0, MIB, src, dst);
    if (bsp_pid() == 0)
        printf("gl,%u,%.3f,%.2f,%.4f\n", bsp_nprocs(), l * 1e6, (hi - lo) / (H_HI - H_LO) * 1e9,
               (big - l) / MIB * 1e9);
    bsp_pop_reg(dst);
    bsp_sync();
    free(src);
    free(dst);
    bsp_end();
}

int main(int argc, char **argv)
{
    P = argc > 1 ? (unsigned)atoi(argv[1]) : 2;
    iters = argc > 2 ? atoi(argv[2]) : 1000;
    if (P < 1 || iters < 20) {
        fprintf(stderr, "usage: bench_gl P [iterations >= 20]\n");
        return 2;
    }
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
