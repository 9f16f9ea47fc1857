/* Sections of both program shapes, one after another in one program: a
 * section begun by bsp_begin in main (shape (b)), then sections begun
 * through bsp_init's SPMD functions, two different ones, and the first
 * again (MulticoreBSP for C's hello_world begins with the first two). Every
 * process of every section reports to pid 0 which section's code it runs
 * and with which P; pid 0 checks all of them. Over MPI this is what a rank
 * other than 0 got wrong when it had begun serving in main: it ran main's
 * section again for a section of bsp_init's function. */
#include <bsp.h>
#include <stdlib.h>

#include "bsplib_check.h"

/* Every process's (section, P, pid) at pid 0, which checks them. */
static void report(uint64_t section, unsigned P)
{
    const unsigned s = bsp_pid();
    SPMD_CHECK(bsp_nprocs() == P);
    uint64_t *seen = spmd_words_at_pid0(section * 1000000 + P * 1000 + s);
    for (unsigned t = 0; seen && t < P; t++)
        SPMD_CHECK(seen[t] == section * 1000000 + P * 1000 + t);
    free(seen);
}

static void section_b(void)
{
    bsp_begin(2);
    report(2, 2);
    bsp_end();
}

static void section_c(void)
{
    bsp_begin(4);
    report(3, 4);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_begin(3);
    report(1, 3);
    bsp_end();
    CHECK_SPMD("section A, begun in main");

    bsp_init(section_b, argc, argv);
    section_b();
    CHECK_SPMD("section B, begun through bsp_init");
    bsp_init(section_c, argc, argv);
    section_c();
    CHECK_SPMD("section C, another SPMD function");
    bsp_init(section_b, argc, argv);
    section_b();
    CHECK_SPMD("section B again");
    return check_report("test_bsplib_sections");
}
