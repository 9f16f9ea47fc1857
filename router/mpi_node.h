/* bspram — the MPI transport's reduction among ranks that share one node,
 * in shared memory. Internal, libbspram-mpi only.
 *
 * When every rank of the transport's communicator is on one node, the
 * superstep's reduction (router/mpi_transport.c) needs no message: each rank
 * publishes its vector in a slot of an MPI-3 shared window
 * (MPI_Win_allocate_shared) and reads every other rank's — the hybrid
 * "MPI plus MPI" shape of Hoefler et al. (Computing 95, 2013). A rank's wait
 * for a peer is the superstep barrier's (router/barrier_internal.h: spin or
 * yield, then sleep on a futex shared between the processes). On 2 ranks of
 * this project's test machine the whole empty superstep then costs about
 * what Open MPI's MPI_Barrier does, where one MPI_Sendrecv alone cost 1.2×
 * it (bench/RESULTS.md, "Over MPI").
 *
 * Each rank writes its slot only in its own publish, the others read it; a
 * slot has two parities, by episode, and a rank publishes episode e + 2 only
 * after every rank has published e + 1, which each does only after reading
 * everything of e: so a parity is never overwritten while it is read.
 */
#ifndef BSPRAM_ROUTER_MPI_NODE_H
#define BSPRAM_ROUTER_MPI_NODE_H

#include <stddef.h>
#include <mpi.h>

typedef struct bspram_mpi_node bspram_mpi_node;

/* Collective over comm: a node reduction whose slots hold up to `cap` bytes,
 * or NULL on every rank when not all of comm's ranks share one node. */
bspram_mpi_node *bspram__mpi_node_open(MPI_Comm comm, size_t cap);
/* Collective; NULL is a no-op. After MPI_Finalize it frees this rank's
 * memory alone. */
void bspram__mpi_node_close(bspram_mpi_node *node);

/* Begins the next episode: copies `bytes` (≤ cap) of `mine` into this
 * rank's slot and signals it to every rank. */
void bspram__mpi_node_publish(bspram_mpi_node *node, const void *mine, size_t bytes);
/* Waits for rank `peer`'s publication in this episode; returns it and sets
 * *bytes. Valid until this rank's next publish. */
const void *bspram__mpi_node_peer(bspram_mpi_node *node, int peer, size_t *bytes);

#endif
