/* Every misuse of the collectives (coll/bsp_coll.h) ends the program in one
 * line naming the call, its arguments, the superstep and the process — or,
 * where processes disagree, both processes and their calls — with exit
 * status 1, and never hangs.
 *
 * Each case runs in a child process: a section of P = 3 whose superstep 0
 * is empty; the misuse follows in superstep 1. The direct allgather (one
 * superstep with n − 1 ports) is the collective the others are measured
 * against. Pointers vary between runs, so lines that print one are checked
 * up to it and after it. */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdint.h>
#include <stdio.h>

#include "bsplib_death.h"

enum {
    VS_SYNC, VS_OTHER, VS_END, ARGS, ROOT, NULL_RECV, NULL_SEND, RADIX_LOW, RADIX_HIGH, RADIX_AUTO,
    PORTS_RING, NO_ALG, UNKNOWN_ALG, IN_PLACE_RECV, IN_PLACE_BCAST, UNKNOWN_OP, G_DIFFER,
    G_NOT_IN, G_REPEATED, G_RANGE, G_OUTSIDER, G_NULL, OUTSIDE, NCASES
};

static void spmd(void)
{
    if (which == OUTSIDE) {
        uint64_t x = 0;
        bsp_coll_allreduce(NULL, &x, &x, 1, 0, NULL);
    }
    bsp_begin(3);
    const unsigned pid = bsp_pid();
    bsp_coll_options direct = {.algorithm = BSP_COLL_DIRECT};
    unsigned char in[64] = {0}, out[64] = {0};
    bsp_sync(); /* superstep 0 */
    switch (which) {
    case VS_SYNC:
        if (pid == 2)
            bsp_sync();
        else
            bsp_coll_allgather(NULL, in, out, 4, &direct);
        break;
    case VS_OTHER:
        if (pid == 1)
            bsp_coll_alltoall(NULL, in, out, 4, &direct);
        else
            bsp_coll_allgather(NULL, in, out, 4, &direct);
        break;
    case VS_END:
        if (pid == 0)
            bsp_coll_allgather(NULL, in, out, 4, &direct);
        break;
    case ARGS:
        bsp_coll_allgather(NULL, in, out, pid == 2 ? 5 : 4, &direct);
        break;
    case ROOT:
        bsp_coll_broadcast(NULL, in, 8, 3, &direct);
        break;
    case NULL_RECV:
        bsp_coll_allgather(NULL, in, pid == 1 ? NULL : out, 4, &direct);
        break;
    case NULL_SEND:
        bsp_coll_scatter(NULL, pid == 0 ? NULL : in, out, 4, 0, &direct);
        break;
    case RADIX_LOW: {
        bsp_coll_options o = {.algorithm = BSP_COLL_BRUCK, .radix = 1};
        bsp_coll_alltoall(NULL, in, out, 4, &o);
        break;
    }
    case RADIX_HIGH: {
        bsp_coll_options o = {.algorithm = BSP_COLL_BRUCK, .radix = 4};
        bsp_coll_alltoall(NULL, in, out, 4, &o);
        break;
    }
    case RADIX_AUTO: {
        bsp_coll_options o = {.radix = 2};
        bsp_coll_alltoall(NULL, in, out, 4, &o);
        break;
    }
    case PORTS_RING: {
        bsp_coll_options o = {.algorithm = BSP_COLL_RING, .ports = 2};
        bsp_coll_allgather(NULL, in, out, 4, &o);
        break;
    }
    case NO_ALG: {
        bsp_coll_options o = {.algorithm = BSP_COLL_RING};
        bsp_coll_broadcast(NULL, in, 8, 0, &o);
        break;
    }
    case UNKNOWN_ALG: {
        bsp_coll_options o = {.algorithm = (bsp_coll_algorithm)42};
        bsp_coll_gather(NULL, in, out, 4, 0, &o);
        break;
    }
    case IN_PLACE_RECV:
        bsp_coll_allgather(NULL, in, (void *)BSP_COLL_IN_PLACE, 4, &direct);
        break;
    case IN_PLACE_BCAST:
        bsp_coll_reduce(NULL, BSP_COLL_IN_PLACE, out, 1, 0, 0, &direct);
        break;
    case UNKNOWN_OP:
        bsp_coll_allreduce(NULL, in, out, 2, 40, NULL);
        break;
    case G_DIFFER: {
        bsp_pid_t all[3] = {0, 1, 2}, two[2] = {0, 1};
        bsp_coll_group_create(pid == 2 ? all : two, pid == 2 ? 3 : 2);
        break;
    }
    case G_NOT_IN: {
        bsp_pid_t m[2] = {0, 1};
        bsp_coll_group_create(m, 2);
        break;
    }
    case G_REPEATED: {
        bsp_pid_t m[3] = {0, 1, 1};
        bsp_coll_group_create(m, 3);
        break;
    }
    case G_RANGE: {
        bsp_pid_t m[2] = {pid, 3};
        bsp_coll_group_create(m, 2);
        break;
    }
    case G_OUTSIDER: {
        /* pid 0 names {0, 1}; pid 1 names only itself; pid 2 only itself. */
        bsp_pid_t m[2] = {0, 1}, self = pid;
        bsp_coll_group_create(pid == 0 ? m : &self, pid == 0 ? 2 : 1);
        break;
    }
    case G_NULL:
        bsp_coll_group_create(NULL, 2);
        break;
    }
    bsp_end();
}

#define PTR "0x"

int main(void)
{
    static int k[NCASES];
    for (int i = 0; i < NCASES; i++)
        k[i] = i;
    struct {
        int which;
        const char *name, *expect;
    } cases[] = {
        {VS_SYNC, "collective against bsp_sync", "bspram: bsp_coll_allgather: pid 0 is in bsp_coll_allgather while pid 2 is in bsp_sync (superstep 1); every process must make the same collective calls in the same order\n"},
        {VS_OTHER, "two collectives", "bspram: bsp_coll_allgather: processes disagree in superstep 1: pid 0 called bsp_coll_allgather(block=4, algorithm=direct, radix=0, ports=0) but pid 1 called bsp_coll_alltoall(block=4, algorithm=direct, radix=0, ports=0); every process must pass the same arguments\n"},
        {VS_END, "collective against bsp_end", "bspram: bsp_coll_allgather: pid 0 is in bsp_coll_allgather while pid 1 is in bsp_end (superstep 1); every process must make the same collective calls in the same order\n"},
        {ARGS, "arguments differ", "bspram: bsp_coll_allgather: processes disagree in superstep 1: pid 0 called bsp_coll_allgather(block=4, algorithm=direct, radix=0, ports=0) but pid 2 called bsp_coll_allgather(block=5, algorithm=direct, radix=0, ports=0) (the block differs); every process must pass the same arguments\n"},
        {ROOT, "root", "bspram: bsp_coll_broadcast(g=(nil), buf=" PTR},
        {ROOT, "root line", ", size=8, root=3, algorithm=direct, radix=0, ports=0): root 3 is outside the group's ranks [0, 3) (superstep 1, pid "},
        {NULL_RECV, "recv NULL", ", recv=(nil), block=4, algorithm=direct, radix=0, ports=0): recv is NULL (superstep 1, pid 1)\n"},
        {NULL_SEND, "send NULL at the root", "bspram: bsp_coll_scatter(g=(nil), send=(nil), recv=" PTR},
        {NULL_SEND, "send NULL at the root line", ", block=4, root=0, algorithm=direct, radix=0, ports=0): send is NULL (superstep 1, pid 0)\n"},
        {RADIX_LOW, "radix 1", ", block=4, algorithm=bruck, radix=1, ports=0): radix 1 is below 2 (superstep 1, pid "},
        {RADIX_HIGH, "radix above n", ", block=4, algorithm=bruck, radix=4, ports=0): radix 4 is outside [2, n = 3] (superstep 1, pid "},
        {RADIX_AUTO, "radix without algorithm", ", block=4, algorithm=auto, radix=2, ports=0): a radix needs an algorithm that takes one (bruck, for alltoall) (superstep 1, pid "},
        {PORTS_RING, "ports of the ring", ", block=4, algorithm=ring, radix=0, ports=2): algorithm ring of allgather has one port (superstep 1, pid "},
        {NO_ALG, "algorithm of another operation", ", size=8, root=0, algorithm=ring, radix=0, ports=0): broadcast has no algorithm ring (superstep 1, pid "},
        {UNKNOWN_ALG, "unknown algorithm", ", block=4, root=0, algorithm=unknown, radix=0, ports=0): unknown algorithm 42 (superstep 1, pid "},
        {IN_PLACE_RECV, "recv in place", ", recv=BSP_COLL_IN_PLACE, block=4, algorithm=direct, radix=0, ports=0): recv may be BSP_COLL_IN_PLACE only at a scatter's root (superstep 1, pid "},
        {IN_PLACE_BCAST, "send in place off the root", "bspram: bsp_coll_reduce(g=(nil), send=BSP_COLL_IN_PLACE, recv=" PTR},
        {IN_PLACE_BCAST, "send in place off the root line", ", count=1, root=0, op=0, algorithm=direct, radix=0, ports=0): send may be BSP_COLL_IN_PLACE only at the root of a gather or reduce (superstep 1, pid "},
        {UNKNOWN_OP, "unknown operation", ", count=2, op=40): unknown operation 40; valid: 0..20 (built in: bspram_op_builtin) and the ids bsp_shm_add_op returned, from the superstep after the call (superstep 1, pid "},
        {G_DIFFER, "member lists differ", "bspram: bsp_coll_group_create: pid 0 names members 0 1, but a process outside that list names pid 0 as a member; every member of a group must name the same list (superstep 1)\n"},
        {G_NOT_IN, "not in the list", "bspram: bsp_coll_group_create(members=" PTR},
        {G_NOT_IN, "not in the list line", ", n=2): this process (pid 2) is not in its list (superstep 1, pid 2)\n"},
        {G_REPEATED, "repeated member", ", n=3): members[2] = 1 is repeated (superstep 1, pid "},
        {G_RANGE, "member not a pid", ", n=2): members[1] = 3 is not a pid (superstep 1, pid "},
        {G_OUTSIDER, "named from outside", "bspram: bsp_coll_group_create: pid 0 names members 0 1 but pid 1 names 1; every member of a group must name the same list (superstep 1)\n"},
        {G_NULL, "members NULL", "bspram: bsp_coll_group_create(members=NULL, n=2): members is NULL (superstep 1, pid "},
        {OUTSIDE, "outside a section", "bspram: bsp_coll_allreduce: called outside a bsp_begin/bsp_end section\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_death_status(cases[i].name, bsplib_death_run, &k[cases[i].which], cases[i].expect, 1,
                           20, 1);
    return check_report("test_coll_errors");
}
