/* Oversubscription: P = 64 processes on however few cores, 200 supersteps
 * of a ring (each process puts one word to the next). The aim is well under
 * 1 s for this (MulticoreBSP for C needs 34 s at P = 16 on two cores); the
 * time is printed, not asserted: a loaded shared machine may take any time
 * (bench/bench_bsplib.c measures oversubscribed supersteps), and the test's timeout catches a hang. The ring's
 * values are checked each step. */
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "bsplib_check.h"

enum { STEPS = 200 };
static unsigned P;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    uint64_t token = s, in = 0;
    bsp_push_reg(&in, sizeof in);
    bsp_sync();
    for (unsigned k = 0; k < STEPS; k++) {
        bsp_put((s + 1) % p, &token, &in, 0, sizeof token);
        bsp_sync();
        token = in; /* after k+1 steps: the token that started at s − k − 1 */
        SPMD_CHECK(token == (s + p * STEPS - k - 1) % p);
    }
    bsp_pop_reg(&in);
    bsp_end();
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    unsigned ps[] = {4, 16, 64};
    for (int i = 0; i < 3; i++) {
        P = ps[i];
        double t = now();
        spmd();
        t = now() - t;
        printf("P = %u on %u cores: %d ring supersteps in %.3f s\n", P, bsp_nprocs(), STEPS, t);
        CHECK_SPMD("ring");
    }
    return check_report("test_bsplib_oversub");
}
