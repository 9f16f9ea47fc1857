/* Group collectives whose members disagree end the program in one line,
 * exit status 1, as whole-machine calls do (test_coll_errors.c): the call,
 * both processes' calls in full, the arguments that differ, the group and
 * the superstep — before anything of the round lands. Groups that differ
 * from each other are fine, and cost nothing more: a correct group call
 * takes the supersteps and leaves the records it always did.
 *
 * Each death case runs in a child: P = 4, the groups {0, 1} and {2, 3}
 * (superstep 1 makes them; superstep 0 is empty), the misuse in superstep 2.
 * The check is a 5-bit signature in the first round's barrier (coll/frame.c),
 * so 1 disagreement in 32 passes it; one such pair of sizes, found here with
 * the frame's own hash, is still named, by the put that overruns the
 * receiver's window (bsp/bsplib_coll.c). The last case runs in this process:
 * the two groups pass different sizes, roots and algorithms, and every
 * result, the supersteps and C1, C2 are those of the groups' schedules. */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bsplib_check.h"
#include "bsplib_death.h"

enum {
    SIZE_SHORT, SIZE_LONG, ROOT, OP, ALGORITHM, TWO, VS_ALL, WRONG_GROUP, SLIPS, LEGIT, NCASES
};

static const bsp_coll_options binomial = {.algorithm = BSP_COLL_BINOMIAL};
static size_t slipping; /* a size whose signature equals 256's (main finds it) */

static void spmd(void)
{
    bsp_begin(4);
    const unsigned pid = bsp_pid();
    unsigned char buf[256] = {0}, out[64] = {0};
    uint64_t x[2] = {pid, pid}, y[2] = {0};
    bsp_sync(); /* superstep 0 */
    const bsp_pid_t pairs[2][2] = {{0, 1}, {2, 3}}, all[4] = {0, 1, 2, 3};
    bsp_coll_group *g = bsp_coll_group_create(pairs[pid / 2], 2); /* superstep 1 */
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    const unsigned max = bspram_op_builtin(BSPRAM_OP_MAX, BSPRAM_TYPE_U64);
    switch (which) {
    case SIZE_SHORT: /* the root sends 8 bytes where pid 3 waits for 256 */
        bsp_coll_broadcast(g, buf, pid == 3 ? 256 : 8, 0, NULL);
        break;
    case SIZE_LONG: /* the root sends 256 bytes into pid 3's 8 */
        bsp_coll_broadcast(g, buf, pid == 3 ? 8 : 256, 0, NULL);
        break;
    case ROOT:
        bsp_coll_broadcast(g, buf, 8, pid == 3 ? 1 : 0, NULL);
        break;
    case OP:
        bsp_coll_allreduce(g, x, y, 2, pid == 1 ? max : sum, NULL);
        break;
    case ALGORITHM: {
        bsp_coll_options ring = {.algorithm = BSP_COLL_RING};
        bsp_coll_options direct = {.algorithm = BSP_COLL_DIRECT};
        bsp_coll_allgather(g, buf, out, 4, pid == 1 ? &ring : &direct);
        break;
    }
    case TWO:
        bsp_coll_broadcast(g, buf, pid == 2 ? 16 : 8, pid == 2 ? 1 : 0, NULL);
        break;
    case VS_ALL: /* pid 0 on all processes, the others on their groups */
        bsp_coll_broadcast(pid == 0 ? NULL : g, buf, 8, 0, NULL);
        break;
    case WRONG_GROUP: { /* pid 1 on the group of all four, the others on pairs */
        bsp_coll_group *whole = bsp_coll_group_create(all, 4); /* superstep 2 */
        bsp_coll_broadcast(pid == 1 ? whole : g, buf, pid == 1 ? 16 : 8, 0, NULL);
        break;
    }
    case SLIPS:
        bsp_coll_broadcast(g, buf, pid == 3 ? slipping : 256, 0, &binomial);
        break;
    case LEGIT: {
        /* {0, 1}: 24 bytes from rank 1, binomial; {2, 3}: 8 from rank 0, direct. */
        const bsp_coll_options direct = {.algorithm = BSP_COLL_DIRECT};
        const int low = pid < 2;
        const size_t size = low ? 24 : 8;
        const unsigned root = low ? 1 : 0;
        for (size_t i = 0; i < sizeof buf; i++)
            buf[i] = bsp_coll_group_rank(g) == root && i < size ? (unsigned char)(i * 3 + pid / 2)
                                                                : 0xEE;
        bsp_coll_broadcast(g, buf, size, root, low ? &binomial : &direct);
        bsp_coll_cost c = bsp_coll_last_cost();
        for (size_t i = 0; i < sizeof buf; i++)
            SPMD_CHECK(buf[i] == (i < size ? (unsigned char)(i * 3 + pid / 2) : 0xEE));
        /* One round (n = 2), its largest message the 24 bytes. */
        SPMD_CHECK(c.supersteps == 1 && c.c1 == 1 && c.c2 == 24 && c.messages == 2);
        /* Different roots and counts of a reduction, then the next call. */
        uint64_t v[3] = {pid + 1, 10 * (pid + 1), 7}, r[3] = {0};
        bsp_coll_reduce(g, v, r, low ? 3 : 2, sum, low ? 0 : 1, NULL);
        if (pid == 0)
            SPMD_CHECK(r[0] == 3 && r[1] == 30 && r[2] == 14);
        if (pid == 3)
            SPMD_CHECK(r[0] == 7 && r[1] == 70 && r[2] == 0);
        c = bsp_coll_last_cost();
        SPMD_CHECK(c.supersteps == 1 && c.c1 == 1 && c.c2 == 24);
        bsp_coll_allreduce(NULL, x, y, 2, sum, NULL);
        SPMD_CHECK(y[0] == 6 && y[1] == 6);
        break;
    }
    }
    bsp_coll_group_destroy(g);
    bsp_end();
}

/* The frame's signature of a group broadcast (coll/frame.c, coll/calls.c):
 * the top 5 bits of SplitMix64's finalizer of the rotate-and-xor fold of
 * (size, root, op, algorithm, radix, ports, tradeoff) as passed, seeded
 * 0x67 for groups. */
static unsigned signature(size_t size)
{
    uint64_t w[7] = {size, 0, 0, BSP_COLL_BINOMIAL, 0, 0, 0}, h = 0x67;
    for (int i = 0; i < 7; i++)
        h = (h << 9 | h >> 55) ^ w[i];
    h = (h ^ (h >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    h = (h ^ (h >> 27)) * UINT64_C(0x94D049BB133111EB);
    h ^= h >> 31;
    return (unsigned)(h >> 59);
}

int main(void)
{
    static int k[NCASES];
    for (int i = 0; i < NCASES; i++)
        k[i] = i;
    for (slipping = 8; slipping < 256 && signature(slipping) != signature(256); slipping++)
        ;
    CHECK(slipping < 256);
    char slips[256];
    snprintf(slips, sizeof slips,
             "bspram: bsp_coll_broadcast: pid 2 put 256 bytes at offset 0 of this process's "
             "window, which has %zu: the two processes passed the call different arguments (a "
             "size, count, root or group); they must pass the same (superstep 2, pid 3)\n",
             slipping);
    struct {
        int which;
        const char *name, *expect;
    } cases[] = {
        {SIZE_SHORT, "sizes, the root's shorter", "bspram: bsp_coll_broadcast: members of a group disagree in superstep 2: pid 2 called bsp_coll_broadcast(size=8, root=0) but pid 3 called bsp_coll_broadcast(size=256, root=0) (the size differs; the group: 2 3); every member of a group must pass the same arguments\n"},
        {SIZE_LONG, "sizes, the root's longer", "bspram: bsp_coll_broadcast: members of a group disagree in superstep 2: pid 2 called bsp_coll_broadcast(size=256, root=0) but pid 3 called bsp_coll_broadcast(size=8, root=0) (the size differs; the group: 2 3); every member of a group must pass the same arguments\n"},
        {ROOT, "roots", "bspram: bsp_coll_broadcast: members of a group disagree in superstep 2: pid 2 called bsp_coll_broadcast(size=8, root=0) but pid 3 called bsp_coll_broadcast(size=8, root=1) (the root differs; the group: 2 3); every member of a group must pass the same arguments\n"},
        {OP, "operations", "bspram: bsp_coll_allreduce: members of a group disagree in superstep 2: pid 0 called bsp_coll_allreduce(count=2, op=7) but pid 1 called bsp_coll_allreduce(count=2, op=10) (the op differs; the group: 0 1); every member of a group must pass the same arguments\n"},
        {ALGORITHM, "algorithms", "bspram: bsp_coll_allgather: members of a group disagree in superstep 2: pid 0 called bsp_coll_allgather(block=4, algorithm=direct, radix=0, ports=0) but pid 1 called bsp_coll_allgather(block=4, algorithm=ring, radix=0, ports=0) (the algorithm differs; the group: 0 1); every member of a group must pass the same arguments\n"},
        {TWO, "size and root", "bspram: bsp_coll_broadcast: members of a group disagree in superstep 2: pid 2 called bsp_coll_broadcast(size=16, root=1) but pid 3 called bsp_coll_broadcast(size=8, root=0) (the size and root differ; the group: 2 3); every member of a group must pass the same arguments\n"},
        {VS_ALL, "all processes against a group", "bspram: bsp_coll_broadcast: processes disagree in superstep 2: pid 0 called bsp_coll_broadcast(size=8, root=0) on all processes but pid 1 called bsp_coll_broadcast(size=8, root=0) on the group 0 1; every process must call it on all processes, or every one on its group\n"},
        {WRONG_GROUP, "another group", "bspram: bsp_coll_broadcast: members of a group disagree in superstep 3: pid 1 called bsp_coll_broadcast(size=16, root=0) on the group 0 1 2 3 but pid 0 called it on the group 0 1; every member of a group must pass that group\n"},
        {SLIPS, "past the signature", slips},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_death_status(cases[i].name, bsplib_death_run, &k[cases[i].which], cases[i].expect, 1,
                           20, 1);

    /* Groups that differ from each other: no error, the groups' costs. */
    which = LEGIT;
    bsp_init(spmd, 0, NULL);
    spmd();
    CHECK_SPMD("groups passing different arguments");
    return check_report("test_coll_group_errors");
}
