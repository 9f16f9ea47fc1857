/* bspram coll --tune: each collective's algorithms timed on this machine at
 * each block size, in one BSPlib section, the fastest kept per size — the
 * tuning Bruck et al. (1997) §3.5 leave to the machine, measured instead of
 * predicted. The rounds alternate the algorithms, so that all of them see
 * the same machine; a window's time per call is pid 0's clock between a
 * bsp_sync before and after it, and coll_tune_pick (coll_tune_pick.c) makes
 * the verdict from the rounds' windows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <bsp.h>

#include "combine/combine.h"
#include "tools/coll_tune.h"
#include "tools/commands.h"

static struct {
    unsigned p, rounds, reps;
    const bsp_coll_op *ops;
    size_t n_ops, n_sizes, max_block;
    const size_t *sizes;
    coll_tune_row *rows;
    double *times; /* [row][algorithm index][round], pid 0's */
} tune;

/* Calls per window: reps up to 4 KiB moved in all, then half as many per
 * doubling of the data, at least 2 — windows of a similar length. */
static unsigned calls_for(size_t block)
{
    unsigned calls = tune.reps;
    for (size_t moved = block * tune.p; moved > 4096 && calls > 2; moved /= 2)
        calls /= 2;
    return calls < 2 ? 2 : calls;
}

static void call(bsp_coll_op op, bsp_coll_algorithm a, size_t b, void *send, void *recv)
{
    const bsp_coll_options o = {.algorithm = a};
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    switch (op) {
    case BSP_COLL_BROADCAST: bsp_coll_broadcast(NULL, send, b, 0, &o); break;
    case BSP_COLL_SCATTER: bsp_coll_scatter(NULL, send, recv, b, 0, &o); break;
    case BSP_COLL_GATHER: bsp_coll_gather(NULL, send, recv, b, 0, &o); break;
    case BSP_COLL_ALLGATHER: bsp_coll_allgather(NULL, send, recv, b, &o); break;
    case BSP_COLL_ALLTOALL: bsp_coll_alltoall(NULL, send, recv, b, &o); break;
    case BSP_COLL_REDUCE: bsp_coll_reduce(NULL, send, recv, b / 8, sum, 0, &o); break;
    case BSP_COLL_ALLREDUCE: bsp_coll_allreduce(NULL, send, recv, b / 8, sum, &o); break;
    default: bsp_coll_scan(NULL, send, recv, b / 8, sum, &o); break;
    }
}

static void spmd(void)
{
    bsp_begin(tune.p);
    const size_t whole = tune.max_block * tune.p + 8;
    unsigned char *send = calloc(whole, 1), *recv = calloc(whole, 1);
    if (!send || !recv)
        bsp_abort("bspram coll --tune: out of memory for blocks of %zu bytes on %u processes\n",
                  tune.max_block, tune.p);
    for (size_t i = 0; i < whole; i++)
        send[i] = (unsigned char)(i * 131 + bsp_pid());
    for (size_t o = 0; o < tune.n_ops; o++)
        for (size_t s = 0; s < tune.n_sizes; s++) {
            coll_tune_row *row = &tune.rows[o * tune.n_sizes + s];
            const unsigned calls = calls_for(row->block);
            for (unsigned a = 0; a < row->n_algs; a++) /* one untimed call each: first touches */
                call(row->op, row->alg[a], row->block, send, recv);
            for (unsigned r = 0; r < tune.rounds; r++)
                for (unsigned a = 0; a < row->n_algs; a++) {
                    bsp_sync();
                    double t0 = bsp_time();
                    for (unsigned c = 0; c < calls; c++)
                        call(row->op, row->alg[a], row->block, send, recv);
                    bsp_sync();
                    if (bsp_pid() == 0)
                        tune.times[((o * tune.n_sizes + s) * (COLL_TUNE_ALGS) + a) * tune.rounds + r] =
                            (bsp_time() - t0) / calls;
                }
        }
    free(send);
    free(recv);
    bsp_end();
}

void coll_tune_run(unsigned p, const bsp_coll_op *ops, size_t n_ops, const size_t *sizes,
                   size_t n_sizes, unsigned rounds, unsigned reps, coll_tune_row *rows)
{
    tune.p = p;
    tune.ops = ops;
    tune.n_ops = n_ops;
    tune.sizes = sizes;
    tune.n_sizes = n_sizes;
    tune.rounds = rounds;
    tune.reps = reps;
    tune.rows = rows;
    tune.max_block = 8;
    for (size_t s = 0; s < n_sizes; s++)
        if (sizes[s] > tune.max_block)
            tune.max_block = sizes[s];
    for (size_t o = 0; o < n_ops; o++)
        for (size_t s = 0; s < n_sizes; s++) {
            coll_tune_row *row = &rows[o * n_sizes + s];
            memset(row, 0, sizeof *row);
            row->op = ops[o];
            row->block = sizes[s];
            for (int a = BSP_COLL_AUTO + 1; a < COLL_TUNE_ALGS; a++)
                if (bsp_coll_has(ops[o], (bsp_coll_algorithm)a, p)) {
                    const bsp_coll_options opt = {.algorithm = (bsp_coll_algorithm)a};
                    const bsp_coll_choice c = bsp_coll_predict(ops[o], p, sizes[s], &opt);
                    row->c1[row->n_algs] = c.c1;
                    row->h[row->n_algs] = c.h;
                    row->alg[row->n_algs++] = (bsp_coll_algorithm)a;
                }
            row->selected = bsp_coll_select(ops[o], p, sizes[s], 0, -1, -1).algorithm;
        }
    tune.times = bspram_tool_calloc(n_ops * n_sizes * (COLL_TUNE_ALGS) * rounds, sizeof(double),
                                    "bspram coll --tune");
    bsp_init(spmd, 0, NULL);
    spmd();
    for (size_t i = 0; i < n_ops * n_sizes; i++)
        coll_tune_pick(&rows[i], &tune.times[i * (COLL_TUNE_ALGS) * rounds], rounds);
    free(tune.times);
}
