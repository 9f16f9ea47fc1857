/* Error: one process reaches bsp_end while the others are in bsp_sync —
 * detected at that very sync, not a hang (also oversubscribed, P = 64);
 * a process leaving its SPMD function without bsp_end; pid 0 doing so,
 * after which the program would exit (status 1, not a silent 0); and pid 2
 * calling exit inside the section (named as the one that exited, the
 * program's own exit status kept: exit(7) ends with 7, exit(0) with 1). */
#include <bsp.h>
#include <stdlib.h>

#include "check.h"

static unsigned P;
static int which, status;

static void spmd(void)
{
    bsp_begin(P);
    bsp_sync();
    if (which == 3 && bsp_pid() == 2)
        exit(status); /* inside the section: pid 2 ends the program */
    if (which == 2 && bsp_pid() == 0)
        return; /* pid 0: no bsp_end, and main goes on to exit */
    if (bsp_pid() == 1) {
        if (which == 1)
            return; /* no bsp_end */
        bsp_end();
        return;
    }
    bsp_sync();
    bsp_sync();
    bsp_end();
}

static void run(void *arg)
{
    P = *(unsigned *)arg;
    bsp_init(spmd, 0, NULL);
    spmd();
}

static void run_leave(void *arg)
{
    which = 1;
    run(arg);
}

static void run_pid0_leaves(void *arg)
{
    which = 2;
    run(arg);
    exit(0); /* what main's return does: the exit handlers must object */
}

static void run_pid2_exits(void *arg)
{
    which = 3;
    run(arg);
    exit(0);
}

static void run_pid2_exits_7(void *arg)
{
    status = 7;
    run_pid2_exits(arg);
}

static void run_pid0_exits_7(void *arg)
{
    which = 2;
    run(arg);
    exit(7);
}

int main(void)
{
    unsigned ps[2] = {4, 64};
    for (int i = 0; i < 2; i++)
        check_death("end while others sync", run, &ps[i],
                    "bspram: bsp_end(): this process reached bsp_end while other processes are in bsp_sync; all must sync equally often (superstep 1, pid 1)\n", 1, 20);
    check_death("return without bsp_end", run_leave, &ps[0],
                "bsp_end: process 1 returned from the SPMD function without calling bsp_end (superstep 1, pid 1)\n", 1, 20);
    check_death("pid 0 returns without bsp_end", run_pid0_leaves, &ps[0],
                "bspram: bsp_end: the program exited inside a BSP section (pid 0 never called bsp_end, "
                "exit status 0)", 1, 20);
    /* exit in pid 2 was once reported as pid 0's missing bsp_end. */
    check_death_status("pid 2 calls exit(0)", run_pid2_exits, &ps[0],
                       "bspram: bsp_end: the program exited inside a BSP section (pid 2 called exit "
                       "with status 0 before its bsp_end, superstep 1); every process must end its "
                       "section with bsp_end\n", 1, 20, 1);
    /* The program's own status survives: it was once replaced by 1. */
    check_death_status("pid 2 calls exit(7)", run_pid2_exits_7, &ps[0],
                       "bspram: bsp_end: the program exited inside a BSP section (pid 2 called exit "
                       "with status 7 before its bsp_end, superstep 1); every process must end its "
                       "section with bsp_end\n", 1, 20, 7);
    check_death_status("pid 0 exits with 7", run_pid0_exits_7, &ps[0],
                       "bspram: bsp_end: the program exited inside a BSP section (pid 0 never called "
                       "bsp_end, exit status 7)", 1, 20, 7);
    return check_report("test_bsplib_err_end");
}
