/* Program shape (a): main calls bsp_init(spmd, argc, argv), asks bsp_nprocs()
 * before any bsp_begin, then calls spmd(), whose first statement is
 * bsp_begin and last bsp_end. Checks: bsp_nprocs outside a section is the
 * core count; locals declared before bsp_begin are private to each process;
 * bsp_pid/bsp_nprocs/bsp_time inside; after bsp_end only pid 0 runs the
 * rest of spmd and returns to main, with its locals intact; sections can
 * follow one another. */
#include <bsp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "bsplib_check.h"

static unsigned P;
static atomic_int after_end;     /* how many processes ran code after bsp_end */
static atomic_int before_begin;  /* how many ran the code before bsp_begin */
static unsigned pid_seen[8];
static int pid0_local_after_end;

static void spmd(void)
{
    unsigned s = 12345, mark; /* per process: each has its own stack frame */
    atomic_fetch_add(&before_begin, 1);
    bsp_begin(P);
    s = bsp_pid();
    mark = 100 + s;
    SPMD_CHECK(bsp_nprocs() == P);
    double t0 = bsp_time();
    SPMD_CHECK(t0 >= 0);
    bsp_sync();
    SPMD_CHECK(bsp_time() >= t0);
    SPMD_CHECK(s == bsp_pid() && mark == 100 + s); /* nobody else wrote our locals */
    pid_seen[s] = s + 1;
    bsp_end();
    atomic_fetch_add(&after_end, 1);
    pid0_local_after_end = (int)mark;
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK(bsp_nprocs() >= 1 && (long)bsp_nprocs() <= cores);
    for (P = 1; P <= 8; P *= 2) {
        atomic_store(&after_end, 0);
        atomic_store(&before_begin, 0);
        spmd();
        CHECK_SPMD("shape (a)");
        CHECK_EQ_U64(atomic_load(&after_end), 1);
        CHECK_EQ_U64(atomic_load(&before_begin), P);
        CHECK_EQ_U64(pid0_local_after_end, 100);
        for (unsigned s = 0; s < P; s++)
            CHECK_EQ_U64(pid_seen[s], s + 1);
    }
    return check_report("test_bsplib_shape_init");
}
