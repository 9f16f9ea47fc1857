/* Open MPI's MPI_Barrier, the reference of bench/contention.sh for an empty
 * bsp_sync: the median of 7 repetitions of max(N, about 20 ms' worth)
 * barriers (rank 0's calibration: bench_contention.c says why), rank 0's clock.
 * usage: mpirun -np P mpi_barrier [iterations (2000)]
 * output: barrier,openmpi,<P>,<us per barrier> */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { REPS = 7 };

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    if (iters < 1)
        iters = 2000;
    MPI_Barrier(MPI_COMM_WORLD);
    double c0 = MPI_Wtime();
    for (int i = 0; i < 20; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    double per = (MPI_Wtime() - c0) / 20, want = 20e-3 / (per > 1e-9 ? per : 1e-9);
    long n = want > iters ? (long)want : iters;
    if (n > 10000000L)
        n = 10000000L;
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    double t[REPS];
    for (int k = 0; k < REPS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < n; i++)
            MPI_Barrier(MPI_COMM_WORLD);
        t[k] = (MPI_Wtime() - t0) / (double)n;
    }
    qsort(t, REPS, sizeof *t, cmpd);
    if (rank == 0)
        printf("barrier,openmpi,%d,%.3f\n", size, t[REPS / 2] * 1e6);
    MPI_Finalize();
    return 0;
}
