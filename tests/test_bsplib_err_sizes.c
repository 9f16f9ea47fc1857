/* Sizes that would wrap around (what a negative int size becomes when it
 * reaches a bsp_size_t) end with one error line and exit 1 — never a crash,
 * never a silent truncation — at P = 1 and P = 3. */
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>

#include "bsplib_death.h"

static unsigned P = 1;

static void spmd(void)
{
    bsp_begin(P);
    static uint64_t area[4];
    bsp_push_reg(area, sizeof area);
    bsp_sync();
    const bsp_size_t huge = (bsp_size_t)-1, near = (bsp_size_t)-1 - 5;
    uint64_t x = 0;
    switch (which) {
    case 0: bsp_send(0, NULL, &x, huge); break;
    case 1: bsp_send(0, NULL, &x, near); break;
    case 2: { bsp_size_t t = huge; bsp_set_tagsize(&t); break; }
    case 3: bsp_put(0, &x, area, 8, huge); break;
    case 4: bsp_put(0, &x, area, huge, 8); break;
    case 5: bsp_hpput(0, &x, area, 0, huge); break;
    case 6: bsp_get(0, area, near, &x, 8); break;
    case 7: bsp_get(0, area, 8, &x, huge); break;
    case 8: bsp_move(&x, huge); break; /* empty queue: the queue error, not a crash */
    }
    bsp_sync();
    bsp_end();
}

int main(void)
{
    static const char *expect[] = {
        "bsp_send(pid=0, tag=(nil), payload=0x", /* …: nbytes too large */
        "bsp_send(pid=0, tag=(nil), payload=0x",
        "bsp_set_tagsize(*tag_bytes=18446744073709551615): the tag size must be at most",
        "outside the registration, which has 32 bytes on pid 0",
        "outside the registration, which has 32 bytes on pid 0",
        "outside the registration, which has 32 bytes on pid 0",
        "outside the registration, which has 32 bytes on pid 0",
        "outside the registration, which has 32 bytes on pid 0",
        "bsp_move(payload=0x",
    };
    static const char *too_large = "is too large";
    for (unsigned k = 0; k < 2; k++) {
        P = k ? 3 : 1;
        for (int c = 0; c < 9; c++) {
            char name[64];
            snprintf(name, sizeof name, "size case %d at P=%u", c, P);
            check_death(name, bsplib_death_run, &c, expect[c], 1, 20);
            if (c < 2)
                check_death(name, bsplib_death_run, &c, too_large, 1, 20);
        }
    }
    return check_report("test_bsplib_err_sizes");
}
