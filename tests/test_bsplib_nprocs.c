/* bsp_nprocs() outside a section: $BSPRAM_NPROCS before the first section
 * (so programs doing bsp_begin(bsp_nprocs()) run with more processes than
 * cores), the cores without it, the last section's P after one; a bad value
 * is one error line. */
#include <bsp.h>
#include <stdlib.h>

#include "bsplib_check.h"

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    uint64_t *ran = spmd_words_at_pid0(1); /* pid 0 counts the processes */
    uint64_t n = 0;
    for (unsigned t = 0; ran && t < bsp_nprocs(); t++)
        n += ran[t];
    if (ran)
        SPMD_CHECK(n == 8 && bsp_nprocs() == 8);
    free(ran);
    bsp_end();
}

static void bad_value(void *arg)
{
    setenv("BSPRAM_NPROCS", (const char *)arg, 1);
    bsp_nprocs();
}

int main(int argc, char **argv)
{
    /* Bad values first: after a section bsp_nprocs() no longer reads them. */
    static const char *bad[] = {"abc", " 8", "8x", "0", "65537", "-1", "1e3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check_death(bad[i], bad_value, (void *)bad[i], "bsp_nprocs(): BSPRAM_NPROCS=", 1, 10);
    check_death("one line", bad_value, (void *)"abc",
                "bspram: bsp_nprocs(): BSPRAM_NPROCS=abc is not a whole number in [1, 65536]\n", 1, 10);
    unsetenv("BSPRAM_NPROCS");
    bsp_pid_t cores = bsp_nprocs();
    CHECK(cores >= 1);
    setenv("BSPRAM_NPROCS", "8", 1);
    CHECK_EQ_U64(bsp_nprocs(), 8);
    bsp_init(spmd, argc, argv);
    spmd(); /* bsp_begin(bsp_nprocs()) = bsp_begin(8) */
    CHECK_SPMD("8 processes");
    CHECK_EQ_U64(bsp_nprocs(), 8); /* the last section's P */
    setenv("BSPRAM_NPROCS", "64", 1);
    CHECK_EQ_U64(bsp_nprocs(), 8); /* still: a section has run */
    return check_report("test_bsplib_nprocs");
}
