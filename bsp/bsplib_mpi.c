/* BSPlib over MPI (libbspram-mpi only): the job's ranks, and the
 * announcements by which rank 0 starts sections on the others
 * (bsplib_internal.h, bsplib_spread_hooks; bsplib_spmd.c, serve).
 *
 * Rank 0 runs the program; the other ranks wait in MPI_Bcast from their
 * first bsp_init or bsp_begin on. Each section begins with one broadcast of
 * its P; the program's end is a broadcast of 0, at rank 0's exit. A rank that
 * dies ends the job through the MPI runtime (mpirun), a fatal error through
 * MPI_Abort (router/mpi_transport.c).
 */
#include <mpi.h>
#include <stdlib.h>

#include "base/error.h"
#include "bsp/bsplib_internal.h"
#include "router/mpi.h"

static void broadcast(unsigned *P)
{
    int err = MPI_Bcast(P, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    if (err != MPI_SUCCESS)
        bspram_fatal("bsp_begin: MPI_Bcast of the section's P failed (error %d)", err);
}

static void announce_end(void)
{
    unsigned end = 0;
    broadcast(&end);
}

static void announce(unsigned P)
{
    static int serving;
    if (P == BSPLIB_ANNOUNCE_SERVE) {
        if (!serving++) /* after MPI's own exit handler, so it runs before it */
            atexit(announce_end);
        return;
    }
    broadcast(&P);
}

static unsigned await(void)
{
    unsigned P = 0;
    broadcast(&P);
    return P;
}

__attribute__((constructor)) static void install(void)
{
    bsplib_spread = (bsplib_spread_hooks){bspram__mpi_size, bspram__mpi_rank, announce, await};
}
