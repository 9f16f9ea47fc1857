/* Program shape (a): main calls bsp_init(spmd, argc, argv), asks bsp_nprocs()
 * before any bsp_begin, then calls spmd(), whose first statement is
 * bsp_begin and last bsp_end. Checks: bsp_nprocs outside a section is the
 * core count (over MPI the ranks); locals declared before bsp_begin are private to each process;
 * bsp_pid/bsp_nprocs/bsp_time inside; after bsp_end only pid 0 runs the
 * rest of spmd and returns to main, with its locals intact; sections can
 * follow one another. */
#include <bsp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "bsplib_check.h"

static unsigned P;
static atomic_int after_end; /* how many processes ran code after bsp_end */
static int pid0_local_after_end;

static void spmd(void)
{
    unsigned s = 12345, mark; /* per process: each has its own stack frame */
    bsp_begin(P);
    const unsigned ran_before = s == 12345; /* this process ran the code before bsp_begin */
    s = bsp_pid();
    mark = 100 + s;
    if (s == 0) /* main's P is pid 0's: BSPlib gives the others its value */
        SPMD_CHECK(bsp_nprocs() == P);
    double t0 = bsp_time();
    SPMD_CHECK(t0 >= 0);
    bsp_sync();
    SPMD_CHECK(bsp_time() >= t0);
    SPMD_CHECK(s == bsp_pid() && mark == 100 + s); /* nobody else wrote our locals */
    /* Every pid in [0, P) once, each process having run the code before
     * bsp_begin: pid 0 sees 1000·ran_before + pid + 1 from each. */
    uint64_t *seen = spmd_words_at_pid0(1000u * ran_before + s + 1);
    for (unsigned t = 0; seen && t < bsp_nprocs(); t++)
        SPMD_CHECK(seen[t] == 1000u + t + 1);
    free(seen);
    bsp_end();
    atomic_fetch_add(&after_end, 1);
    pid0_local_after_end = (int)mark;
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    /* Outside a section: the cores, or over MPI the ranks (bsp.h). */
    const char *ranks = getenv("OMPI_COMM_WORLD_SIZE"); /* Open MPI's; MPICH's: */
    if (!ranks)
        ranks = getenv("PMI_SIZE");
    if (ranks)
        CHECK_EQ_U64(bsp_nprocs(), strtoul(ranks, NULL, 10));
    else
        CHECK(bsp_nprocs() >= 1 && (long)bsp_nprocs() <= sysconf(_SC_NPROCESSORS_ONLN));
    for (P = 1; P <= 8; P *= 2) {
        atomic_store(&after_end, 0);
        spmd();
        CHECK_SPMD("shape (a)");
        CHECK_EQ_U64(atomic_load(&after_end), 1);
        CHECK_EQ_U64(pid0_local_after_end, 100);
    }
    return check_report("test_bsplib_shape_init");
}
