/* The reduction among the ranks of a node, in an MPI-3 shared window
 * (mpi_node.h). */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "router/barrier_internal.h"
#include "router/mpi_node.h"

/* A rank's slot: the flags and lengths of each parity, for its publication
 * and (a leader's) the result, on one cache line (what a reader looks at),
 * the owner's waiter on the next, then the two parities' publications, then
 * the two parities' results. */
typedef struct node_slot {
    _Alignas(64) atomic_uint flag[2];  /* the episode last published in this parity */
    atomic_uint rflag[2];              /* the episode of the result last published */
    uint64_t bytes[2], rbytes[2];      /* their lengths */
    bspram_waiter waiter;
} node_slot;

struct bspram_mpi_node {
    MPI_Comm comm;      /* the node's ranks, numbered as in the job's communicator */
    MPI_Comm leaders;   /* the nodes' first ranks (MPI_COMM_NULL elsewhere, and on one node) */
    MPI_Win win;
    int rank, n;        /* in comm */
    bool whole;         /* the node is the whole job */
    size_t cap, rcap;   /* bytes of one parity, of a publication and of a result (multiples of 64) */
    node_slot **slot;   /* [n] every rank's slot, as mapped here */
    unsigned episode;   /* this rank's publications */
    unsigned looks;     /* bspram__router_await_looks */
    int how;            /* BSPRAM_AWAIT_SHARED, and _YIELD with more ranks than cores */
};

static char *data(const bspram_mpi_node *node, node_slot *slot, unsigned par)
{
    return (char *)(slot + 1) + par * node->cap;
}

static char *result(const bspram_mpi_node *node, node_slot *slot, unsigned par)
{
    return (char *)(slot + 1) + 2 * node->cap + par * node->rcap;
}

/* A rank's slot: the first cache line of its part of the window. Rounding
 * up is the same in every process: the window is mapped page by page, so a
 * byte's offset within its page, and thus within its cache line, does not
 * depend on where a process maps it. */
static node_slot *aligned_slot(void *base)
{
    return (node_slot *)(((uintptr_t)base + 63) & ~(uintptr_t)63);
}

bspram_mpi_node *bspram__mpi_node_open(MPI_Comm comm, unsigned node_ranks, size_t cap, size_t rcap)
{
    int rank = 0, size = 1, here = 0, most = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* The ranks that share this machine, and the cores they may run on:
     * the union of their affinities. A wait spins only if each has a core. */
    MPI_Comm machine, shared;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &machine) != MPI_SUCCESS)
        return NULL; /* collective: it fails on every rank alike */
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        CPU_SET(0, &set);
    MPI_Allreduce(MPI_IN_PLACE, &set, (int)sizeof set, MPI_BYTE, MPI_BOR, machine);
    int on_machine = 1;
    MPI_Comm_size(machine, &on_machine);
    const bool dedicated = on_machine <= CPU_COUNT(&set);
    if (node_ranks) { /* nodes of node_ranks ranks, to test the hierarchy on one machine */
        MPI_Comm_free(&machine);
        MPI_Comm_split(comm, rank / (int)node_ranks, rank, &shared);
    } else {
        shared = machine;
    }
    MPI_Comm_size(shared, &here);
    MPI_Allreduce(&here, &most, 1, MPI_INT, MPI_MAX, comm);
    if (most == 1) { /* every rank alone on its node: nothing to share */
        MPI_Comm_free(&shared);
        return NULL;
    }
    bspram_mpi_node *node = bspram__base_calloc(1, sizeof *node, "the MPI transport (a node's shared window)");
    node->comm = shared;
    MPI_Comm_rank(shared, &node->rank); /* split by comm's rank: comm's order */
    node->n = here;
    node->whole = here == size;
    node->cap = (cap + 63) & ~(size_t)63;
    node->rcap = node->whole ? 0 : (rcap + 63) & ~(size_t)63;
    node->leaders = MPI_COMM_NULL;
    if (!node->whole)
        MPI_Comm_split(comm, node->rank == 0 ? 0 : MPI_UNDEFINED, rank, &node->leaders);
    node->looks = bspram__router_await_looks((unsigned)here, dedicated);
    node->how = BSPRAM_AWAIT_SHARED | (dedicated ? 0 : BSPRAM_AWAIT_YIELD);
    /* Each rank's slot in memory near it (alloc_shared_noncontig). */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    void *base = NULL;
    /* 64 bytes more than the slot needs: MPI_Win_allocate_shared promises
     * no alignment (Open MPI 4.1 gave 8 bytes past a header), and a slot is
     * laid out for a cache line of its own (UBSan saw the misaligned
     * accesses; an aligned vector store there faults). */
    const MPI_Aint bytes = (MPI_Aint)(sizeof(node_slot) + 2 * node->cap + 2 * node->rcap + 64);
    int err = MPI_Win_allocate_shared(bytes, 64, info, shared, &base, &node->win);
    MPI_Info_free(&info);
    if (err != MPI_SUCCESS)
        bspram__base_fatal("the MPI transport: MPI_Win_allocate_shared of %ld bytes for a node's shared window failed",
                           (long)bytes);
    node_slot *mine = aligned_slot(base);
    for (int par = 0; par < 2; par++) {
        atomic_init(&mine->flag[par], 0);
        atomic_init(&mine->rflag[par], 0);
    }
    bspram__router_waiter_init(&mine->waiter);
    node->slot = bspram__base_calloc((size_t)here, sizeof *node->slot, "the MPI transport (a node's shared window)");
    for (int r = 0; r < here; r++) {
        MPI_Aint got = 0;
        int unit = 0;
        void *theirs = NULL;
        MPI_Win_shared_query(node->win, r, &got, &unit, &theirs);
        node->slot[r] = aligned_slot(theirs);
    }
    /* A passive-target epoch for the window's life: within it the ranks
     * load and store directly, ordered by the flags' C11 atomics (release
     * in publish, acquire in peer and result). Every slot is initialised
     * before any rank publishes. */
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
        if (node->leaders != MPI_COMM_NULL)
            MPI_Comm_free(&node->leaders);
        MPI_Comm_free(&node->comm);
    }
    free(node->slot);
    free(node);
}

bool bspram__mpi_node_whole(const bspram_mpi_node *node)
{
    return node->whole;
}

int bspram__mpi_node_rank(const bspram_mpi_node *node)
{
    return node->rank;
}

int bspram__mpi_node_size(const bspram_mpi_node *node)
{
    return node->n;
}

MPI_Comm bspram__mpi_node_leaders(const bspram_mpi_node *node)
{
    return node->leaders;
}

/* Wakes every other rank of the node that sleeps on *flag. */
static void wake_all(const bspram_mpi_node *node, atomic_uint *flag)
{
    for (int r = 0; r < node->n; r++)
        if (r != node->rank)
            bspram__router_wake(flag, &node->slot[r]->waiter, node->how);
}

void bspram__mpi_node_publish(bspram_mpi_node *node, const void *mine, size_t bytes)
{
    const unsigned e = ++node->episode, par = e & 1u;
    node_slot *me = node->slot[node->rank];
    memcpy(data(node, me, par), mine, bytes);
    me->bytes[par] = bytes;
    atomic_store_explicit(&me->flag[par], e, memory_order_release);
    if (node->whole) /* every rank reads it */
        wake_all(node, &me->flag[par]);
    else if (node->rank != 0) /* the leader alone reads it; a leader's, nobody */
        bspram__router_wake(&me->flag[par], &node->slot[0]->waiter, node->how);
}

/* Waits until *flag == e, published by the owner of `them`. */
static void await(const bspram_mpi_node *node, node_slot *them, atomic_uint *flag, unsigned e)
{
    if (atomic_load_explicit(flag, memory_order_acquire) != e)
        bspram__router_await(flag, e, &node->slot[node->rank]->waiter, &them->waiter, node->looks, node->how);
}

const void *bspram__mpi_node_peer(bspram_mpi_node *node, int peer, size_t *bytes)
{
    const unsigned e = node->episode, par = e & 1u;
    node_slot *them = node->slot[peer];
    await(node, them, &them->flag[par], e);
    *bytes = them->bytes[par];
    return data(node, them, par);
}

void bspram__mpi_node_publish_result(bspram_mpi_node *node, const void *all, size_t bytes)
{
    const unsigned e = node->episode, par = e & 1u;
    node_slot *me = node->slot[node->rank];
    memcpy(result(node, me, par), all, bytes);
    me->rbytes[par] = bytes;
    atomic_store_explicit(&me->rflag[par], e, memory_order_release);
    wake_all(node, &me->rflag[par]);
}

const void *bspram__mpi_node_result(bspram_mpi_node *node, size_t *bytes)
{
    const unsigned e = node->episode, par = e & 1u;
    node_slot *leader = node->slot[0];
    await(node, leader, &leader->rflag[par], e);
    *bytes = leader->rbytes[par];
    return result(node, leader, par);
}
