/* The reduction among ranks on one node, in an MPI-3 shared window
 * (mpi_node.h). */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "router/barrier_internal.h"
#include "router/mpi_node.h"

/* A rank's slot: the flag and length of each parity on one cache line (what
 * a reader looks at), the owner's waiter on the next, then the two parities'
 * bytes. */
typedef struct node_slot {
    _Alignas(64) atomic_uint flag[2]; /* the episode last published in this parity */
    uint64_t bytes[2];                /* its length */
    bspram_waiter waiter;
} node_slot;

struct bspram_mpi_node {
    MPI_Comm comm;
    MPI_Win win;
    int rank, n;
    size_t cap;         /* bytes of one parity, a multiple of 64 */
    node_slot **slot;   /* [n] every rank's slot, as mapped here */
    unsigned episode;   /* this rank's publications */
    unsigned looks;     /* bspram__router_await_looks */
    int how;            /* BSPRAM_AWAIT_SHARED, and _YIELD with more ranks than cores */
};

static char *data(node_slot *slot, size_t cap, unsigned par)
{
    return (char *)(slot + 1) + par * cap;
}

bspram_mpi_node *bspram__mpi_node_open(MPI_Comm comm, size_t cap)
{
    int rank = 0, n = 1, here = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    MPI_Comm shared;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared) != MPI_SUCCESS)
        return NULL; /* on every rank alike: the call is collective and fails everywhere */
    MPI_Comm_size(shared, &here);
    if (here != n) { /* a rank of another node: every rank's node is smaller than comm */
        MPI_Comm_free(&shared);
        return NULL;
    }
    bspram_mpi_node *node = bspram__base_calloc(1, sizeof *node, "bspram__router_create (mpi node)");
    node->comm = shared;
    node->rank = rank; /* split by comm's rank: the same numbering */
    node->n = n;
    node->cap = (cap + 63) & ~(size_t)63;
    /* The cores the node's ranks may run on: the union of their affinities. */
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        CPU_SET(0, &set);
    MPI_Allreduce(MPI_IN_PLACE, &set, (int)sizeof set, MPI_BYTE, MPI_BOR, shared);
    const bool dedicated = n <= CPU_COUNT(&set);
    node->looks = bspram__router_await_looks((unsigned)n, dedicated);
    node->how = BSPRAM_AWAIT_SHARED | (dedicated ? 0 : BSPRAM_AWAIT_YIELD);
    /* Each rank's slot in memory near it (alloc_shared_noncontig). */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    node_slot *mine = NULL;
    const MPI_Aint bytes = (MPI_Aint)(sizeof(node_slot) + 2 * node->cap);
    int err = MPI_Win_allocate_shared(bytes, 64, info, shared, &mine, &node->win);
    MPI_Info_free(&info);
    if (err != MPI_SUCCESS)
        bspram__base_fatal("bspram__router_create: MPI_Win_allocate_shared of %ld bytes failed",
                           (long)bytes);
    atomic_init(&mine->flag[0], 0);
    atomic_init(&mine->flag[1], 0);
    bspram__router_waiter_init(&mine->waiter);
    node->slot = bspram__base_calloc((size_t)n, sizeof *node->slot, "bspram__router_create (mpi node)");
    for (int r = 0; r < n; r++) {
        MPI_Aint size = 0;
        int unit = 0;
        MPI_Win_shared_query(node->win, r, &size, &unit, &node->slot[r]);
    }
    /* A passive-target epoch for the window's life: within it the ranks
     * load and store directly, ordered by the flags' C11 atomics (release
     * in publish, acquire in peer). Every slot is initialised before any
     * rank publishes. */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, node->win);
    MPI_Barrier(shared);
    return node;
}

void bspram__mpi_node_close(bspram_mpi_node *node)
{
    if (!node)
        return;
    int down = 0;
    MPI_Finalized(&down);
    if (!down) {
        MPI_Win_unlock_all(node->win);
        MPI_Win_free(&node->win);
        MPI_Comm_free(&node->comm);
    }
    free(node->slot);
    free(node);
}

void bspram__mpi_node_publish(bspram_mpi_node *node, const void *mine, size_t bytes)
{
    const unsigned e = ++node->episode, par = e & 1u;
    node_slot *me = node->slot[node->rank];
    memcpy(data(me, node->cap, par), mine, bytes);
    me->bytes[par] = bytes;
    atomic_store_explicit(&me->flag[par], e, memory_order_release);
    for (int r = 0; r < node->n; r++)
        if (r != node->rank)
            bspram__router_wake(&me->flag[par], &node->slot[r]->waiter, node->how);
}

const void *bspram__mpi_node_peer(bspram_mpi_node *node, int peer, size_t *bytes)
{
    const unsigned e = node->episode, par = e & 1u;
    node_slot *them = node->slot[peer];
    if (atomic_load_explicit(&them->flag[par], memory_order_acquire) != e)
        bspram__router_await(&them->flag[par], e, &node->slot[node->rank]->waiter, &them->waiter, node->looks,
                             node->how);
    *bytes = them->bytes[par];
    return data(them, node->cap, par);
}
