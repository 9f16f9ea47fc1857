/* bsp_abort / bsp_vabort: one process aborts while the others wait in
 * bsp_sync (P = 4 and oversubscribed P = 64): the printf-style message is
 * printed as given, once, every process stops at once, the exit status is 1.
 * Also from pid 0, and outside a section; an empty message still names the
 * process and superstep (it once printed nothing). */
#include <bsp.h>
#include <stdarg.h>

#include "check.h"

static unsigned P, who;

static void vabort_helper(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bsp_vabort(fmt, ap);
}

static void spmd(void)
{
    bsp_begin(P);
    bsp_sync();
    if (bsp_pid() == who) {
        if (P == 3)
            vabort_helper("vabort %s %d\n", "from", (int)bsp_pid());
        if (P == 5)
            bsp_abort("%s", "");
        bsp_abort("process %u of %u aborts: %d\n", bsp_pid(), bsp_nprocs(), 42);
    }
    bsp_sync(); /* everybody else waits here, and is stopped */
    bsp_end();
}

static void run(void *arg)
{
    const unsigned *pw = arg;
    P = pw[0];
    who = pw[1];
    bsp_init(spmd, 0, NULL);
    spmd();
}

static void outside(void *arg)
{
    (void)arg;
    bsp_abort("no section %s\n", "needed");
}

static void outside_empty(void *arg)
{
    (void)arg;
    bsp_abort("%s", ""); /* bsp_abort(""), without a compiler's warning */
}

int main(void)
{
    unsigned a[2] = {4, 2}, b[2] = {64, 63}, c[2] = {4, 0}, d[2] = {3, 1}, e[2] = {5, 3};
    check_death("abort P=4", run, a, "process 2 of 4 aborts: 42\n", 1, 20);
    check_death("abort P=64", run, b, "process 63 of 64 aborts: 42\n", 1, 20);
    check_death("abort pid 0", run, c, "process 0 of 4 aborts: 42\n", 1, 20);
    check_death("vabort", run, d, "vabort from 1\n", 1, 20);
    check_death("abort outside", outside, NULL, "no section needed\n", 1, 20);
    check_death("abort with an empty message", run, e,
                "bspram: bsp_abort(\"\"): process 3 aborted the program with an empty message "
                "(superstep 1, pid 3)\n", 1, 20);
    check_death("abort outside, empty", outside_empty, NULL,
                "bspram: bsp_abort(\"\"): the program aborted with an empty message, outside a "
                "BSP section\n", 1, 20);
    return check_report("test_bsplib_abort");
}
