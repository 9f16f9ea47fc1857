/* Ranks with nothing to run leave cleanly (tests/mpi/idle_ranks.sh).
 *
 *   idle_ranks one        main's first statement is bsp_begin(1), as in
 *                         MulticoreBSP's tests/spmd.c: on N ranks only rank 0
 *                         has a process; the others wait for its sections
 *                         and leave when its program ends;
 *   idle_ranks sections   through bsp_init's function, a section of every
 *                         rank (the ranks of a node share a window), then of
 *                         one process, then of two: idle ranks again, after
 *                         a section that used them.
 *
 * Each process checks a ring of puts; pid 0 prints SUCCESS after the last
 * section. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned P;

/* One superstep of a ring: each process puts its pid to the next. */
static void ring(void)
{
    unsigned p = bsp_nprocs(), s = bsp_pid();
    unsigned mine = s, got = p;
    bsp_push_reg(&got, sizeof got);
    bsp_sync();
    bsp_put((s + 1) % p, &mine, &got, 0, sizeof mine);
    bsp_sync();
    if (got != (s + p - 1) % p)
        bsp_abort("idle_ranks: pid %u got %u from its left neighbour, not %u\n", s, got, (s + p - 1) % p);
    bsp_pop_reg(&got);
    bsp_sync();
}

static void spmd(void)
{
    bsp_begin(P);
    ring();
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "sections")) {
        bsp_init(spmd, argc, argv);
        const unsigned ps[3] = {bsp_nprocs(), 1, 2};
        for (int k = 0; k < 3; k++) {
            P = ps[k];
            spmd();
        }
        printf("SUCCESS\n");
        return EXIT_SUCCESS;
    }
    bsp_begin(1);
    ring();
    bsp_end();
    printf("SUCCESS\n");
    return EXIT_SUCCESS;
}
