/* The floor under bench_gl over MPI, in plain Open MPI on the same ranks
 * (bench/mpi_vs_shm.sh): what one bspram superstep's MPI calls cost alone.
 *   l_ref    one MPI_Allreduce of nine 64-bit words (an exchange's allreduce);
 *   g_ref    per one-word put, rank r sending h messages of 24 bytes (what
 *            such a put takes in a run: the router's entry header, the
 *            destination word, the word) to rank r+1 by MPI_Alltoall of the counts
 *            and MPI_Alltoallv of the bytes (a delivery's calls): the slope
 *            between h = 256 and h = 4096;
 *   b_ref    per byte of 1 MiB so sent, less l_ref.
 * Medians of 7 repetitions of N calls; rank 0's clock.
 * usage: mpirun -np P mpi_ref [iterations (1000)]
 * output: ref,<P>,<l us>,<g_word ns>,<g_byte ns> */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REPS = 7, H_LO = 256, H_HI = 4096, MIB = 1 << 20 };

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int n, r;
static int *sc, *sd, *rc, *rd;
static char *sbuf, *rbuf;

/* One superstep's calls: the allreduce, and if bytes > 0 the counts and the payload. */
static void step(size_t bytes)
{
    uint64_t v[9] = {1}, out[9];
    MPI_Allreduce(v, out, 9, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
    if (!bytes)
        return;
    uint64_t cnt[64] = {0}, got[64];
    cnt[(r + 1) % n] = bytes;
    MPI_Alltoall(cnt, 1, MPI_UINT64_T, got, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int k = 0; k < n; k++) {
        sc[k] = (int)cnt[k];
        sd[k] = 0;
        rc[k] = (int)got[k];
        rd[k] = 0;
    }
    MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
}

static double per_step(int iters, size_t bytes)
{
    double t[REPS];
    for (int k = 0; k < REPS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++)
            step(bytes);
        t[k] = (MPI_Wtime() - t0) / iters;
    }
    qsort(t, REPS, sizeof *t, cmpd);
    return t[REPS / 2];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    int iters = argc > 1 ? atoi(argv[1]) : 1000;
    if (n > 64 || iters < 20) {
        if (r == 0)
            fprintf(stderr, "usage: mpirun -np P (P <= 64) mpi_ref [iterations >= 20]\n");
        MPI_Finalize();
        return 2;
    }
    sc = malloc(n * sizeof *sc), sd = malloc(n * sizeof *sd);
    rc = malloc(n * sizeof *rc), rd = malloc(n * sizeof *rd);
    sbuf = calloc(MIB + 64, 1), rbuf = calloc(MIB + 64, 1);
    double l = per_step(iters, 0);
    double lo = per_step(iters / 10 + 1, 24 * H_LO), hi = per_step(iters / 10 + 1, 24 * H_HI);
    double big = per_step(iters / 20 + 1, MIB);
    if (r == 0)
        printf("ref,%d,%.3f,%.2f,%.4f\n", n, l * 1e6, (hi - lo) / (H_HI - H_LO) * 1e9, (big - l) / MIB * 1e9);
    MPI_Finalize();
    return 0;
}
