/* A BSPlib program built against the installed libbspram-mpi (pkg-config
 * bspram-mpi, CMake bspram::bspram-mpi) and run under mpirun: every process
 * puts its pid to the next; each checks what it got. */
#include <bsp.h>
#include <stdio.h>

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    unsigned p = bsp_nprocs(), s = bsp_pid(), got = p;
    bsp_push_reg(&got, sizeof got);
    bsp_sync();
    bsp_put((s + 1) % p, &s, &got, 0, sizeof s);
    bsp_sync();
    if (got != (s + p - 1) % p)
        bsp_abort("consumer_mpi: pid %u got %u\n", s, got);
    if (s == 0)
        printf("consumer_mpi: ok on %u processes\n", p);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
