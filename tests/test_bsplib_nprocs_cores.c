/* bsp_begin(bsp_nprocs()) without BSPRAM_NPROCS, the README's program: every
 * process, pid 0 on the program's thread and the others on team threads
 * bound to their cores, reads the same P before its bsp_begin, the CPUs of
 * the process's affinity mask (read here with sched_getaffinity). A bound
 * thread once counted its own mask, one core, and asked for P = 1. */
#include <bsp.h>
#include <sched.h>
#include <stdlib.h>

#include "bsplib_check.h"

static unsigned cores;

static void spmd(void)
{
    bsp_pid_t asked = bsp_nprocs(); /* before bsp_begin, on this process's thread */
    bsp_begin(asked);
    uint64_t *seen = spmd_words_at_pid0(asked);
    if (seen) {
        uint64_t n = 0;
        for (unsigned t = 0; t < bsp_nprocs(); t++)
            n += seen[t];
        SPMD_CHECK(n == (uint64_t)cores * bsp_nprocs() && bsp_nprocs() == cores);
    }
    free(seen);
    bsp_end();
}

int main(int argc, char **argv)
{
    unsetenv("BSPRAM_NPROCS");
    cpu_set_t mask;
    CHECK(sched_getaffinity(0, sizeof mask, &mask) == 0);
    cores = (unsigned)CPU_COUNT(&mask);
    CHECK_EQ_U64(bsp_nprocs(), cores);
    bsp_init(spmd, argc, argv);
    spmd();
    CHECK_SPMD("every process asked for the process's cores");
    return check_report("test_bsplib_nprocs_cores");
}
