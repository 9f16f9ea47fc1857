/* The program coll_gl.sh runs: P processes (argv[1]) send one BSMP message
 * each, then make an automatic 8-byte allreduce — the first call that
 * selects, so the one that probes g and l if nothing is cached — and check
 * that the sum is right, that the call's own cost is one superstep (the
 * probe's supersteps are not the program's) and that the BSMP queue still
 * holds the message sent before the call (as after a bsp_sync). pid 0 prints the
 * g and l the selection prices with, read back through bsp_coll_predict:
 * a direct broadcast on 2 processes is one round of h = b bytes, so its
 * predicted cost is l for b = 0 and l + 1000·g for b = 1000. Exit 0 if all
 * is right. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bsp/bsp.h"
#include "coll/bsp_coll.h"

static unsigned P = 2;
static _Atomic int wrong;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    uint64_t x = s + 1, sum = 0;
    bsp_send((s + 1) % p, NULL, &x, sizeof x);
    bsp_coll_allreduce(NULL, &x, &sum, 1, bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64), NULL);
    bsp_coll_cost cost = bsp_coll_last_cost();
    bsp_nprocs_t nmsg;
    bsp_size_t bytes;
    bsp_qsize(&nmsg, &bytes);
    int ok = sum == (uint64_t)p * (p + 1) / 2 && cost.supersteps == 1 && nmsg == 1;
    bsp_coll_options direct = {.algorithm = BSP_COLL_DIRECT};
    double l = bsp_coll_predict(BSP_COLL_BROADCAST, 2, 0, &direct).cost_ns;
    double g = (bsp_coll_predict(BSP_COLL_BROADCAST, 2, 1000, &direct).cost_ns - l) / 1000;
    if (s == 0)
        printf("g=%.6g l=%.6g %s\n", g, l, ok ? "ok" : "WRONG");
    if (!ok)
        fprintf(stderr, "pid %u: sum %llu, %llu supersteps, %u messages queued\n", s,
                (unsigned long long)sum, (unsigned long long)cost.supersteps, (unsigned)nmsg);
    if (!ok)
        wrong = 1;
    bsp_end();
}

int main(int argc, char **argv)
{
    P = argc > 1 ? (unsigned)atoi(argv[1]) : 2;
    bsp_init(spmd, argc, argv);
    spmd();
    return wrong;
}
