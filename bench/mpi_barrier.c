/* Open MPI's MPI_Barrier, the reference of bench/contention.sh for an empty
 * bsp_sync: the median of 7 repetitions of N barriers, rank 0's clock.
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
    double t[REPS];
    for (int k = 0; k < REPS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++)
            MPI_Barrier(MPI_COMM_WORLD);
        t[k] = (MPI_Wtime() - t0) / iters;
    }
    qsort(t, REPS, sizeof *t, cmpd);
    if (rank == 0)
        printf("barrier,openmpi,%d,%.3f\n", size, t[REPS / 2] * 1e6);
    MPI_Finalize();
    return 0;
}
