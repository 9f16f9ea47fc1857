/* Small supersteps over MPI beside Open MPI's own calls, side by side in one
 * process (bench/mpi_small.sh runs it; bench/RESULTS.md, "Over MPI"): a
 * BSPlib program linked to libbspram-mpi, one process per rank (P = ranks),
 * whose processes also call MPI themselves between the library's supersteps
 * — each process is its rank's thread that initialised MPI, so both run on
 * one thread and one clock.
 *   sync       an empty bsp_sync against MPI_Barrier;
 *   broadcast, allgather, allreduce, alltoall
 *              bsp_coll's call of 8 bytes (per peer; one int64 word to sum)
 *              against Open MPI's same call;
 *   sparse     a superstep in which each process bsp_puts 8 bytes to the
 *              next, against MPI_Barrier (the path the transport takes is
 *              the environment's: bench/mpi_small.sh runs it with
 *              BSPRAM_MPI_NBX forcing each).
 * Each pair runs REPS rounds, each round a batch of N of the library's
 * calls then a batch of N of Open MPI's, alternating, every batch started
 * by a barrier; a batch's time is the slowest process's (MPI_MAX); the
 * figure is the median over the rounds.
 * usage: mpirun -np P mpi_small [iterations (2000)] [what (all)]
 * output: small,<what>,<P>,<us bspram>,<us Open MPI> */
#include <bsp.h>
#include <bsp_coll.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combine/combine.h"

enum { REPS = 9, MAXP = 64 };

static int iters = 2000;
static const char *only = "all";

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { SYNC, BROADCAST, ALLGATHER, ALLREDUCE, ALLTOALL, SPARSE, NWHAT };
static const char *const NAMES[NWHAT] = {"sync", "broadcast", "allgather", "allreduce", "alltoall", "sparse"};

static int64_t send[MAXP], recv[MAXP], slot;

static void ours(int what, unsigned sum)
{
    const unsigned p = bsp_nprocs();
    switch (what) {
    case SYNC:
        bsp_sync();
        break;
    case BROADCAST:
        bsp_coll_broadcast(NULL, recv, 8, 0, NULL);
        break;
    case ALLGATHER:
        bsp_coll_allgather(NULL, send, recv, 8, NULL);
        break;
    case ALLREDUCE:
        bsp_coll_allreduce(NULL, send, recv, 1, sum, NULL);
        break;
    case ALLTOALL:
        bsp_coll_alltoall(NULL, send, recv, 8, NULL);
        break;
    default:
        bsp_put((bsp_pid() + 1) % p, send, &slot, 0, sizeof slot);
        bsp_sync();
        break;
    }
}

static void theirs(int what)
{
    switch (what) {
    case BROADCAST:
        MPI_Bcast(recv, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        MPI_Allgather(send, 8, MPI_BYTE, recv, 8, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case ALLREDUCE:
        MPI_Allreduce(send, recv, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLTOALL:
        MPI_Alltoall(send, 8, MPI_BYTE, recv, 8, MPI_BYTE, MPI_COMM_WORLD);
        break;
    default: /* an empty superstep, and the sparse one: a barrier is MPI's floor */
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    }
}

static double batch(int what, int lib, unsigned sum)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (lib)
            ours(what, sum);
        else
            theirs(what);
    }
    double t = (MPI_Wtime() - t0) / iters, worst = 0;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int ranks = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (bsp_nprocs() != (unsigned)ranks || bsp_nprocs() > MAXP)
        bsp_abort("mpi_small: run one process per rank (mpirun -np P, P <= %d)\n", MAXP);
    bsp_push_reg(&slot, sizeof slot);
    bsp_sync();
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_I64);
    for (int w = 0; w < NWHAT; w++) {
        if (strcmp(only, "all") != 0 && strcmp(only, NAMES[w]) != 0)
            continue;
        for (int k = 0; k < MAXP; k++)
            send[k] = (int64_t)bsp_pid() * MAXP + k;
        double t[2][REPS];
        ours(w, sum); /* the first call of each (registrations, buffers) untimed */
        theirs(w);
        for (int r = 0; r < REPS; r++)
            for (int lib = 1; lib >= 0; lib--)
                t[lib][r] = batch(w, lib, sum);
        qsort(t[0], REPS, sizeof(double), cmpd);
        qsort(t[1], REPS, sizeof(double), cmpd);
        if (bsp_pid() == 0)
            printf("small,%s,%u,%.3f,%.3f\n", NAMES[w], bsp_nprocs(), t[1][REPS / 2] * 1e6,
                   t[0][REPS / 2] * 1e6);
    }
    bsp_pop_reg(&slot);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        iters = atoi(argv[1]) > 0 ? atoi(argv[1]) : 2000;
    if (argc > 2)
        only = argv[2];
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
