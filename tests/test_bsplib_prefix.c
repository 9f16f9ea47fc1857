/* Classic BSPlib program: prefix sums of a block-distributed array. Each
 * process sums its block, puts the sum to every higher process, and adds the
 * sums of the lower ones — compared by each process, on its block, with a
 * sequential running sum. */
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>

#include "bsplib_check.h"

static unsigned P;
enum { N = 5000 };
static int64_t input[N], reference[N]; /* made by main before bsp_init */

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    const size_t lo = (size_t)N * s / p, hi = (size_t)N * (s + 1) / p;
    int64_t *sums = calloc(p, sizeof *sums);
    bsp_push_reg(sums, p * sizeof *sums);
    bsp_sync();

    int64_t mine = 0;
    for (size_t i = lo; i < hi; i++)
        mine += input[i];
    for (unsigned t = s; t < p; t++)
        bsp_put(t, &mine, sums, s * sizeof mine, sizeof mine);
    bsp_sync();

    int64_t run = 0;
    size_t bad = 0;
    for (unsigned t = 0; t < s; t++)
        run += sums[t];
    for (size_t i = lo; i < hi; i++) {
        run += input[i];
        bad += run != reference[i];
    }
    SPMD_CHECK(bad == 0);
    bsp_pop_reg(sums);
    bsp_sync();
    free(sums);
    bsp_end();
}

int main(int argc, char **argv)
{
    uint64_t x = 12345;
    int64_t run = 0;
    for (size_t i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        input[i] = (int64_t)(x >> 40) - (1 << 23);
        reference[i] = run += input[i];
    }
    bsp_init(spmd, argc, argv);
    for (size_t k = 0; k < BSPLIB_TEST_NPS; k++) {
        P = bsplib_test_ps[k];
        spmd();
        CHECK_SPMD("prefix sums");
    }
    return check_report("test_bsplib_prefix");
}
