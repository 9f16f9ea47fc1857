/* Every misuse of bsp_shm (combine/bsp_shm.h) ends the program in one line
 * naming the call, its arguments, the superstep and the process (or, for
 * calls that are not collective, the processes), with exit status 1.
 *
 * Each case runs in a child process: a section of P = 3 whose superstep 0
 * allocates segment a (10 cells of 8 bytes, hashed: handle 0x100000001) and
 * b (10 cells of 4 bytes, block: 0x100000002); the misuse follows in
 * superstep 1 (or 2). Pointers vary between runs, so lines that print one
 * are checked in two pieces: up to the pointer and after it. Conflicts met
 * while combining (common writes that differ, two update species at a cell)
 * are the engine's lines (combine.h), with the same exit status. A hashed
 * segment too large for the memory is refused at the sync, at once (its
 * tables were built for hours). */
#include <bsp.h>
#include <bsp_shm.h>
#include <stdint.h>
#include <stdio.h>

#include "bsplib_death.h"

static uint64_t add(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return a + b;
}
static uint64_t mul(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return a * b;
}

enum {
    FREED, NEVER, FOREIGN, INDEX, WIDTH, UNKNOWN_OP, NEW_OP, ALLOC_SOME, ALLOC_NOT_PID0,
    ALLOC_ARGS, FREE_SOME, SAME_STEP, OUTSIDE_READ, OUTSIDE_ALLOC, FREE_TWICE, BASIS_TEXT,
    BASIS_DIFFER, OP_DIFFER, COMMON, SPECIES, POLICY, NULL_DST, FREE_NEW, ALLOC_WIDTH, TOO_MANY_OPS,
    USER_UNKNOWN, HUGE, NCASES
};

static bsp_shm_t old_handle; /* FOREIGN: from the first section */
static int round_no;

static void spmd(void)
{
    uint64_t x = 0, v = 1;
    if (which == OUTSIDE_READ)
        bsp_shm_read(1, 0, &x);
    if (which == OUTSIDE_ALLOC)
        bsp_shm_alloc(4, 8, BSP_SHM_HASHED);
    bsp_begin(3);
    const unsigned pid = bsp_pid();
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    bsp_shm_t a = bsp_shm_alloc(10, 8, BSP_SHM_HASHED);
    bsp_shm_t b = bsp_shm_alloc(10, 4, BSP_SHM_BLOCK);
    bsp_sync(); /* superstep 0 */
    switch (which) {
    case FREED:
        bsp_shm_free(a);
        bsp_sync();
        if (pid == 1)
            bsp_shm_read(a, 0, &x);
        break;
    case NEVER:
        if (pid == 2)
            bsp_shm_read(12345, 0, &x);
        break;
    case FOREIGN:
        if (round_no == 0) {
            if (pid == 0)
                old_handle = a;
        } else if (pid == 1) {
            bsp_shm_reduce(old_handle, 0, sum, &v);
        }
        break;
    case INDEX:
        if (pid == 0)
            bsp_shm_write(a, 10, BSP_SHM_COMMON, &v);
        break;
    case WIDTH:
        if (pid == 2)
            bsp_shm_reduce(b, 0, sum, &v);
        break;
    case UNKNOWN_OP:
        if (pid == 0)
            bsp_shm_fetch_op(a, 1, 40, &v, &x);
        break;
    case NEW_OP: {
        unsigned u = bsp_shm_add_op("plus", add, NULL, 0);
        if (pid == 1)
            bsp_shm_combine_write(a, 2, u, &v);
        break;
    }
    case USER_UNKNOWN:
        bsp_shm_add_op("plus", add, NULL, 0);
        bsp_sync();
        if (pid == 2)
            bsp_shm_reduce(a, 3, 22, &v);
        break;
    case ALLOC_SOME:
        if (pid != 2)
            bsp_shm_alloc(10, 8, BSP_SHM_HASHED);
        break;
    case ALLOC_NOT_PID0:
        if (pid != 0)
            bsp_shm_alloc(10, 8, BSP_SHM_CYCLIC);
        break;
    case ALLOC_ARGS:
        bsp_shm_alloc(pid == 1 ? 12 : 10, 8, BSP_SHM_HASHED);
        break;
    case FREE_SOME:
        if (pid == 1)
            bsp_shm_free(a);
        break;
    case SAME_STEP: {
        bsp_shm_t c = bsp_shm_alloc(5, 2, BSP_SHM_CYCLIC);
        if (pid == 0)
            bsp_shm_read(c, 0, &x);
        break;
    }
    case FREE_TWICE:
        bsp_shm_free(b);
        if (pid == 0)
            bsp_shm_free(b);
        break;
    case BASIS_TEXT:
        bsp_shm_set_basis(pid == 1 ? "7x3" : "3");
        break;
    case BASIS_DIFFER:
        bsp_shm_set_basis(pid == 2 ? "auto" : "3");
        break;
    case OP_DIFFER:
        bsp_shm_add_op("f", pid == 2 ? mul : add, NULL, 0);
        break;
    case COMMON:
        v = pid == 1 ? 5 : 4;
        bsp_shm_write(a, 3, BSP_SHM_COMMON, &v);
        break;
    case SPECIES:
        if (pid == 0)
            bsp_shm_write(a, 4, BSP_SHM_ARBITRARY, &v);
        if (pid == 1)
            bsp_shm_reduce(a, 4, sum, &v);
        break;
    case POLICY:
        if (pid == 1)
            bsp_shm_write(b, 0, (bsp_shm_policy)7, &v);
        break;
    case NULL_DST:
        if (pid == 2)
            bsp_shm_read(b, 9, NULL);
        break;
    case FREE_NEW: {
        bsp_shm_t c = bsp_shm_alloc(5, 2, BSP_SHM_CYCLIC);
        bsp_shm_free(c);
        break;
    }
    case ALLOC_WIDTH:
        bsp_shm_alloc(10, pid == 0 ? 9 : 8, BSP_SHM_HASHED);
        break;
    case TOO_MANY_OPS:
        for (int k = 0; k < 12; k++)
            bsp_shm_add_op("plus", add, NULL, 0);
        break;
    case HUGE: /* 2^40 cells: the tables would need 24 TiB (built for hours, then out of memory) */
        bsp_shm_alloc((size_t)1 << 40, 8, BSP_SHM_HASHED);
        break;
    }
    bsp_sync();
    bsp_sync();
    bsp_end();
}

/* FOREIGN: two sections, the second using a handle of the first. */
static void two_sections(void *arg)
{
    which = *(int *)arg;
    bsp_init(spmd, 0, NULL);
    spmd();
    round_no = 1;
    spmd();
}

#define PTR "0x" /* a pointer follows */

int main(void)
{
    static int k[NCASES];
    for (int i = 0; i < NCASES; i++)
        k[i] = i;
    struct {
        int which;
        const char *name, *expect;
    } cases[] = {
        {FREED, "freed", "bspram: bsp_shm_read(seg=0x100000001, index=0, dst=" PTR},
        {FREED, "freed line", "): the segment was freed (bsp_shm_free in superstep 1) (superstep 2, pid 1)\n"},
        {NEVER, "never allocated", "bspram: bsp_shm_read(seg=0x3039, index=0, dst=" PTR},
        {NEVER, "never allocated line", "): not a segment: this section's bsp_shm_alloc calls have returned 0x100000001 to 0x100000002 (superstep 1, pid 2)\n"},
        {FOREIGN, "foreign", "bspram: bsp_shm_reduce(seg=0x100000001, index=0, op=sum:u64, value=" PTR},
        {FOREIGN, "foreign line", "): the handle is from BSP section 1 (this is section 2); segments end with their section (superstep 1, pid 1)\n"},
        {INDEX, "index", "bspram: bsp_shm_write(seg=0x100000001, index=10, policy=common, src=" PTR},
        {INDEX, "index line", "): index outside [0, 10) (superstep 1, pid 0)\n"},
        {WIDTH, "width", "bspram: bsp_shm_reduce(seg=0x100000002, index=0, op=sum:u64, value=" PTR},
        {WIDTH, "width line", "): reduce, fetch-and-op and combining write need cells of 8 bytes; the segment's cells have 4 (superstep 1, pid 2)\n"},
        {UNKNOWN_OP, "unknown op", "bspram: bsp_shm_fetch_op(seg=0x100000001, index=1, op=40, value=" PTR},
        {UNKNOWN_OP, "unknown op line", "): unknown operation; valid: 0..20 (built in: bspram_op_builtin); no operation was registered with bsp_shm_add_op (superstep 1, pid 0)\n"},
        {NEW_OP, "op of this superstep", "bspram: bsp_shm_combine_write(seg=0x100000001, index=2, op=21, value=" PTR},
        {NEW_OP, "op of this superstep line", "): operation 21 is registered by a bsp_shm_add_op of this superstep; it is usable from the next bsp_sync on (superstep 1, pid 1)\n"},
        {USER_UNKNOWN, "unknown user op", "bspram: bsp_shm_reduce(seg=0x100000001, index=3, op=22, value=" PTR},
        {USER_UNKNOWN, "unknown user op line", "): unknown operation; valid: 0..20 (built in: bspram_op_builtin) and 21..21 (bsp_shm_add_op) (superstep 2, pid 2)\n"},
        {ALLOC_SOME, "alloc not collective", "bspram: bsp_shm_alloc(cells=10, width=8, layout=hashed): called by pid 0 but not by pid 2 in superstep 1; all processes must call it in the same superstep\n"},
        {ALLOC_NOT_PID0, "alloc not on pid 0", "bspram: bsp_shm_alloc(cells=10, width=8, layout=cyclic): called by pid 1 but not by pid 0 in superstep 1; all processes must call it in the same superstep\n"},
        {ALLOC_ARGS, "alloc arguments differ", "bspram: bsp_shm_alloc: processes disagree in superstep 1: pid 0 calls bsp_shm_alloc(cells=10, width=8, layout=hashed), pid 1 calls bsp_shm_alloc(cells=12, width=8, layout=hashed) (their collective call 1 of the superstep); all processes must make the same calls in the same order\n"},
        {FREE_SOME, "free not collective", "bspram: bsp_shm_free(seg=0x100000001): called by pid 1 but not by pid 0 in superstep 1; all processes must call it in the same superstep\n"},
        {SAME_STEP, "superstep of the allocation", "bspram: bsp_shm_read(seg=0x100000003, index=0, dst=" PTR},
        {SAME_STEP, "superstep of the allocation line", "): the segment is allocated by a bsp_shm_alloc of this superstep; it exists from the next bsp_sync on (superstep 1, pid 0)\n"},
        {OUTSIDE_READ, "read outside", "bspram: bsp_shm_read(seg=0x1, index=0, dst=" PTR},
        {OUTSIDE_READ, "read outside line", "): called outside a bsp_begin/bsp_end section\n"},
        {OUTSIDE_ALLOC, "alloc outside", "bspram: bsp_shm_alloc(cells=4, width=8, layout=hashed): called outside a bsp_begin/bsp_end section\n"},
        {FREE_TWICE, "free twice", "bspram: bsp_shm_free(seg=0x100000002): the segment is freed twice in this superstep (superstep 1, pid 0)\n"},
        {BASIS_TEXT, "basis text", "bspram: bsp_shm_set_basis(basis=\"7x3\"): "},
        {BASIS_TEXT, "basis text line", "; write auto, auto:D, adaptive or a basis such as 4x2 with product P = 3 (superstep 1, pid 1)\n"},
        {BASIS_DIFFER, "basis differs", "bspram: bsp_shm_set_basis: processes disagree in superstep 1: pid 0 calls bsp_shm_set_basis(basis=\"3\"), pid 2 calls bsp_shm_set_basis(basis=\"auto\") (their collective call 1 of the superstep); all processes must make the same calls in the same order\n"},
        {OP_DIFFER, "op differs", "bspram: bsp_shm_add_op: processes disagree in superstep 1: pid 0 calls bsp_shm_add_op(name=f, fn=" PTR},
        {OP_DIFFER, "op differs line", ", identity=0) (their collective call 1 of the superstep); all processes must make the same calls in the same order\n"},
        {COMMON, "common write conflict", "bspram: bspram_combine: common-write conflict at address 0x10000000003 (segment 1, cell 3): origin 0 writes 4, origin 1 writes 5\n"},
        {SPECIES, "two species", "bspram: bspram_combine: two update species at address 0x10000000004 in one batch: write(arbitrary) and reduce(sum:u64#7)\n"},
        {POLICY, "policy", "bspram: bsp_shm_write(seg=0x100000002, index=0, policy=7, src=" PTR},
        {POLICY, "policy line", "): unknown policy; valid: 1 BSP_SHM_ARBITRARY, 2 BSP_SHM_PRIORITY, 3 BSP_SHM_COMMON (superstep 1, pid 1)\n"},
        {NULL_DST, "dst NULL", "bspram: bsp_shm_read(seg=0x100000002, index=9, dst="},
        {NULL_DST, "dst NULL line", "): dst is NULL (superstep 1, pid 2)\n"},
        {FREE_NEW, "free of a new segment", "bspram: bsp_shm_free(seg=0x100000003): the segment is allocated by a bsp_shm_alloc of this superstep; it exists from the next bsp_sync on (superstep 1, pid "},
        {ALLOC_WIDTH, "alloc width", "bspram: bsp_shm_alloc(cells=10, width=9, layout=hashed): width outside [1, 8] bytes (superstep 1, pid 0)\n"},
        {TOO_MANY_OPS, "too many operations", "bspram: bsp_shm_add_op(name=plus, fn=" PTR},
        {TOO_MANY_OPS, "too many operations line", ", identity=0): more than 11 user operations in one section (superstep 1, pid "},
        {HUGE, "a segment that cannot be built", "bspram: bsp_shm_alloc(cells=1099511627776, width=8, layout=hashed): "
         "a hashed segment of 1099511627776 cells needs at least 24 TiB for its owners' tables (3/2 slots of 8 + 8 bytes "
         "per cell this process holds); this process can have at most "},
        {HUGE, "a segment that cannot be built line", " (superstep 1)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_death_status(cases[i].name, cases[i].which == FOREIGN ? two_sections : bsplib_death_run,
                           &k[cases[i].which], cases[i].expect, 1, 20, 1);
    return check_report("test_bsp_shm_errors");
}
