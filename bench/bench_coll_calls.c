/* A fixed number of collective calls and nothing else, for counting
 * instructions with callgrind (which does not depend on the machine's load,
 * where wall time does): bench/RESULTS.md, "Collectives: the calls'
 * instructions".
 *
 *   bench_coll_calls OP P BLOCK CALLS [ALGORITHM]
 *   valgrind --tool=callgrind bench_coll_calls allgather 2 8 2000
 *
 * OP is a bsp_coll_op name or "sync" (CALLS empty bsp_syncs, the floor of
 * any collective); ALGORITHM a bsp_coll_algorithm name (default auto). */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combine/combine.h"

#define WARM_SUPERSTEPS 32768u

static int op = -1;
static unsigned P, calls;
static size_t block;
static bsp_coll_options opt;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    const size_t whole = (size_t)P * block + 8;
    unsigned char *send = calloc(whole, 1), *recv = calloc(whole, 1);
    if (!send || !recv)
        bsp_abort("bench_coll_calls: out of memory\n");
    /* Warm-up: the router's log moves to mapped pages, copied once, when it
     * outgrows 2 MiB (router/records.c), and grows without copies from
     * then on. Past that point in both runs of a pair (CALLS and 2·CALLS),
     * their difference holds no copy of the log. */
    for (unsigned i = 0; i < WARM_SUPERSTEPS; i++)
        bsp_sync();
    for (unsigned i = 0; i < calls; i++)
        switch (op) {
        case -1: bsp_sync(); break;
        case BSP_COLL_BROADCAST: bsp_coll_broadcast(NULL, send, block, 0, &opt); break;
        case BSP_COLL_SCATTER: bsp_coll_scatter(NULL, send, recv, block, 0, &opt); break;
        case BSP_COLL_GATHER: bsp_coll_gather(NULL, send, recv, block, 0, &opt); break;
        case BSP_COLL_ALLGATHER: bsp_coll_allgather(NULL, send, recv, block, &opt); break;
        case BSP_COLL_ALLTOALL: bsp_coll_alltoall(NULL, send, recv, block, &opt); break;
        case BSP_COLL_REDUCE: bsp_coll_reduce(NULL, send, recv, block / 8, sum, 0, &opt); break;
        case BSP_COLL_ALLREDUCE: bsp_coll_allreduce(NULL, send, recv, block / 8, sum, &opt); break;
        default: bsp_coll_scan(NULL, send, recv, block / 8, sum, &opt); break;
        }
    free(send);
    free(recv);
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc < 5 || argc > 6) {
        fprintf(stderr, "usage: bench_coll_calls OP|sync P BLOCK CALLS [ALGORITHM]\n");
        return 2;
    }
    if (strcmp(argv[1], "sync") && (op = bsp_coll_op_parse(argv[1])) < 0) {
        fprintf(stderr, "bench_coll_calls: unknown operation '%s'\n", argv[1]);
        return 2;
    }
    P = (unsigned)strtoul(argv[2], NULL, 10);
    block = (size_t)strtoull(argv[3], NULL, 10);
    calls = (unsigned)strtoul(argv[4], NULL, 10);
    int a = argc == 6 ? bsp_coll_algorithm_parse(argv[5]) : BSP_COLL_AUTO;
    if (P < 1 || a < 0) {
        fprintf(stderr, "bench_coll_calls: P must be at least 1 and the algorithm known\n");
        return 2;
    }
    opt.algorithm = (bsp_coll_algorithm)a;
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
