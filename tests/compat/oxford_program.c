/* A program written for the Oxford BSP toolset's bsp.h (or BSPonMPI's int
 * API): it prints without including <stdio.h>, which their bsp.h includes,
 * and declares its sizes with the bsp_ types, which are int there. With
 * -DBSPRAM_BSPLIB_INT it compiles without a warning. */
#include <bsp.h>

int bspram_oxford_program(void);
int bspram_oxford_program(void)
{
    bsp_size_t n, m;
    bsp_pid_t pid = bsp_pid();
    bsp_nprocs_t p = bsp_nprocs();
    int *as_int = &m; /* the standard's int, not a wider type */
    bsp_qsize(&n, &m);
    fprintf(stdout, "%d: %d messages, %d bytes of %d processes\n", pid, n, *as_int, p);
    return 0;
}
