/* Error: BSPlib calls outside a bsp_begin/bsp_end section (and bsp_begin
 * misuse). bsp_nprocs and bsp_abort are legal outside. */
#include <bsp.h>
#include <stdint.h>

#include "check.h"

static void pid_outside(void *arg) { (void)arg; (void)bsp_pid(); }
static void sync_outside(void *arg) { (void)arg; bsp_sync(); }
static void end_outside(void *arg) { (void)arg; bsp_end(); }
static void put_outside(void *arg)
{
    uint64_t x = 0;
    (void)arg;
    bsp_put(0, &x, &x, 0, sizeof x);
}
static void begin_zero(void *arg) { (void)arg; bsp_begin(0); }

static void nested(void)
{
    bsp_begin(1);
    bsp_begin(1);
    bsp_end();
}
static void begin_nested(void *arg)
{
    (void)arg;
    bsp_init(nested, 0, NULL);
    nested();
}

static void after(void)
{
    bsp_begin(1);
    bsp_end();
    bsp_qsize(NULL, NULL);
}
static void call_after_end(void *arg)
{
    (void)arg;
    bsp_init(after, 0, NULL);
    after();
}

int main(void)
{
    CHECK(bsp_nprocs() >= 1);
    check_death("bsp_pid", pid_outside, NULL, "bspram: bsp_pid(): called outside a bsp_begin/bsp_end section\n", 1, 20);
    check_death("bsp_sync", sync_outside, NULL, "bspram: bsp_sync(): called outside a bsp_begin/bsp_end section\n", 1, 20);
    check_death("bsp_end", end_outside, NULL, "bspram: bsp_end(): called outside a bsp_begin/bsp_end section\n", 1, 20);
    check_death("bsp_put", put_outside, NULL, "bspram: bsp_put: called outside a bsp_begin/bsp_end section\n", 1, 20);
    check_death("after bsp_end", call_after_end, NULL, "bspram: bsp_qsize: called outside a bsp_begin/bsp_end section\n", 1, 20);
    check_death("bsp_begin(0)", begin_zero, NULL, "bspram: bsp_begin(P=0): P must be in [1, 65536]\n", 1, 20);
    check_death("nested bsp_begin", begin_nested, NULL,
                "bspram: bsp_begin(P=1): already inside a BSP section; sections may follow one another but not nest (superstep 0, pid 0)\n", 1, 20);
    return check_report("test_bsplib_err_outside");
}
