/* bsp_pop_reg with NULL registrations: a process that takes no part in an
 * area registers NULL for it, and may hold several such NULL registrations
 * at once. A pop names one slot — the one the processes with a real address
 * name — and a process passing NULL pops that same slot, in whatever order
 * the program pops them (not only newest first). If every process passes
 * NULL, the newest slot that is NULL everywhere goes. After each round of
 * pops, puts into the registrations still alive must land where they should.
 * Also pid 0 passing NULL while the others pass their address. */
#include <bsp.h>
#include <stdint.h>
#include <string.h>

#include "bsplib_check.h"

#define MAXP 8
#define NAREAS 7

static unsigned P;

/* Whether process q (of p) gives memory to area k; area 6 is NULL everywhere. */
static int part(unsigned k, unsigned q, unsigned p)
{
    switch (k) {
    case 0: return q == 0;         /* only pid 0 */
    case 1: return q % 2 == 1;     /* pid 0 passes NULL */
    case 2: return q == 0;         /* only pid 0 */
    case 3: return 1;              /* everyone */
    case 4: return q % 2 == 0;     /* the even pids */
    case 5: return q == p - 1;     /* only the last pid */
    default: return 0;             /* nobody */
    }
}

static uint64_t value(unsigned round, unsigned k, unsigned q)
{
    return 10000u * (round + 1) + 100u * k + q;
}

/* Every participant of every live area puts a word into every participant's
 * buffer, at its own index; after the sync each participant checks that it
 * received exactly the participants' words, and nobody's buffer of a dead
 * area changed. */
static void exchange(uint64_t buf[NAREAS][MAXP], const int *live, unsigned round)
{
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    for (unsigned k = 0; k < NAREAS; k++)
        memset(buf[k], 0, sizeof buf[k]);
    for (unsigned k = 0; k < NAREAS; k++) {
        if (!live[k] || !part(k, s, p))
            continue;
        uint64_t v = value(round, k, s);
        for (unsigned r = 0; r < p; r++)
            if (part(k, r, p))
                bsp_put(r, &v, buf[k], s * sizeof v, sizeof v);
    }
    bsp_sync();
    for (unsigned k = 0; k < NAREAS; k++)
        for (unsigned q = 0; q < p; q++) {
            uint64_t want = live[k] && part(k, s, p) && part(k, q, p) ? value(round, k, q) : 0;
            SPMD_CHECK(buf[k][q] == want);
        }
}

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    uint64_t buf[NAREAS][MAXP];
    int live[NAREAS] = {0};
#define ADDR(k) (part((k), s, p) ? (void *)buf[(k)] : NULL)
#define SIZE(k) (part((k), s, p) ? sizeof buf[(k)] : 0)

    for (unsigned k = 0; k < 5; k++) {
        bsp_push_reg(ADDR(k), SIZE(k));
        live[k] = 1;
    }
    bsp_sync();
    exchange(buf, live, 0);

    /* Oldest first: on pids ≥ 1 both are NULL and neither is their newest
     * NULL registration (area 4 is NULL on the odd pids, area 1 on the even). */
    bsp_pop_reg(ADDR(0));
    bsp_pop_reg(ADDR(2));
    live[0] = live[2] = 0;
    bsp_sync();
    exchange(buf, live, 1);

    /* pid 0 (and the even pids) pass NULL, the odd pids their address; pushes
     * in the same superstep, one of them NULL on every process. */
    bsp_pop_reg(ADDR(1));
    bsp_push_reg(ADDR(5), SIZE(5));
    bsp_push_reg(ADDR(6), SIZE(6));
    live[1] = 0;
    live[5] = live[6] = 1;
    bsp_sync();
    exchange(buf, live, 2);

    /* NULL on every process: the newest slot NULL everywhere (area 6); then
     * area 4 (older than area 5) while area 5 stays. */
    bsp_pop_reg(ADDR(6));
    bsp_pop_reg(ADDR(4));
    live[6] = live[4] = 0;
    bsp_sync();
    exchange(buf, live, 3);

    bsp_pop_reg(ADDR(3));
    bsp_pop_reg(ADDR(5));
    live[3] = live[5] = 0;
    bsp_sync();
    exchange(buf, live, 4);
#undef ADDR
#undef SIZE
    bsp_end();
}

int main(int argc, char **argv)
{
    static const unsigned ps[] = {1, 2, 3, 4, 8};
    bsp_init(spmd, argc, argv);
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        P = ps[k];
        spmd();
        CHECK_SPMD("NULL registrations");
    }
    return check_report("test_bsplib_reg_null");
}
