/* bsp_coll_allgather against a sequential reference, for P = 1..40, 64, 65
 * and 100, in one BSP section per P: BRUCK (coll/allgather_bruck.c: Bruck,
 * Ho, Kipnis, Upfal and Weathersby, "Efficient algorithms for all-to-all
 * communications in multiport message-passing systems", IEEE TPDS 8(11),
 * 1997, §4, k ports), RING (coll/allgather_ring.c: Saad and Schultz, "Data
 * communication in parallel architectures", 1986, §3.3, the daisy chain),
 * DIRECT and AUTO.
 *
 * Every call: rank i's block holds bytes that depend on (its pid, the byte,
 * the call); recv starts as garbage (in place: with the own block in it),
 * with guard bytes behind it; afterwards block j of every member's recv must
 * be member j's block, the guard intact and a separate send untouched.
 *
 * Costs, from the papers (never from the library's formulas), with
 * k' = min(k, n − 1) — a round has at most n − 1 partners, so with k ≥ n − 1
 * the optimum is one round and C2 = b, below which no schedule goes — and
 * d = ⌈log_{k'+1} n⌉, opt = ⌈b(n − 1)/k'⌉:
 *   - BRUCK outside §4.2's range (b ≥ 3, k' ≥ 3, (k'+1)^d − k' < n <
 *     (k'+1)^d): C1 = d and C2 = opt exactly (Theorem 4.3), in d
 *     supersteps;
 *   - BRUCK inside it (§4.2's closing remark): OPTIMAL_C1 gives C1 = d and
 *     opt ≤ C2 ≤ opt + b − 1; OPTIMAL_C2 gives C2 = opt and C1 ≤ d + 1; and
 *     the two agree: OPTIMAL_C1 reaches opt exactly when OPTIMAL_C2 takes d
 *     rounds. Two cases worked by hand: n = 15, b = 3, k = 3 (d = 2, n1 = 4,
 *     the last round's 11 columns cannot be cut in three runs of 11 bytes
 *     spanning ≤ 4 columns: C1 = 2, C2 = 3 + 12 = 15; or C1 = 3, C2 = 14);
 *     n = 23, b = 4, k = 4 (inside the range, but runs of 18 bytes from
 *     byte 20 span 5 columns each: C1 = 2, C2 = 22 = opt, both tradeoffs);
 *   - everywhere: the lower bounds C1 ≥ ⌈log_{k+1} n⌉, C2 ≥ ⌈b(n−1)/k⌉
 *     (§2), and max_q ≤ k, max_r ≤ k (the k-port model);
 *   - RING: C1 = n − 1, C2 = b(n − 1), one message per member and round;
 *   - DIRECT: C1 = ⌈(n−1)/k⌉, C2 = b·C1 (bsp_coll.h);
 *   - bsp_coll_predict equals the measured C1 and C2 (BRUCK, RING, DIRECT;
 *     AUTO: the selection's choice).
 * Ports 1–3 with blocks 0, 1, 3, 8 (fewer at large P); ports 4, 5, 7 and
 * n + 3; §4.2's range at P = 14, 15 (k = 3), 22–24 (k = 4), 32–35 (k = 5)
 * with blocks 3, 4, 5, 7, 8 and 1000, both tradeoffs; 1000-byte blocks at a
 * few P; in place and not. Groups, each checked: the rows of a 4×5 grid
 * (P = 20), sizes 1, 3, 6 (P = 10), sizes 2, 1, 4, 5 over scattered pids
 * listed out of order (P = 12), sizes 15, 14, 11 (P = 40, inside §4.2's
 * range for k = 3) and 63 + 1 (P = 64: n = 63 is inside the range for
 * k = 3, d = 3). */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"
#include "coll_check.h"

static unsigned P;
enum { BIG = 1000, GUARD = 16, MAXROUNDS = 64 };

static unsigned char pattern(unsigned pid, size_t byte, unsigned salt)
{
    uint32_t x = pid * 0x9E3779B1u ^ (uint32_t)byte * 0xC2B2AE3Du ^ salt * 0x27D4EB2Fu;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 13;
    return (unsigned char)(x >> 7);
}

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint64_t ipow(uint64_t x, unsigned e)
{
    uint64_t r = 1;
    while (e--)
        r *= x;
    return r;
}

/* Bruck §4: the ports a round can use, d, and whether n, b, k lie in
 * Proposition 4.2's range. */
static unsigned kk(unsigned n, unsigned k) { return n < 2 ? 1 : k < n - 1 ? k : n - 1; }
static int in_range(unsigned n, size_t b, unsigned k)
{
    k = kk(n, k);
    unsigned d = ceil_log(n, k + 1);
    uint64_t top = ipow(k + 1, d);
    return b >= 3 && k >= 3 && top - k < n && n < top;
}

/* Bruck §4 outside the range: the largest message of each round in bytes
 * (rounds i < d − 1 send (k+1)^i blocks, the last ⌈b·n2/k⌉ bytes); the
 * number of rounds. */
static unsigned paper_rounds(unsigned n, size_t b, unsigned k, uint64_t *sizes)
{
    if (n < 2)
        return 0;
    k = kk(n, k);
    unsigned d = ceil_log(n, k + 1);
    uint64_t n1 = ipow(k + 1, d - 1);
    for (unsigned i = 0; i + 1 < d; i++)
        sizes[i] = b * ipow(k + 1, i);
    sizes[d - 1] = cdiv(b * (n - n1), k);
    return d;
}

/* Per process (BSP processes are threads). */
static _Thread_local unsigned char *sendbuf, *recvbuf;
static _Thread_local unsigned salt_counter;

/* Fill, call, check the data against the reference: block j = member j's. */
static void run(const bsp_coll_group *g, const bsp_pid_t *members, unsigned n, unsigned me,
                size_t b, int in_place, const bsp_coll_options *o)
{
    unsigned salt = ++salt_counter; /* the same on every process: calls are in step */
    unsigned mp = members[me];
    size_t whole = (size_t)n * b;
    memset(recvbuf, 0xA5, whole + GUARD);
    unsigned char *mine = in_place ? recvbuf + (size_t)me * b : sendbuf;
    for (size_t y = 0; y < b; y++)
        mine[y] = pattern(mp, y, salt);
    if (!in_place)
        memset(sendbuf + b, 0x5A, GUARD);
    bsp_coll_allgather(g, in_place ? BSP_COLL_IN_PLACE : sendbuf, recvbuf, b, o);
    int bad = 0;
    for (unsigned j = 0; j < n && !bad; j++)
        for (size_t y = 0; y < b; y++)
            if (recvbuf[(size_t)j * b + y] != pattern(members[j], y, salt)) {
                bad = 1;
                break;
            }
    for (size_t y = 0; y < GUARD; y++)
        bad |= recvbuf[whole + y] != 0xA5;
    if (!in_place) {
        for (size_t y = 0; y < b; y++)
            bad |= sendbuf[y] != pattern(mp, y, salt);
        for (size_t y = 0; y < GUARD; y++)
            bad |= sendbuf[b + y] != 0x5A;
    }
    if (bad)
        fprintf(stderr, "allgather wrong: n=%u rank=%u b=%zu in_place=%d alg=%s k=%u t=%d\n", n,
                me, b, in_place, bsp_coll_algorithm_name(o->algorithm), o->ports,
                (int)o->tradeoff);
    SPMD_CHECK(!bad);
}

static void report(const char *what, unsigned n, unsigned k, size_t b, int t,
                   const bsp_coll_cost *c, uint64_t c1, uint64_t c2, const bsp_coll_choice *pr)
{
    fprintf(stderr,
            "allgather %s: n=%u k=%u b=%zu tradeoff=%d: measured C1=%llu (steps %llu) C2=%llu "
            "q=%llu r=%llu; paper C1=%llu C2=%llu; predicted %llu %llu\n",
            what, n, k, b, t, (unsigned long long)c->c1, (unsigned long long)c->supersteps,
            (unsigned long long)c->c2, (unsigned long long)c->max_q,
            (unsigned long long)c->max_r, (unsigned long long)c1, (unsigned long long)c2,
            (unsigned long long)pr->c1, (unsigned long long)pr->c2);
}

/* The lower bounds of §2 and the k-port model. */
static int bounds_ok(const bsp_coll_cost *c, unsigned n, size_t b, unsigned k)
{
    if (n < 2)
        return c->c1 == 0 && c->c2 == 0 && c->max_q == 0 && c->supersteps == 0;
    return c->c1 >= ceil_log(n, k + 1) && c->c2 >= cdiv(b * (n - 1), k) && c->max_q <= k &&
           c->max_r <= k && c->max_q >= 1 && c->max_r >= 1;
}

/* BRUCK on all processes; returns the measured cost (on every process). */
static bsp_coll_cost bruck_case(const bsp_pid_t *ids, unsigned n, unsigned me, unsigned k,
                                size_t b, int in_place, bsp_coll_tradeoff t)
{
    bsp_coll_options o = {.algorithm = BSP_COLL_BRUCK, .ports = k, .tradeoff = t};
    run(NULL, ids, n, me, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    if (me != 0)
        return c;
    unsigned k1 = kk(n, k), d = ceil_log(n, k1 + 1);
    uint64_t opt = n < 2 ? 0 : cdiv(b * (n - 1), k1);
    int ok = bounds_ok(&c, n, b, k);
    if (!in_range(n, b, k)) {
        ok &= c.c1 == d && c.supersteps == d && c.c2 == opt;
    } else if (t == BSP_COLL_OPTIMAL_C1) {
        ok &= c.c1 == d && c.supersteps == d && c.c2 >= opt && c.c2 <= opt + b - 1;
    } else {
        ok &= c.c2 == opt && (c.c1 == d || c.c1 == d + 1) && c.supersteps == c.c1;
    }
    bsp_coll_choice pr = bsp_coll_predict(BSP_COLL_ALLGATHER, n, b, &o);
    ok &= pr.c1 == c.c1 && pr.c2 == c.c2;
    if (!ok)
        report("bruck", n, k, b, (int)t, &c, d, opt, &pr);
    SPMD_CHECK(ok);
    return c;
}

/* Inside §4.2's range: both tradeoffs, and their agreement. */
static void range_case(const bsp_pid_t *ids, unsigned n, unsigned me, unsigned k, size_t b,
                       int in_place)
{
    bsp_coll_cost a = bruck_case(ids, n, me, k, b, in_place, BSP_COLL_OPTIMAL_C1);
    bsp_coll_cost z = bruck_case(ids, n, me, k, b, !in_place, BSP_COLL_OPTIMAL_C2);
    if (me != 0)
        return;
    unsigned d = ceil_log(n, kk(n, k) + 1);
    uint64_t opt = cdiv(b * (n - 1), kk(n, k));
    int agree = (a.c2 == opt) == (z.c1 == d);
    if (a.c2 == opt)
        agree &= z.c2 == a.c2;
    if (!agree)
        fprintf(stderr, "allgather tradeoffs disagree: n=%u k=%u b=%zu: C1-optimal %llu %llu, "
                        "C2-optimal %llu %llu\n", n, k, b, (unsigned long long)a.c1,
                (unsigned long long)a.c2, (unsigned long long)z.c1, (unsigned long long)z.c2);
    SPMD_CHECK(agree);
}

/* A case worked by hand (see the top). */
static void hand_case(const bsp_pid_t *ids, unsigned n, unsigned me, unsigned k, size_t b,
                      bsp_coll_tradeoff t, uint64_t c1, uint64_t c2)
{
    bsp_coll_cost c = bruck_case(ids, n, me, k, b, (int)t, t);
    if (me != 0)
        return;
    if (c.c1 != c1 || c.c2 != c2)
        fprintf(stderr, "allgather by hand: n=%u k=%u b=%zu t=%d: C1=%llu C2=%llu, expected "
                        "%llu %llu\n", n, k, b, (int)t, (unsigned long long)c.c1,
                (unsigned long long)c.c2, (unsigned long long)c1, (unsigned long long)c2);
    SPMD_CHECK(c.c1 == c1 && c.c2 == c2);
}

static void ring_case(const bsp_pid_t *ids, unsigned n, unsigned me, size_t b, int in_place)
{
    bsp_coll_options o = {.algorithm = BSP_COLL_RING};
    run(NULL, ids, n, me, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    if (me != 0)
        return;
    uint64_t c1 = n - 1, c2 = b * (n - 1);
    int ok = bounds_ok(&c, n, b, 1) && c.c1 == c1 && c.supersteps == c1 && c.c2 == c2;
    ok &= n < 2 || c.messages == (uint64_t)n * (n - 1);
    bsp_coll_choice pr = bsp_coll_predict(BSP_COLL_ALLGATHER, n, b, &o);
    ok &= pr.c1 == c.c1 && pr.c2 == c.c2;
    if (!ok)
        report("ring", n, 1, b, 0, &c, c1, c2, &pr);
    SPMD_CHECK(ok);
}

static void direct_case(const bsp_pid_t *ids, unsigned n, unsigned me, unsigned k, size_t b,
                        int in_place)
{
    bsp_coll_options o = {.algorithm = BSP_COLL_DIRECT, .ports = k};
    run(NULL, ids, n, me, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    if (me != 0)
        return;
    unsigned kd = k ? k : n > 1 ? n - 1 : 1;
    uint64_t c1 = n < 2 ? 0 : cdiv(n - 1, kd), c2 = b * c1;
    int ok = bounds_ok(&c, n, b, kd) && c.c1 == c1 && c.supersteps == c1 && c.c2 == c2;
    bsp_coll_choice pr = bsp_coll_predict(BSP_COLL_ALLGATHER, n, b, &o);
    ok &= pr.c1 == c.c1 && pr.c2 == c.c2;
    if (!ok)
        report("direct", n, kd, b, 0, &c, c1, c2, &pr);
    SPMD_CHECK(ok);
}

static void auto_case(const bsp_pid_t *ids, unsigned n, unsigned me, size_t b, int in_place)
{
    bsp_coll_options o = {0};
    run(NULL, ids, n, me, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    if (me != 0)
        return;
    bsp_coll_choice ch = bsp_coll_select(BSP_COLL_ALLGATHER, n, b, 0, -1, -1);
    /* The selection picks the ports too: one, or n − 1 (one superstep). */
    int ok = (ch.ports == 1 || ch.ports == n - 1) && bounds_ok(&c, n, b, ch.ports) && c.c1 == ch.c1 &&
             c.c2 == ch.c2;
    if (!ok)
        report("auto", n, 1, b, 0, &c, ch.c1, ch.c2, &ch);
    SPMD_CHECK(ok);
}

/* Groups: gid[pid] names each process's group; every group runs `alg` at
 * once (k ports, tradeoff t). Data per member; the call's cost is the
 * groups' schedules side by side: supersteps = max(1, the longest), and —
 * where every group is outside §4.2's range, or for RING and DIRECT — C2 = Σ over
 * rounds of the largest message of any group in that round. */
static void group_case(const unsigned *gid, unsigned groups, unsigned me, bsp_coll_algorithm alg,
                       unsigned k, size_t b, bsp_coll_tradeoff t, int in_place)
{
    bsp_pid_t members[128];
    const unsigned p = bsp_nprocs(); /* main's P is pid 0's alone (over MPI) */
    unsigned n = 0, rank = 0;
    /* Members in a scrambled but agreed order: descending pids for odd
     * groups. */
    for (unsigned q = 0; q < p; q++) {
        unsigned pid = gid[me] % 2 ? p - 1 - q : q;
        if (gid[pid] == gid[me]) {
            if (pid == me)
                rank = n;
            members[n++] = pid;
        }
    }
    bsp_coll_group *g = bsp_coll_group_create(members, n);
    SPMD_CHECK(bsp_coll_group_size(g) == n && bsp_coll_group_rank(g) == rank);
    bsp_coll_options o = {.algorithm = alg, .ports = alg == BSP_COLL_RING ? 0 : k, .tradeoff = t};
    run(g, members, n, rank, b, in_place, &o);
    bsp_coll_cost c = bsp_coll_last_cost();
    bsp_coll_group_destroy(g);
    if (me != 0)
        return;
    unsigned kp = alg == BSP_COLL_RING ? 1 : k;
    uint64_t most[MAXROUNDS] = {0};
    unsigned longest = 0, biggest = 0;
    int exact = 1;
    for (unsigned gi = 0; gi < groups; gi++) {
        unsigned ng = 0, rounds = 0;
        uint64_t sizes[MAXROUNDS];
        for (unsigned q = 0; q < p; q++)
            ng += gid[q] == gi;
        biggest = ng > biggest ? ng : biggest;
        if (alg != BSP_COLL_BRUCK) { /* RING: n − 1 rounds; DIRECT: ⌈(n−1)/k⌉ */
            rounds = alg == BSP_COLL_RING ? ng - 1 : (unsigned)cdiv(ng - 1, k);
            for (unsigned r = 0; r < rounds && r < MAXROUNDS; r++)
                sizes[r] = b;
        } else {
            rounds = paper_rounds(ng, b, k, sizes);
            exact &= !in_range(ng, b, k);
        }
        SPMD_CHECK(rounds <= MAXROUNDS);
        for (unsigned r = 0; r < rounds && r < MAXROUNDS; r++)
            most[r] = sizes[r] > most[r] ? sizes[r] : most[r];
        longest = rounds > longest ? rounds : longest;
    }
    uint64_t c2 = 0;
    for (unsigned r = 0; r < longest; r++)
        c2 += most[r];
    int ok = c.max_q <= kp && c.max_r <= kp;
    if (exact)
        ok &= c.c1 == longest && c.supersteps == (longest ? longest : 1) && c.c2 == c2;
    else /* a group in §4.2's range: one round more, or up to b − 1 more in
          * its last round; the extra round's message (the remaining
          * ⌈b(k−j)/k⌉ bytes) is at most b */
        ok &= c.c1 >= ceil_log(biggest, kp + 1) && c.c2 >= cdiv(b * (biggest - 1), kp) &&
              c.c1 >= longest && c.c1 <= longest + 1 && c.c2 >= c2 && c.c2 <= c2 + b;
    if (!ok)
        fprintf(stderr, "allgather groups (%s): k=%u b=%zu t=%d: C1=%llu steps=%llu C2=%llu "
                        "q=%llu r=%llu, expected %u, %u, %llu\n",
                bsp_coll_algorithm_name(alg), k, b, (int)t, (unsigned long long)c.c1,
                (unsigned long long)c.supersteps, (unsigned long long)c.c2,
                (unsigned long long)c.max_q, (unsigned long long)c.max_r, longest,
                longest ? longest : 1, (unsigned long long)c2);
    SPMD_CHECK(ok);
}

static void groups_for(unsigned n, unsigned me)
{
    unsigned gid[128], groups = 0;
    if (n == 20) { /* rows of a 4×5 grid */
        for (unsigned q = 0; q < 20; q++)
            gid[q] = q / 5;
        groups = 4;
    } else if (n == 10) { /* sizes 1, 3, 6 */
        for (unsigned q = 0; q < 10; q++)
            gid[q] = q < 1 ? 0 : q < 4 ? 1 : 2;
        groups = 3;
    } else if (n == 12) { /* sizes 2, 1, 4, 5, scattered */
        static const unsigned g12[12] = {3, 0, 2, 3, 1, 2, 3, 2, 0, 3, 2, 3};
        memcpy(gid, g12, sizeof g12);
        groups = 4;
    } else if (n == 40) { /* sizes 15, 14, 11: §4.2's range for k = 3 */
        for (unsigned q = 0; q < 40; q++) {
            unsigned x = q * 7 % 40; /* scattered */
            gid[q] = x < 15 ? 0 : x < 29 ? 1 : 2;
        }
        groups = 3;
    } else if (n == 64) { /* 63 + 1: n = 63 in §4.2's range for k = 3, d = 3 */
        for (unsigned q = 0; q < 64; q++)
            gid[q] = q == 17;
        groups = 2;
    }
    if (!groups)
        return;
    if (n <= 20) {
        for (unsigned k = 1; k <= 3; k++)
            for (unsigned bi = 0; bi < 3; bi++) {
                static const size_t gb[3] = {0, 1, 5};
                group_case(gid, groups, me, BSP_COLL_BRUCK, k, gb[bi], (bsp_coll_tradeoff)0,
                           (int)((k + bi) % 2));
            }
        group_case(gid, groups, me, BSP_COLL_RING, 1, 3, BSP_COLL_OPTIMAL_C1, 1);
        group_case(gid, groups, me, BSP_COLL_DIRECT, 2, 3, BSP_COLL_OPTIMAL_C1, 0);
    } else {
        for (unsigned t = 0; t < 2; t++) {
            group_case(gid, groups, me, BSP_COLL_BRUCK, 3, 3, (bsp_coll_tradeoff)t, (int)t);
            group_case(gid, groups, me, BSP_COLL_BRUCK, 3, 7, (bsp_coll_tradeoff)t, !t);
        }
        group_case(gid, groups, me, BSP_COLL_BRUCK, 2, 8, BSP_COLL_OPTIMAL_C1, 1);
    }
}

static void spmd(void)
{
    bsp_begin(P);
    unsigned n = bsp_nprocs(), me = bsp_pid();
    bsp_pid_t *ids = malloc(n * sizeof *ids);
    for (unsigned q = 0; q < n; q++)
        ids[q] = q;
    sendbuf = malloc(BIG + GUARD);
    recvbuf = malloc((size_t)n * BIG + GUARD);
    salt_counter = 0;

    int large = n > 40;
    static const size_t blocks[] = {0, 1, 3, 8};
    for (unsigned k = 1; k <= 3; k++)
        for (unsigned bi = 0; bi < 4; bi += large ? 3 : 1)
            bruck_case(ids, n, me, k, blocks[bi], (int)((bi + k) % 2),
                       (bsp_coll_tradeoff)((bi / 2 + k) % 2));
    /* More ports: 4, 5, 7 and n + 3 (one round: C2 = b). */
    static const unsigned more[] = {4, 5, 7};
    for (unsigned i = 0; i < 3; i++)
        if (!large || i == 1)
            bruck_case(ids, n, me, more[i], 3, (int)(i % 2), (bsp_coll_tradeoff)0);
    bruck_case(ids, n, me, n + 3, 5, 1, BSP_COLL_OPTIMAL_C1);
    /* §4.2's range. */
    for (unsigned k = 3; k <= 7; k++)
        if (in_range(n, 3, k)) {
            static const size_t rb[] = {3, 4, 5, 7, 8};
            for (unsigned i = 0; i < 5; i++)
                range_case(ids, n, me, k, rb[i], (int)((i + k) % 2));
            range_case(ids, n, me, k, BIG, (int)(k % 2));
        }
    if (n == 15) {
        hand_case(ids, n, me, 3, 3, BSP_COLL_OPTIMAL_C1, 2, 15);
        hand_case(ids, n, me, 3, 3, BSP_COLL_OPTIMAL_C2, 3, 14);
    }
    if (n == 23)
        for (unsigned t = 0; t < 2; t++)
            hand_case(ids, n, me, 4, 4, (bsp_coll_tradeoff)t, 2, 22);
    /* Large blocks. */
    if (n == 2 || n == 7 || n == 17 || n == 40 || n == 65) {
        bruck_case(ids, n, me, 1, BIG, 1, BSP_COLL_OPTIMAL_C1);
        bruck_case(ids, n, me, 3, BIG, 0, BSP_COLL_OPTIMAL_C2);
        ring_case(ids, n, me, BIG, 0);
    }
    ring_case(ids, n, me, 3, n % 2);
    if (!large) {
        ring_case(ids, n, me, 0, 1);
        ring_case(ids, n, me, 1, 0);
    }
    direct_case(ids, n, me, 0, 5, 0);
    direct_case(ids, n, me, 2, 3, 1);
    direct_case(ids, n, me, 1, 0, 0);
    auto_case(ids, n, me, 1, 1);
    auto_case(ids, n, me, 300, 0);

    groups_for(n, me);

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
        snprintf(what, sizeof what, "allgather, P = %u", P);
        CHECK_SPMD(what);
    }
    return check_report("test_coll_allgather");
}
