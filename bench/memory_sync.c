/* A BSPlib program that only synchronises: P processes, `supersteps`
 * bsp_syncs, one word registered and one put to the next process per
 * superstep. Its memory is the library's own per-process state (bench/memory.sh
 * measures its peak RSS against P).
 *
 *   memory_sync P [supersteps]
 */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned P, S = 2;

static void spmd(void)
{
    bsp_begin(P);
    unsigned p = bsp_nprocs(), s = bsp_pid();
    unsigned long x = s, got = 0;
    bsp_push_reg(&got, sizeof got);
    bsp_sync();
    for (unsigned k = 0; k < S; k++) {
        bsp_put((s + 1) % p, &x, &got, 0, sizeof x);
        bsp_sync();
    }
    if (got != (s + p - 1) % p) {
        fprintf(stderr, "memory_sync: process %u got %lu\n", s, got);
        exit(1);
    }
    bsp_pop_reg(&got);
    bsp_end();
}

int main(int argc, char **argv)
{
    P = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 4;
    if (argc > 2)
        S = (unsigned)strtoul(argv[2], NULL, 10);
    bsp_init(spmd, argc, argv);
    spmd();
    printf("memory_sync P=%u supersteps=%u: ok\n", P, S);
    return 0;
}
