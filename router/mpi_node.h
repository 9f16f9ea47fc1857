/* bspram — the MPI transport's reduction among the ranks of a node, in
 * shared memory. Internal, libbspram-mpi only.
 *
 * Ranks that share a node need no message to reduce (router/mpi_transport.c):
 * each rank publishes its vector in a slot of an MPI-3 shared window
 * (MPI_Win_allocate_shared) — the hybrid "MPI plus MPI" shape of Hoefler et
 * al. (Computing 95, 2013). A rank's wait for another is the superstep
 * barrier's (router/barrier_internal.h: spin or yield, then sleep on a futex
 * shared between the processes).
 *   - The job on one node: every rank reads every other's publication. On 2
 *     ranks of this project's test machine an empty superstep then costs
 *     about what Open MPI's MPI_Barrier does, where one MPI_Sendrecv alone
 *     cost 1.2× it (bench/RESULTS.md, "Over MPI").
 *   - On several nodes: the node's first rank, its leader, reads the
 *     others' publications, reduces with the other leaders by messages, and
 *     publishes the result, which the node's other ranks read.
 *
 * Each rank writes its slot only in its own publish (and a leader in its
 * publish_result); the others read it. A slot has two parities, by episode,
 * and a rank publishes episode e + 2 only after every reader of its episode
 * e has published e + 1, which each does only after reading everything of
 * e: so a parity is never overwritten while it is read.
 */
#ifndef BSPRAM_ROUTER_MPI_NODE_H
#define BSPRAM_ROUTER_MPI_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <mpi.h>

typedef struct bspram_mpi_node bspram_mpi_node;

/* Collective over comm: the reduction among the ranks of each node, with
 * publications of up to `cap` bytes and results of up to `rcap`; NULL on
 * every rank when every rank is alone on its node. A node is what MPI says
 * (MPI_COMM_TYPE_SHARED) or, with node_ranks ≥ 1, every node_ranks
 * consecutive ranks (to test the hierarchy on one machine). */
bspram_mpi_node *bspram__mpi_node_open(MPI_Comm comm, unsigned node_ranks, size_t cap, size_t rcap);
/* Collective; NULL is a no-op. After MPI_Finalize it frees this rank's
 * memory alone. */
void bspram__mpi_node_close(bspram_mpi_node *node);

/* Whether the node holds every rank of comm; this rank's number among the
 * node's ranks (0: the leader) and their number; the leaders' communicator
 * (a leader's on several nodes, else MPI_COMM_NULL). */
bool bspram__mpi_node_whole(const bspram_mpi_node *node);
int bspram__mpi_node_rank(const bspram_mpi_node *node);
int bspram__mpi_node_size(const bspram_mpi_node *node);
MPI_Comm bspram__mpi_node_leaders(const bspram_mpi_node *node);

/* Begins the next episode: copies `bytes` (≤ cap) of `mine` into this
 * rank's slot and signals it to the node. */
void bspram__mpi_node_publish(bspram_mpi_node *node, const void *mine, size_t bytes);
/* Waits for the publication of the node's rank `peer` in this episode;
 * returns it and sets *bytes. Valid until this rank's next publish. */
const void *bspram__mpi_node_peer(bspram_mpi_node *node, int peer, size_t *bytes);
/* The leader, on several nodes: publishes this episode's result (≤ rcap
 * bytes) to the node. */
void bspram__mpi_node_publish_result(bspram_mpi_node *node, const void *all, size_t bytes);
/* The node's other ranks: waits for the leader's result of this episode;
 * returns it and sets *bytes. Valid until this rank's next publish. */
const void *bspram__mpi_node_result(bspram_mpi_node *node, size_t *bytes);

#endif
