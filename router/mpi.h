/* bspram — MPI for the library's MPI build (libbspram-mpi). Internal (not
 * installed); only files of that build include it.
 *
 * The library starts MPI when it first needs it (MPI_Init_thread, asking for
 * MPI_THREAD_MULTIPLE), unless the program did, and finalises it at exit if
 * it started it.
 */
#ifndef BSPRAM_ROUTER_MPI_H
#define BSPRAM_ROUTER_MPI_H

#include "router/transport.h"
#include "router/router.h"

/* Start MPI if nobody has; a fatal error if it was finalised. */
void bspram__router_mpi_start(void);
/* Finalise MPI if it is running (registered with atexit by bspram__router_mpi_start). */
void bspram__router_mpi_stop(void);
/* This process's rank and the job's number of ranks in MPI_COMM_WORLD. */
unsigned bspram__router_mpi_rank(void);
unsigned bspram__router_mpi_size(void);

extern const bspram__transport bspram__router_transport_mpi;

#endif
