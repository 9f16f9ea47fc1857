/* Faults of a BSPlib program over MPI (tests/mpi/faults.sh runs each case on
 * several ranks): the process that fails is the last one, so on more than
 * one rank it runs on a rank other than 0.
 * usage: faults <case> where case is
 *   abort   bsp_abort("...") in superstep 2
 *   badput  a bsp_put to a pid outside [0, P) in superstep 1
 *   regs    registrations that differ between processes
 *   exit    exit(3) inside the section
 *   kill    the process kills itself (SIGKILL) in superstep 3
 *   direct  bsp_direct_get, which has no one-sided read over MPI
 *   shm     bsp_shm_alloc with a size that differs on the last process
 *   coll    bsp_coll_broadcast with a root that differs on the last process
 *   gcoll   bsp_coll_broadcast on a group of all processes (superstep 1),
 *           with a size that differs on the last process */
#include <bsp.h>
#include <bsp_coll.h>
#include <bsp_shm.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *which;

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    const int last = s == p - 1;
    uint64_t cell = 0, v = s;
    bsp_push_reg(&cell, sizeof cell);
    if (!strcmp(which, "regs") && last && p > 1)
        bsp_push_reg(&v, sizeof v);
    if (!strcmp(which, "shm"))
        bsp_shm_alloc(last && p > 1 ? 10 : 8, 8, BSPRAM_LAYOUT_HASHED);
    if (!strcmp(which, "coll"))
        bsp_coll_broadcast(NULL, &v, sizeof v, last && p > 1 ? 1 : 0, NULL);
    if (!strcmp(which, "gcoll")) {
        bsp_pid_t *members = malloc(p * sizeof *members);
        for (unsigned q = 0; q < p; q++)
            members[q] = q;
        bsp_coll_group *g = bsp_coll_group_create(members, p);
        uint64_t two[2] = {s, s};
        bsp_coll_broadcast(g, two, last && p > 1 ? 16 : 8, 0, NULL);
        bsp_coll_group_destroy(g);
        free(members);
    }
    bsp_sync();
    for (unsigned step = 1; step <= 5; step++) {
        if (last && !strcmp(which, "badput") && step == 1)
            bsp_put(p, &v, &cell, 0, sizeof v);
        if (last && !strcmp(which, "abort") && step == 2)
            bsp_abort("faults: pid %u gives up in superstep %u\n", s, step);
        if (last && !strcmp(which, "exit") && step == 2)
            exit(3);
        if (last && !strcmp(which, "direct") && step == 1)
            bsp_direct_get(0, &cell, 0, &v, sizeof v);
        if (last && !strcmp(which, "kill") && step == 3)
            raise(SIGKILL);
        bsp_put((s + 1) % p, &v, &cell, 0, sizeof v);
        bsp_sync();
    }
    bsp_end();
}

int main(int argc, char **argv)
{
    which = argc > 1 ? argv[1] : "";
    bsp_init(spmd, argc, argv);
    spmd();
    printf("faults: %s did not fail\n", which);
    return 0;
}
