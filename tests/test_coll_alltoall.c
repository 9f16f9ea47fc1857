/* bsp_coll_alltoall (coll/alltoall_bruck.c): Bruck, Ho, Kipnis, Upfal and
 * Weathersby, "Efficient algorithms for all-to-all communications in
 * multiport message-passing systems", IEEE TPDS 8(11), 1997, §3 (index,
 * radix r, k ports), against a sequential reference, for P = 1..40, 64, 65
 * and 100, in one BSP section per P.
 *
 * Every call: block j of rank i's send holds bytes that depend on (i, j,
 * the byte, the call), recv starts as garbage (or holds the send blocks, in
 * place); afterwards block i of rank j's recv must be block j of rank i's
 * send, and a separate send must be untouched. Costs, from the paper's
 * description (§3.2, §3.4), not from the library's formula:
 *   - C1 = Σ over the w = ⌈log_r n⌉ subphases of ⌈(h − 1)/k⌉ (h = r, but
 *     ⌈n/r^(w−1)⌉ in the last), exactly;
 *   - C2 = b·Σ over rounds of the largest message in blocks: the blocks j ∈
 *     [0, n) whose digit x is z, counted here one by one, maximised over the
 *     round's k values of z (consecutive, from 1), exactly;
 *   - C2 ≤ b·⌈(r−1)/k⌉·⌈n/r⌉·⌈log_r n⌉ (§3.4) for r = 2, r = n and n a
 *     power of r (the bound is wrong otherwise: see whole_case), C1 ≤
 *     ⌈(r−1)/k⌉·⌈log_r n⌉, C1 ≥ ⌈log_{k+1} n⌉ and
 *     C2 ≥ ⌈b(n−1)/k⌉ (§2), max_q ≤ k and max_r ≤ k (the k-port model);
 *   - bsp_coll_predict gives the measured C1 and C2.
 * Radices 2, 3, 4 and n, ports 1..3 (and more than h − 1), blocks of 0, 1,
 * 3 and 8 bytes and a few of 4096, in place and not; DIRECT (one round with
 * the default n − 1 ports, C2 = b; with k ports ⌈(n−1)/k⌉ rounds); AUTO;
 * and groups (the rows of a 4×5 grid; sizes 1, 3, 6; sizes 2, 1, 4, 5 in
 * scattered pids) running at once, each checked, the call taking as many
 * rounds as its largest group's schedule. */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"
#include "coll_check.h"

static unsigned P;
enum { BIG = 4096, MAXROUNDS = 256 };

/* The byte at `byte` of block j of rank i's send in call `salt`. */
static unsigned char pattern(unsigned i, unsigned j, size_t byte, unsigned salt)
{
    uint32_t x = i * 0x9E3779B1u ^ j * 0x85EBCA77u ^ (uint32_t)byte * 0xC2B2AE3Du ^
                 salt * 0x27D4EB2Fu;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 13;
    return (unsigned char)(x >> 7);
}

/* ⌈log_base n⌉ by repeated multiplication. */
static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* The paper's schedule for n, r, k: the largest message of each round in
 * blocks (sizes[t]), returning the number of rounds. Digit x of j in radix
 * r is j / r^x mod r; the round's largest is over its z. */
static unsigned schedule(unsigned n, unsigned r, unsigned k, unsigned *sizes)
{
    if (n < 2)
        return 0;
    unsigned w = ceil_log(n, r), rounds = 0;
    uint64_t p = 1;
    for (unsigned x = 0; x < w; x++, p *= r) {
        unsigned h = x == w - 1 ? (unsigned)cdiv(n, p) : r;
        for (unsigned z0 = 1; z0 < h; z0 += k) {
            unsigned big = 0;
            for (unsigned z = z0; z < z0 + k && z < h; z++) {
                unsigned count = 0;
                for (unsigned j = 0; j < n; j++)
                    count += j / p % r == z;
                big = count > big ? count : big;
            }
            if (rounds < MAXROUNDS)
                sizes[rounds] = big;
            rounds++;
        }
    }
    return rounds;
}

/* The paper's C1 formula: Σ_x ⌈(h − 1)/k⌉. */
static uint64_t paper_c1(unsigned n, unsigned r, unsigned k)
{
    if (n < 2)
        return 0;
    unsigned w = ceil_log(n, r);
    uint64_t c1 = 0, p = 1;
    for (unsigned x = 0; x < w; x++, p *= r)
        c1 += cdiv((x == w - 1 ? cdiv(n, p) : r) - 1, k);
    return c1;
}

/* Per process (BSP processes are threads). */
static _Thread_local unsigned char *sendbuf, *recvbuf;
static _Thread_local unsigned salt_counter;

/* Fill, call, check the data. members: the group's pids (rank order). */
static void run(const bsp_coll_group *g, const bsp_pid_t *members, unsigned n, unsigned me,
                size_t b, int in_place, const bsp_coll_options *o)
{
    unsigned salt = ++salt_counter; /* the same on every process: calls are in step */
    unsigned mp = members[me];
    size_t whole = (size_t)n * b;
    memset(recvbuf, 0xA5, whole + 16);
    unsigned char *src = in_place ? recvbuf : sendbuf;
    for (unsigned j = 0; j < n; j++)
        for (size_t y = 0; y < b; y++)
            src[(size_t)j * b + y] = pattern(mp, members[j], y, salt);
    bsp_coll_alltoall(g, in_place ? BSP_COLL_IN_PLACE : sendbuf, recvbuf, b, o);
    int bad = 0;
    for (unsigned i = 0; i < n && !bad; i++)
        for (size_t y = 0; y < b; y++)
            if (recvbuf[(size_t)i * b + y] != pattern(members[i], mp, y, salt)) {
                bad = 1;
                break;
            }
    for (size_t y = 0; y < 16; y++)
        bad |= recvbuf[whole + y] != 0xA5;
    if (!in_place)
        for (unsigned j = 0; j < n && !bad; j++)
            for (size_t y = 0; y < b; y++)
                bad |= sendbuf[(size_t)j * b + y] != pattern(mp, members[j], y, salt);
    if (bad)
        fprintf(stderr, "alltoall wrong: n=%u rank=%u b=%zu in_place=%d alg=%d r=%u k=%u\n", n,
                me, b, in_place, (int)o->algorithm, o->radix, o->ports);
    SPMD_CHECK(!bad);
}

/* One call on all processes with radix r and k ports, and its costs. */
static void whole_case(const bsp_pid_t *ids, unsigned n, unsigned me, unsigned r, unsigned k,
                       size_t b, int in_place)
{
    bsp_coll_options o = {.algorithm = BSP_COLL_BRUCK, .radix = r, .ports = k};
    run(NULL, ids, n, me, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    if (me != 0)
        return;
    unsigned sizes[MAXROUNDS];
    unsigned rounds = schedule(n, r, k, sizes);
    uint64_t c2 = 0;
    for (unsigned t = 0; t < rounds && t < MAXROUNDS; t++)
        c2 += (uint64_t)sizes[t] * b;
    SPMD_CHECK(rounds <= MAXROUNDS);
    uint64_t c1 = paper_c1(n, r, k);
    int ok = c.c1 == c1 && c.supersteps == c1 && c.c2 == c2 && rounds == c1;
    if (n >= 2) {
        unsigned w = ceil_log(n, r);
        /* §3.2's "each message is at most b⌈n/r⌉" holds for r = 2, r = n and
         * n a power of r; otherwise a digit's blocks can be more (n = 40,
         * r = 4, digit 1: j = 4..7, 20..23, 36..39, 12 > 10), and the bound
         * per subphase is r^x·⌈n/r^(x+1)⌉ blocks (a period of r^(x+1) holds
         * r^x of them). */
        uint64_t pw = 1, bound = 0;
        for (unsigned x = 0; x < w; x++)
            pw *= r;
        if (r == 2 || r == n || pw == n)
            bound = b * cdiv(r - 1, k) * cdiv(n, r) * w;
        else
            for (uint64_t x = 0, p = 1; x < w; x++, p *= r)
                bound += b * cdiv((x == w - 1 ? cdiv(n, p) : r) - 1, k) * p * cdiv(n, p * r);
        ok &= c.c2 <= bound;
        ok &= c.c1 <= cdiv(r - 1, k) * w;
        ok &= c.c1 >= ceil_log(n, k + 1);
        ok &= c.c2 >= cdiv(b * (n - 1), k);
        ok &= c.max_q <= k && c.max_r <= k && c.max_q >= 1 && c.max_r >= 1;
    } else {
        ok &= c.c2 == 0 && c.max_q == 0;
    }
    bsp_coll_choice pr = bsp_coll_predict(BSP_COLL_ALLTOALL, n, b, &o);
    ok &= pr.c1 == c.c1 && pr.c2 == c.c2;
    if (!ok)
        fprintf(stderr,
                "alltoall cost: n=%u r=%u k=%u b=%zu: measured C1=%llu (steps %llu) C2=%llu "
                "q=%llu r=%llu; paper C1=%llu C2=%llu; predicted %llu %llu\n",
                n, r, k, b, (unsigned long long)c.c1, (unsigned long long)c.supersteps,
                (unsigned long long)c.c2, (unsigned long long)c.max_q,
                (unsigned long long)c.max_r, (unsigned long long)c1, (unsigned long long)c2,
                (unsigned long long)pr.c1, (unsigned long long)pr.c2);
    SPMD_CHECK(ok);
}

/* Groups: this process's list in `all` (group id per pid), every group at
 * once with radix min(r, its n) (r = 0: its n) and k ports; the call's
 * cost is that of the groups' schedules run side by side. */
static void group_case(const unsigned *gid, unsigned groups, unsigned me, unsigned r,
                       unsigned k, size_t b, int in_place)
{
    bsp_pid_t members[128];
    const unsigned p = bsp_nprocs(); /* main's P is pid 0's alone (over MPI) */
    unsigned n = 0, rank = 0;
    for (unsigned q = 0; q < p; q++)
        if (gid[q] == gid[me]) {
            if (q == me)
                rank = n;
            members[n++] = q;
        }
    bsp_coll_group *g = bsp_coll_group_create(members, n);
    SPMD_CHECK(bsp_coll_group_size(g) == n && bsp_coll_group_rank(g) == rank);
    unsigned rr = r == 0 || r > n ? n : r;
    bsp_coll_options o = {.algorithm = BSP_COLL_BRUCK, .radix = n >= 2 ? rr : 0, .ports = k};
    run(g, members, n, rank, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    bsp_coll_group_destroy(g);
    if (me != 0)
        return;
    /* The side-by-side schedule: round t's largest message over the groups. */
    unsigned most[MAXROUNDS] = {0}, longest = 0;
    for (unsigned gi = 0; gi < groups; gi++) {
        unsigned ng = 0, sizes[MAXROUNDS];
        for (unsigned q = 0; q < p; q++)
            ng += gid[q] == gi;
        unsigned rg = r == 0 || r > ng ? ng : r;
        unsigned rounds = ng >= 2 ? schedule(ng, rg, k, sizes) : 0;
        SPMD_CHECK(rounds == paper_c1(ng, rg, k));
        for (unsigned t = 0; t < rounds; t++)
            most[t] = sizes[t] > most[t] ? sizes[t] : most[t];
        longest = rounds > longest ? rounds : longest;
    }
    uint64_t c2 = 0;
    for (unsigned t = 0; t < longest; t++)
        c2 += (uint64_t)most[t] * b;
    int ok = c.c1 == longest && c.supersteps == (longest ? longest : 1) && c.c2 == c2 &&
             c.max_q <= k && c.max_r <= k;
    if (!ok)
        fprintf(stderr, "alltoall groups: r=%u k=%u b=%zu: C1=%llu steps=%llu C2=%llu, "
                        "expected %u, %u, %llu\n", r, k, b, (unsigned long long)c.c1,
                (unsigned long long)c.supersteps, (unsigned long long)c.c2, longest,
                longest ? longest : 1, (unsigned long long)c2);
    SPMD_CHECK(ok);
}

/* The DIRECT algorithm (Bruck §3.3, r = n) with its default ports n − 1
 * (one round, C2 = b) or k ports (⌈(n−1)/k⌉ rounds, C2 = b·C1). */
static void direct_case(const bsp_pid_t *ids, unsigned n, unsigned me, unsigned k, size_t b,
                        int in_place)
{
    bsp_coll_options o = {.algorithm = BSP_COLL_DIRECT, .ports = k};
    run(NULL, ids, n, me, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    if (me != 0)
        return;
    uint64_t c1 = n < 2 ? 0 : k == 0 ? 1 : cdiv(n - 1, k);
    int ok = c.c1 == c1 && c.c2 == b * c1 && c.supersteps == c1;
    ok &= c.max_q <= (k ? k : n - 1) && c.max_r <= (k ? k : n - 1);
    if (!ok)
        fprintf(stderr, "alltoall direct: n=%u k=%u b=%zu: C1=%llu C2=%llu\n", n, k, b,
                (unsigned long long)c.c1, (unsigned long long)c.c2);
    SPMD_CHECK(ok);
}

/* AUTO: right data, the selection's prediction measured, the lower bounds. */
static void auto_case(const bsp_pid_t *ids, unsigned n, unsigned me, size_t b, int in_place)
{
    bsp_coll_options o = {0};
    run(NULL, ids, n, me, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    if (me != 0)
        return;
    bsp_coll_choice ch = bsp_coll_select(BSP_COLL_ALLTOALL, n, b, 0, -1, -1);
    /* The selection picks the ports too: one, or n − 1 (one superstep). */
    const unsigned k = ch.ports;
    int ok = (k == 1 || k == n - 1) && c.c1 == ch.c1 && c.c2 == ch.c2 && c.max_q <= k && c.max_r <= k;
    ok &= c.c1 >= ceil_log(n, k + 1) && c.c2 >= b * ((n - 1 + k - 1) / k);
    if (!ok)
        fprintf(stderr, "alltoall auto: n=%u b=%zu: C1=%llu C2=%llu, selected %s r=%u: %llu %llu\n",
                n, b, (unsigned long long)c.c1, (unsigned long long)c.c2,
                bsp_coll_algorithm_name(ch.algorithm), ch.radix, (unsigned long long)ch.c1,
                (unsigned long long)ch.c2);
    SPMD_CHECK(ok);
}

static void spmd(void)
{
    bsp_begin(P);
    unsigned n = bsp_nprocs(), me = bsp_pid();
    bsp_pid_t *ids = malloc(n * sizeof *ids);
    for (unsigned q = 0; q < n; q++)
        ids[q] = q;
    sendbuf = malloc((size_t)n * BIG + 16);
    recvbuf = malloc((size_t)n * BIG + 16);
    salt_counter = 0;

    /* The radices 2, 3, 4 and n that are ≤ n (2 for n = 1). */
    unsigned radices[4], nr = 0;
    const unsigned want[4] = {2, 3, 4, n};
    for (unsigned t = 0; t < 4; t++) {
        unsigned r = n < 2 ? 2 : want[t];
        int dup = r > (n < 2 ? 2 : n);
        for (unsigned u = 0; u < nr; u++)
            dup |= radices[u] == r;
        if (!dup)
            radices[nr++] = r;
    }
    int large = n > 40;
    static const size_t blocks[] = {0, 1, 3, 8};
    for (unsigned ri = 0; ri < nr; ri++)
        for (unsigned k = 1; k <= 3; k += large ? 2 : 1)
            for (unsigned bi = large ? 1 : 0; bi < 4; bi += large ? 2 : 1) {
                if (radices[ri] == n && n > 16 && bi % 2 == 0)
                    continue; /* r = n has n − 1 rounds: b = 1 and 8 only */
                whole_case(ids, n, me, radices[ri], k, blocks[bi], (int)((bi + k / 2 + ri) % 2));
            }
    /* More ports than a subphase has steps: one round per subphase. */
    whole_case(ids, n, me, 2, n + 3, 3, 1);
    whole_case(ids, n, me, radices[nr - 1], n + 3, 3, 0);
    if (large)
        whole_case(ids, n, me, 2, 1, 0, 1);
    /* Large blocks. */
    if (n == 2 || n == 5 || n == 17 || n == 40 || n == 65) {
        whole_case(ids, n, me, 2, 1, BIG, 1);
        whole_case(ids, n, me, radices[nr > 1 ? 1 : 0], 2, BIG, 0);
    }
    direct_case(ids, n, me, 0, 5, 0);
    direct_case(ids, n, me, 0, 0, 1);
    direct_case(ids, n, me, 1, 3, 1);
    direct_case(ids, n, me, 2, 3, 0);
    auto_case(ids, n, me, 1, 0);
    auto_case(ids, n, me, 200, 1);

    /* Groups at once: rows of a 4×5 grid; sizes 1, 3, 6; sizes 2, 1, 4, 5
     * over scattered pids. */
    unsigned gid[20], groups = 0;
    if (n == 20) {
        for (unsigned q = 0; q < 20; q++)
            gid[q] = q / 5;
        groups = 4;
    } else if (n == 10) {
        for (unsigned q = 0; q < 10; q++)
            gid[q] = q < 1 ? 0 : q < 4 ? 1 : 2;
        groups = 3;
    } else if (n == 12) {
        static const unsigned g12[12] = {3, 0, 2, 3, 1, 2, 3, 2, 0, 3, 2, 3};
        memcpy(gid, g12, sizeof g12);
        groups = 4;
    }
    if (groups)
        for (unsigned r = 0; r <= 3; r += r ? 1 : 2) /* n, 2, 3 */
            for (unsigned k = 1; k <= 2; k++)
                for (unsigned bi = 0; bi < 2; bi++)
                    group_case(gid, groups, me, r, k, bi ? 5 : 0, (int)((r + k + bi) % 2));

    free(sendbuf), free(recvbuf), free(ids);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    for (unsigned i = 0; i < COLL_TEST_NPS; i++) {
        P = coll_test_p(i);
        spmd();
        char what[32];
        snprintf(what, sizeof what, "alltoall, P = %u", P);
        CHECK_SPMD(what);
    }
    return check_report("test_coll_alltoall");
}
