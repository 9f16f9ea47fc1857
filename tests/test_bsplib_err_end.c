/* Error: one process reaches bsp_end while the others are in bsp_sync —
 * detected at that very sync, not a hang (also oversubscribed, P = 64);
 * a process leaving its SPMD function without bsp_end; pid 0 doing so,
 * after which the program would exit (status 1, not a silent 0); and pid 2
 * calling exit inside the section (named as the one that exited). */
#include <bsp.h>
#include <stdlib.h>

#include "check.h"

static unsigned P;
static int which;

static void spmd(void)
{
    bsp_begin(P);
    bsp_sync();
    if (which == 3 && bsp_pid() == 2)
        exit(0); /* inside the section: pid 2 ends the program */
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

int main(void)
{
    unsigned ps[2] = {4, 64};
    for (int i = 0; i < 2; i++)
        check_death("end while others sync", run, &ps[i],
                    "bspram: bsp_end(): this process reached bsp_end while other processes are in bsp_sync; all must sync equally often (superstep 1, pid 1)\n", 1, 20);
    check_death("return without bsp_end", run_leave, &ps[0],
                "bsp_end: process 1 returned from the SPMD function without calling bsp_end (superstep 1, pid 1)\n", 1, 20);
    check_death("pid 0 returns without bsp_end", run_pid0_leaves, &ps[0],
                "bspram: bsp_end: the program exited inside a BSP section (pid 0 never called bsp_end)", 1, 20);
    /* exit in pid 2 was once reported as pid 0's missing bsp_end. */
    check_death("pid 2 calls exit", run_pid2_exits, &ps[0],
                "bspram: bsp_end: the program exited inside a BSP section (pid 2 called exit before "
                "its bsp_end); every process must end its section with bsp_end\n", 1, 20);
    return check_report("test_bsplib_err_end");
}
