/* The collectives are deterministic: a fixed program of calls — every
 * operation with the selection's choice and with each algorithm forced, on
 * the whole machine and on the rows of a grid — gives bit-identical results
 * and identical measured costs (every summed record column: supersteps, C1,
 * C2, h, charge, most sent and received, messages, bytes) when run twice on
 * the shared-memory transport and once on the staged transport, which copies
 * every payload and shares no address between processes. Over MPI on
 * several ranks the transport is MPI's on every rank (a transport named by
 * main after bsp_init would be rank 0's alone): twice on its default paths,
 * once with every superstep's runs read by MPI_Get (BSPRAM_MPI_GET=0, whose
 * rank 0 value decides for all ranks). Each process hashes its results;
 * at the end of a section pid 0 gathers the hashes by puts and keeps them,
 * with its measured costs, for main to compare. */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "bsplib_check.h"

enum { P = 12, COLS = 4, MAXCALLS = 128, B = 24 };

typedef struct outcome {
    bsp_coll_cost cost;
    uint64_t digest[P];
} outcome;

/* pid 0's (main's process): written by pid 0 alone, read by main. */
static outcome runs[3][MAXCALLS];
static int ncalls[3], run_no;

/* One process's record of its calls: the result's hash and the measured
 * cost of each (pid 0's costs are kept). */
typedef struct calls {
    int n;
    uint64_t digest[MAXCALLS];
    bsp_coll_cost cost[MAXCALLS];
} calls;

static void record(calls *mine, const void *recv, size_t len)
{
    if (mine->n == MAXCALLS) {
        fprintf(stderr, "test_coll_determinism: more than %d calls\n", MAXCALLS);
        abort();
    }
    mine->cost[mine->n] = bsp_coll_last_cost();
    mine->digest[mine->n++] = XXH3_64bits(recv, len);
}

/* Every process's hashes to pid 0 (by puts), which keeps them, with its own
 * costs, as this run's outcomes (run_no is main's: pid 0 reads it). */
static void gather(const calls *mine)
{
    const unsigned s = bsp_pid();
    uint64_t(*all)[MAXCALLS] = calloc(P, sizeof *all);
    bsp_push_reg(all, P * sizeof *all);
    bsp_sync();
    bsp_put(0, mine->digest, all, s * sizeof *all, (size_t)mine->n * sizeof(uint64_t));
    bsp_sync();
    bsp_pop_reg(all);
    bsp_sync(); /* the registration is gone before the area is freed */
    if (s == 0) {
        ncalls[run_no] = mine->n;
        for (int k = 0; k < mine->n; k++) {
            runs[run_no][k].cost = mine->cost[k];
            for (unsigned q = 0; q < P; q++)
                runs[run_no][k].digest[q] = all[q][k];
        }
    }
    free(all);
}

static void spmd(void)
{
    bsp_begin(P);
    unsigned s = bsp_pid();
    calls *mine = calloc(1, sizeof *mine);
    bsp_pid_t row[COLS];
    for (unsigned j = 0; j < COLS; j++)
        row[j] = s / COLS * COLS + j;
    bsp_coll_group *g = bsp_coll_group_create(row, COLS);
    unsigned char send[P * B], recv[P * B];
    uint64_t words[B / 8], out[B / 8];
    for (size_t i = 0; i < sizeof send; i++)
        send[i] = (unsigned char)(s * 131 + i * 7);
    for (size_t i = 0; i < B / 8; i++) {
        double d = 1.0 / (double)(s + i + 1); /* sums of these depend on the bracketing */
        memcpy(&words[i], &d, 8);
    }
    const unsigned fsum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_F64);
    static const bsp_coll_algorithm algs[] = {BSP_COLL_AUTO, BSP_COLL_BRUCK, BSP_COLL_DIRECT,
                                               BSP_COLL_RING, BSP_COLL_BINOMIAL,
                                               BSP_COLL_SCATTER_ALLGATHER, BSP_COLL_DOUBLING,
                                               BSP_COLL_DISSEMINATION};
    static const int has[8][9] = {
        /* broadcast scatter gather allgather alltoall reduce allreduce scan exscan */
        {1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 0, 1, 1, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1, 0, 1, 1},
        {0, 0, 0, 1, 0, 0, 0, 0, 0}, {1, 1, 1, 0, 0, 1, 0, 1, 1}, {1, 0, 0, 0, 0, 0, 0, 0, 0},
        {0, 0, 0, 0, 0, 0, 1, 0, 0}, {0, 0, 0, 0, 0, 0, 1, 1, 1}};
    for (int grouped = 0; grouped < 2; grouped++) {
        const bsp_coll_group *grp = grouped ? g : NULL;
        for (unsigned a = 0; a < sizeof algs / sizeof *algs; a++) {
            bsp_coll_options o = {.algorithm = algs[a]};
            for (int op = 0; op < 9; op++) {
                if (!has[a][op])
                    continue;
                memset(recv, 0, sizeof recv);
                memset(out, 0, sizeof out);
                memcpy(recv, send, B);
                switch (op) {
                case 0: bsp_coll_broadcast(grp, recv, B, 1, &o); break;
                case 1: bsp_coll_scatter(grp, send, recv, B, 2, &o); break;
                case 2: bsp_coll_gather(grp, send, recv, B, 3, &o); break;
                case 3: bsp_coll_allgather(grp, send, recv, B, &o); break;
                case 4: bsp_coll_alltoall(grp, send, recv, B, &o); break;
                case 5: bsp_coll_reduce(grp, words, out, B / 8, fsum, 1, &o); break;
                case 6: bsp_coll_allreduce(grp, words, out, B / 8, fsum, &o); break;
                case 7: bsp_coll_scan(grp, words, out, B / 8, fsum, &o); break;
                default: bsp_coll_exscan(grp, words, out, B / 8, fsum, &o); break;
                }
                if (op >= 5)
                    record(mine, out, sizeof out);
                else
                    record(mine, recv, sizeof recv);
            }
        }
    }
    bsp_coll_group_destroy(g);
    gather(mine);
    free(mine);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    const char *transport[3] = {"shm", "shm", "staged"};
    const int spread = bspram_ranks() > 1; /* over MPI: every rank on MPI's transport */
    for (run_no = 0; run_no < 3; run_no++) {
        if (!spread)
            setenv("BSPRAM_TRANSPORT", transport[run_no], 1);
        else if (run_no == 2)
            setenv("BSPRAM_MPI_GET", "0", 1);
        spmd();
        CHECK_SPMD("coll determinism");
    }
    CHECK(ncalls[0] > 40 && ncalls[0] == ncalls[1] && ncalls[0] == ncalls[2]);
    for (int r = 1; r < 3; r++)
        for (int k = 0; k < ncalls[0]; k++) {
            CHECK(memcmp(&runs[r][k].cost, &runs[0][k].cost, sizeof runs[0][k].cost) == 0);
            CHECK(memcmp(runs[r][k].digest, runs[0][k].digest, sizeof runs[0][k].digest) == 0);
        }
    return check_report("test_coll_determinism");
}
