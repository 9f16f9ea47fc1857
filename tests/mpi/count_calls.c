/* An MPI profiling-interface layer (LD_PRELOAD) for mpi/ways.sh: counts the
 * calls by which the MPI transport moves a superstep's counts and runs, and
 * prints them at MPI_Finalize on stderr, one line per rank:
 *   calls <rank> alltoall <n> isend <n> issend <n> ibarrier <n> sendrecv <n>
 * Each wrapper hands the call to its PMPI_ name, as the MPI standard's
 * profiling interface provides. */
#include <mpi.h>
#include <stdio.h>

static long alltoall, isend, issend, ibarrier, sendrecv;

int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm c)
{
    alltoall++;
    return PMPI_Alltoall(s, sc, st, r, rc, rt, c);
}

int MPI_Isend(const void *b, int n, MPI_Datatype t, int dst, int tag, MPI_Comm c, MPI_Request *q)
{
    isend++;
    return PMPI_Isend(b, n, t, dst, tag, c, q);
}

int MPI_Issend(const void *b, int n, MPI_Datatype t, int dst, int tag, MPI_Comm c, MPI_Request *q)
{
    issend++;
    return PMPI_Issend(b, n, t, dst, tag, c, q);
}

int MPI_Sendrecv(const void *s, int sc, MPI_Datatype st, int dst, int stag, void *r, int rc, MPI_Datatype rt,
                 int src, int rtag, MPI_Comm c, MPI_Status *status)
{
    sendrecv++;
    return PMPI_Sendrecv(s, sc, st, dst, stag, r, rc, rt, src, rtag, c, status);
}

int MPI_Ibarrier(MPI_Comm c, MPI_Request *q)
{
    ibarrier++;
    return PMPI_Ibarrier(c, q);
}

int MPI_Finalize(void)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "calls %d alltoall %ld isend %ld issend %ld ibarrier %ld sendrecv %ld\n", rank, alltoall,
            isend, issend, ibarrier, sendrecv);
    return PMPI_Finalize();
}
