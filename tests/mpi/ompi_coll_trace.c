/* Which of Open MPI's collective algorithms ran: an LD_PRELOAD library that
 * stands between Open MPI's tuned component (mca_coll_tuned.so) and the
 * algorithms it calls in libmpi (ompi_coll_base_<op>_intra_<algorithm>,
 * Open MPI 4.1's coll_base_functions.h), and appends one line per change of
 * (algorithm, count) to the file $BSPRAM_OMPI_TRACE:
 *     <pid> <algorithm function> <count>
 * An algorithm built of other collectives (allgather "linear": a gather and
 * a broadcast) is one line: the calls it makes are not written. For the
 * test of bspram coll --tune's exported rules (tests/cli/coll_tune.sh):
 * what Open MPI ran with them, not only that it loaded them. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Thread_local int depth;
static _Thread_local const char *last_name;
static _Thread_local long last_count = -1;

static void note(const char *name, long count)
{
    if (depth > 1 || (name == last_name && count == last_count))
        return;
    last_name = name;
    last_count = count;
    const char *path = getenv("BSPRAM_OMPI_TRACE");
    if (!path)
        return;
    char line[160];
    int n = snprintf(line, sizeof line, "%ld %s %ld\n", (long)getpid(), name, count);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd >= 0) {
        if (write(fd, line, (size_t)n) != n)
            perror("ompi_coll_trace");
        close(fd);
    }
}

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "ompi_coll_trace: %s not found\n", name);
        abort();
    }
    return f;
}

/* The argument lists of coll_base_functions.h (Open MPI 4.1), handles as
 * void *; an algorithm's own parameters after them. */
#define ALLGATHER_ARGS const void *sbuf, int scount, void *sdtype, void *rbuf, int rcount, void *rdtype, void *comm, void *module
#define ALLGATHER_PASS sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module
#define ROOTED_ARGS const void *sbuf, int scount, void *sdtype, void *rbuf, int rcount, void *rdtype, int root, void *comm, void *module
#define ROOTED_PASS sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm, module
#define BCAST_ARGS void *buf, int count, void *dtype, int root, void *comm, void *module
#define BCAST_PASS buf, count, dtype, root, comm, module
#define REDUCE_ARGS const void *sbuf, void *rbuf, int count, void *dtype, void *op, int root, void *comm, void *module
#define REDUCE_PASS sbuf, rbuf, count, dtype, op, root, comm, module
#define ALLREDUCE_ARGS const void *sbuf, void *rbuf, int count, void *dtype, void *op, void *comm, void *module
#define ALLREDUCE_PASS sbuf, rbuf, count, dtype, op, comm, module

/* One wrapper: name, its parameters, the arguments passed on, the count
 * written. */
#define WRAP(fn, params, args, count)                                    \
    int fn(params);                                                      \
    int fn(params)                                                       \
    {                                                                    \
        static int (*next)(params);                                      \
        if (!next)                                                       \
            *(void **)&next = real(#fn);                                 \
        depth++;                                                         \
        note(#fn, (long)(count));                                        \
        int rc = next(args);                                             \
        depth--;                                                         \
        return rc;                                                       \
    }
#define COMMA ,

WRAP(ompi_coll_base_allgather_intra_basic_linear, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_allgather_intra_bruck, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_allgather_intra_recursivedoubling, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_allgather_intra_ring, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_allgather_intra_neighborexchange, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_allgather_intra_two_procs, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_alltoall_intra_basic_linear, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_alltoall_intra_pairwise, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_alltoall_intra_bruck, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_alltoall_intra_two_procs, ALLGATHER_ARGS, ALLGATHER_PASS, scount)
WRAP(ompi_coll_base_alltoall_intra_linear_sync, ALLGATHER_ARGS COMMA int max_requests, ALLGATHER_PASS COMMA max_requests, scount)
WRAP(ompi_coll_base_gather_intra_basic_linear, ROOTED_ARGS, ROOTED_PASS, scount)
WRAP(ompi_coll_base_gather_intra_binomial, ROOTED_ARGS, ROOTED_PASS, scount)
WRAP(ompi_coll_base_gather_intra_linear_sync, ROOTED_ARGS COMMA int first, ROOTED_PASS COMMA first, scount)
WRAP(ompi_coll_base_scatter_intra_basic_linear, ROOTED_ARGS, ROOTED_PASS, scount)
WRAP(ompi_coll_base_scatter_intra_binomial, ROOTED_ARGS, ROOTED_PASS, scount)
WRAP(ompi_coll_base_scatter_intra_linear_nb, ROOTED_ARGS COMMA int max_reqs, ROOTED_PASS COMMA max_reqs, scount)
WRAP(ompi_coll_base_bcast_intra_basic_linear, BCAST_ARGS, BCAST_PASS, count)
WRAP(ompi_coll_base_bcast_intra_binomial, BCAST_ARGS COMMA uint32_t seg, BCAST_PASS COMMA seg, count)
WRAP(ompi_coll_base_bcast_intra_scatter_allgather, BCAST_ARGS COMMA uint32_t seg, BCAST_PASS COMMA seg, count)
WRAP(ompi_coll_base_bcast_intra_knomial, BCAST_ARGS COMMA uint32_t seg COMMA int radix, BCAST_PASS COMMA seg COMMA radix, count)
WRAP(ompi_coll_base_bcast_intra_pipeline, BCAST_ARGS COMMA uint32_t seg, BCAST_PASS COMMA seg, count)
WRAP(ompi_coll_base_bcast_intra_bintree, BCAST_ARGS COMMA uint32_t seg, BCAST_PASS COMMA seg, count)
WRAP(ompi_coll_base_bcast_intra_split_bintree, BCAST_ARGS COMMA uint32_t seg, BCAST_PASS COMMA seg, count)
WRAP(ompi_coll_base_bcast_intra_chain, BCAST_ARGS COMMA uint32_t seg COMMA int32_t chains, BCAST_PASS COMMA seg COMMA chains, count)
WRAP(ompi_coll_base_reduce_intra_basic_linear, REDUCE_ARGS, REDUCE_PASS, count)
WRAP(ompi_coll_base_reduce_intra_binomial, REDUCE_ARGS COMMA uint32_t seg COMMA int max, REDUCE_PASS COMMA seg COMMA max, count)
WRAP(ompi_coll_base_reduce_intra_binary, REDUCE_ARGS COMMA uint32_t seg COMMA int max, REDUCE_PASS COMMA seg COMMA max, count)
WRAP(ompi_coll_base_reduce_intra_in_order_binary, REDUCE_ARGS COMMA uint32_t seg COMMA int max, REDUCE_PASS COMMA seg COMMA max, count)
WRAP(ompi_coll_base_reduce_intra_pipeline, REDUCE_ARGS COMMA uint32_t seg COMMA int max, REDUCE_PASS COMMA seg COMMA max, count)
WRAP(ompi_coll_base_reduce_intra_chain, REDUCE_ARGS COMMA uint32_t seg COMMA int fan COMMA int max, REDUCE_PASS COMMA seg COMMA fan COMMA max, count)
WRAP(ompi_coll_base_reduce_intra_redscat_gather, REDUCE_ARGS, REDUCE_PASS, count)
WRAP(ompi_coll_base_allreduce_intra_basic_linear, ALLREDUCE_ARGS, ALLREDUCE_PASS, count)
WRAP(ompi_coll_base_allreduce_intra_nonoverlapping, ALLREDUCE_ARGS, ALLREDUCE_PASS, count)
WRAP(ompi_coll_base_allreduce_intra_recursivedoubling, ALLREDUCE_ARGS, ALLREDUCE_PASS, count)
WRAP(ompi_coll_base_allreduce_intra_ring, ALLREDUCE_ARGS, ALLREDUCE_PASS, count)
WRAP(ompi_coll_base_allreduce_intra_ring_segmented, ALLREDUCE_ARGS COMMA uint32_t seg, ALLREDUCE_PASS COMMA seg, count)
WRAP(ompi_coll_base_allreduce_intra_redscat_allgather, ALLREDUCE_ARGS, ALLREDUCE_PASS, count)
WRAP(ompi_coll_base_scan_intra_linear, ALLREDUCE_ARGS, ALLREDUCE_PASS, count)
WRAP(ompi_coll_base_scan_intra_recursivedoubling, ALLREDUCE_ARGS, ALLREDUCE_PASS, count)
