/* bsp_coll_alltoall with BSP_COLL_EXCHANGE (coll/alltoall_exchange.c): the
 * hypercube's standard dimension exchange (Johnsson & Ho's one-port
 * all-to-all personalized communication), against a sequential reference,
 * for n = 1, 2, 4, …, 64 in one BSP section per n.
 *
 * Every call: block j of rank i's send holds bytes that depend on (i, j, the
 * byte, the call); afterwards block i of rank j's recv must be block j of
 * rank i's send (the reference: that definition, evaluated here), a
 * separate send untouched, and nothing written past recv. Blocks of 0, 1, 5
 * and 64 bytes, in place and not. Costs from the algorithm's description,
 * not from the library's formula: d = log2 n rounds, each a message of
 * (n/2)·b bytes from every member to the member whose rank differs in bit
 * t, so
 *     C1 = d, C2 = b·(n/2)·d, supersteps = d, messages = n·d,
 *     max_q = max_r = 1 (one port; 0 for n = 1, which takes no superstep);
 * C2 ≥ b(n − 1) (Bruck §2's bound); bsp_coll_predict gives the measured
 * counts, as does Bruck's index with r = 2 (the same counts), which the
 * selection keeps on a tie. Groups: subcubes of sizes n/2, n/4, …, 2, 1, 1
 * at once (the call takes the largest group's rounds; C2 per round the
 * largest message over the groups), and on 8 processes two groups whose
 * ranks are scattered pids. Every message of every call on all processes
 * and on the subcube groups goes between cube neighbours: read off the
 * router's message pattern in the trace (BSPRAM_TRACE, BSPRAM_PATTERN=1).
 * Errors, each one line and exit status 1: n = 6 on all processes, a group
 * of 6, a radix, two ports, another operation, bsp_coll_predict for n = 6.
 * One machine only (not over MPI): the death tests fork, the message pattern
 * is kept on one process, and every process reads main's `which`. */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsplib_check.h"
#include "bsplib_death.h"

enum { NORMAL, SCATTERED, E_SIX, E_GROUP_SIX, E_RADIX, E_PORTS, E_OTHER_OP, E_PREDICT, NCASES };
static unsigned P;
enum { BIG = 64 };

static unsigned char pattern(unsigned i, unsigned j, size_t byte, unsigned salt)
{
    uint32_t x = i * 0x9E3779B1u ^ j * 0x85EBCA77u ^ (uint32_t)byte * 0xC2B2AE3Du ^
                 salt * 0x27D4EB2Fu;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 13;
    return (unsigned char)(x >> 7);
}

static unsigned log2u(unsigned n)
{
    unsigned d = 0;
    while ((1u << d) < n)
        d++;
    return d;
}

static _Thread_local unsigned char *sendbuf, *recvbuf;
static _Thread_local unsigned salt_counter;
static const bsp_coll_options EXCHANGE = {.algorithm = BSP_COLL_EXCHANGE};

/* Fill, call, check the data against the reference. members: the group's
 * pids in rank order. */
static void run(const bsp_coll_group *g, const bsp_pid_t *members, unsigned n, unsigned me,
                size_t b, int in_place)
{
    unsigned salt = ++salt_counter;
    unsigned mp = members[me];
    size_t whole = (size_t)n * b;
    memset(recvbuf, 0xA5, whole + 16);
    unsigned char *src = in_place ? recvbuf : sendbuf;
    for (unsigned j = 0; j < n; j++)
        for (size_t y = 0; y < b; y++)
            src[(size_t)j * b + y] = pattern(mp, members[j], y, salt);
    bsp_coll_alltoall(g, in_place ? BSP_COLL_IN_PLACE : sendbuf, recvbuf, b, &EXCHANGE);
    int bad = 0;
    for (unsigned i = 0; i < n; i++)
        for (size_t y = 0; y < b; y++)
            bad |= recvbuf[(size_t)i * b + y] != pattern(members[i], mp, y, salt);
    for (size_t y = 0; y < 16; y++)
        bad |= recvbuf[whole + y] != 0xA5;
    if (!in_place)
        for (unsigned j = 0; j < n; j++)
            for (size_t y = 0; y < b; y++)
                bad |= sendbuf[(size_t)j * b + y] != pattern(mp, members[j], y, salt);
    if (bad)
        fprintf(stderr, "exchange wrong: n=%u rank=%u b=%zu in_place=%d\n", n, me, b, in_place);
    SPMD_CHECK(!bad);
}

static void whole_case(const bsp_pid_t *ids, unsigned n, unsigned me, size_t b, int in_place)
{
    run(NULL, ids, n, me, b, in_place);
    bsp_coll_cost c = bsp_coll_last_cost();
    if (me != 0)
        return;
    uint64_t d = log2u(n), c2 = b * (n / 2) * d;
    int ok = c.c1 == d && c.supersteps == d && c.c2 == c2 && c.messages == n * d;
    ok &= n >= 2 ? c.max_q == 1 && c.max_r == 1 && c.c2 >= b * (n - 1) : c.max_q == 0;
    bsp_coll_choice pr = bsp_coll_predict(BSP_COLL_ALLTOALL, n, b, &EXCHANGE);
    ok &= pr.algorithm == BSP_COLL_EXCHANGE && pr.c1 == c.c1 && pr.c2 == c.c2 && pr.ports == 1 &&
          pr.radix == 0;
    /* Bruck's index with r = 2 counts the same; the selection keeps it on
     * the tie (the earlier algorithm), never picking EXCHANGE. */
    bsp_coll_options bruck2 = {.algorithm = BSP_COLL_BRUCK, .radix = 2};
    bsp_coll_choice br = bsp_coll_predict(BSP_COLL_ALLTOALL, n, b, &bruck2);
    ok &= br.c1 == pr.c1 && br.c2 == pr.c2;
    bsp_coll_choice sel = bsp_coll_select(BSP_COLL_ALLTOALL, n, b, 1, 1, 1e9);
    ok &= sel.algorithm != BSP_COLL_EXCHANGE && sel.c1 == pr.c1 && sel.c2 == pr.c2;
    if (!ok)
        fprintf(stderr, "exchange cost: n=%u b=%zu: C1=%llu steps=%llu C2=%llu msgs=%llu q=%llu "
                        "r=%llu; expected %llu, %llu; predicted %llu %llu\n",
                n, b, (unsigned long long)c.c1, (unsigned long long)c.supersteps,
                (unsigned long long)c.c2, (unsigned long long)c.messages,
                (unsigned long long)c.max_q, (unsigned long long)c.max_r, (unsigned long long)d,
                (unsigned long long)c2, (unsigned long long)pr.c1, (unsigned long long)pr.c2);
    SPMD_CHECK(ok);
}

/* Groups: gid[q] is pid q's group; each group's members in increasing pid
 * order; all groups at once. */
static void group_case(const unsigned *gid, unsigned groups, unsigned me, size_t b, int in_place)
{
    bsp_pid_t members[64];
    const unsigned p = bsp_nprocs(); /* main's P is pid 0's alone (over MPI) */
    unsigned n = 0, rank = 0;
    for (unsigned q = 0; q < p; q++)
        if (gid[q] == gid[me]) {
            if (q == me)
                rank = n;
            members[n++] = q;
        }
    bsp_coll_group *g = bsp_coll_group_create(members, n);
    run(g, members, n, rank, b, in_place);
    bsp_coll_cost c = bsp_coll_last_cost();
    bsp_coll_group_destroy(g);
    if (me != 0)
        return;
    /* Round t: every group of 2^d members with d > t sends (2^d/2)·b. */
    uint64_t most[8] = {0}, rounds = 0, c2 = 0;
    for (unsigned gi = 0; gi < groups; gi++) {
        unsigned ng = 0;
        for (unsigned q = 0; q < p; q++)
            ng += gid[q] == gi;
        unsigned d = log2u(ng);
        SPMD_CHECK((1u << d) == ng && d < 8);
        for (unsigned t = 0; t < d && t < 8; t++)
            most[t] = (uint64_t)(ng / 2) * b > most[t] ? (uint64_t)(ng / 2) * b : most[t];
        rounds = d > rounds ? d : rounds;
    }
    for (unsigned t = 0; t < rounds; t++)
        c2 += most[t];
    int ok = c.c1 == rounds && c.supersteps == (rounds ? rounds : 1) && c.c2 == c2 &&
             c.max_q <= 1 && c.max_r <= 1;
    if (!ok)
        fprintf(stderr, "exchange groups: P=%u b=%zu: C1=%llu steps=%llu C2=%llu q=%llu r=%llu, "
                        "expected %llu, %llu\n", p, b, (unsigned long long)c.c1,
                (unsigned long long)c.supersteps, (unsigned long long)c.c2,
                (unsigned long long)c.max_q, (unsigned long long)c.max_r,
                (unsigned long long)rounds, (unsigned long long)c2);
    SPMD_CHECK(ok);
}

static void spmd(void)
{
    if (which == E_PREDICT)
        bsp_coll_predict(BSP_COLL_ALLTOALL, 6, 4, &EXCHANGE);
    bsp_begin(which == NORMAL || which == SCATTERED ? P : which == E_SIX ? 6 : 8);
    unsigned n = bsp_nprocs(), me = bsp_pid();
    if (which >= E_SIX) { /* the errors, in superstep 1 */
        unsigned char in[64] = {0}, out[64] = {0};
        bsp_sync();
        bsp_coll_options o = EXCHANGE;
        if (which == E_GROUP_SIX) {
            bsp_pid_t six[6] = {0, 1, 2, 3, 4, 5}, two[2] = {6, 7};
            bsp_coll_group *g = bsp_coll_group_create(me < 6 ? six : two, me < 6 ? 6 : 2);
            bsp_coll_alltoall(g, in, out, 4, &o);
        } else if (which == E_OTHER_OP) {
            bsp_coll_broadcast(NULL, in, 4, 0, &o);
        } else {
            o.radix = which == E_RADIX ? 2 : 0;
            o.ports = which == E_PORTS ? 2 : 0;
            bsp_coll_alltoall(NULL, in, out, 4, &o);
        }
        bsp_end();
        return;
    }
    bsp_pid_t *ids = malloc(n * sizeof *ids);
    for (unsigned q = 0; q < n; q++)
        ids[q] = q;
    sendbuf = malloc((size_t)n * BIG + 16);
    recvbuf = malloc((size_t)n * BIG + 16);
    salt_counter = 0;
    static const size_t blocks[] = {0, 1, 5, 64};
    if (which == SCATTERED) {
        /* Ranks over scattered pids: 5 1 7 3 and 6 0 2 4 (members listed in
         * that order: ranks are list positions). */
        static const bsp_pid_t lists[2][4] = {{5, 1, 7, 3}, {6, 0, 2, 4}};
        const bsp_pid_t *mine = lists[me % 2 ? 0 : 1];
        unsigned rank = 0;
        while (mine[rank] != (bsp_pid_t)me)
            rank++;
        bsp_coll_group *g = bsp_coll_group_create(mine, 4);
        for (size_t bi = 0; bi < 4; bi++) {
            run(g, mine, 4, rank, blocks[bi], (int)(bi % 2));
            bsp_coll_cost c = bsp_coll_last_cost();
            SPMD_CHECK(c.c1 == 2 && c.c2 == 2 * 2 * blocks[bi] && c.max_q == 1 && c.max_r == 1);
        }
        bsp_coll_group_destroy(g);
    } else {
        for (size_t bi = 0; bi < 4; bi++)
            for (int in_place = 0; in_place <= 1; in_place++)
                whole_case(ids, n, me, blocks[bi], in_place);
        /* Subcubes of n/2, n/4, …, 2, 1, 1 pids: group k holds the pids
         * whose top k bits are 1…10, ranks the bits below. */
        if (n >= 4) {
            unsigned gid[64], groups = log2u(n) + 1;
            for (unsigned q = 0; q < n; q++) {
                unsigned k = 0;
                while (k + 1 < groups && (q >> (log2u(n) - 1 - k) & 1u))
                    k++;
                gid[q] = k;
            }
            for (size_t bi = 0; bi < 4; bi++)
                group_case(gid, groups, me, blocks[bi], (int)(bi % 2));
        }
    }
    free(sendbuf), free(recvbuf), free(ids);
    bsp_end();
}

/* The trace's rows of bsp_coll_alltoall: those that move messages, how many
 * carry their flows, and whether every flow joins cube neighbours. */
static void check_trace(const char *path, unsigned p)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    unsigned communicating = 0, kept = 0, pairs = 0;
    int neighbours = 1;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = '\0';
        const char *at = strstr(line, ",bsp_coll_alltoall,");
        unsigned long long messages;
        if (!at || sscanf(at + strlen(",bsp_coll_alltoall,"), "%llu", &messages) != 1 ||
            messages == 0)
            continue;
        communicating++;
        const char *fl = check_trace_flows(line);
        if (!fl || *fl == '-')
            continue;
        kept++;
        unsigned long long s, d, msgs, bytes, largest;
        int len;
        while (sscanf(fl, "%llu:%llu:%llu:%llu:%llu%n", &s, &d, &msgs, &bytes, &largest, &len) ==
               5) {
            unsigned x = (unsigned)(s ^ d);
            if (s >= p || d >= p || x == 0 || (x & (x - 1)) != 0 || msgs != 1)
                neighbours = 0;
            pairs++;
            fl += len;
            while (*fl == ' ')
                fl++;
        }
    }
    free(line);
    fclose(f);
    CHECK_EQ_U64(kept, communicating);
    CHECK(neighbours);
    CHECK(p < 2 || (communicating > 0 && pairs > 0));
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    /* The death tests first: a child forked after an OpenMP region may not
     * start threads (ThreadSanitizer refuses; tests/bsplib_death.h). */
    static int k[NCASES];
    for (int i = 0; i < NCASES; i++)
        k[i] = i;
    struct {
        int which;
        const char *name, *expect;
    } cases[] = {
        {E_SIX, "n = 6", ", block=4, algorithm=exchange, radix=0, ports=0): algorithm exchange needs n a power of two, not 6 (superstep 1, pid "},
        {E_GROUP_SIX, "a group of 6", "): algorithm exchange needs n a power of two, not 6 (superstep "},
        {E_RADIX, "a radix", ", block=4, algorithm=exchange, radix=2, ports=0): algorithm exchange takes no radix (superstep 1, pid "},
        {E_PORTS, "two ports", ", block=4, algorithm=exchange, radix=0, ports=2): algorithm exchange of alltoall has one port (superstep 1, pid "},
        {E_OTHER_OP, "broadcast", ", size=4, root=0, algorithm=exchange, radix=0, ports=0): broadcast has no algorithm exchange (superstep 1, pid "},
        {E_PREDICT, "predict n = 6", "bspram: bsp_coll_predict(op=alltoall, n=6, block=4, algorithm=exchange): algorithm exchange needs n a power of two\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_death_status(cases[i].name, bsplib_death_run, &k[cases[i].which], cases[i].expect, 1,
                           20, 1);
    char path[64];
    snprintf(path, sizeof path, "/tmp/bspram-test-coll-exchange-%d.csv", (int)getpid());
    setenv("BSPRAM_PATTERN", "1", 1);
    which = NORMAL;
    for (P = 1; P <= 64; P *= 2) {
        remove(path);
        setenv("BSPRAM_TRACE", path, 1);
        bsp_init(spmd, 0, NULL);
        spmd();
        unsetenv("BSPRAM_TRACE");
        char what[32];
        snprintf(what, sizeof what, "exchange, P = %u", P);
        CHECK_SPMD(what);
        check_trace(path, P);
    }
    remove(path);
    unsetenv("BSPRAM_PATTERN");
    which = SCATTERED;
    P = 8;
    bsp_init(spmd, 0, NULL);
    spmd();
    CHECK_SPMD("exchange, scattered groups");

    /* Names. */
    CHECK(strcmp(bsp_coll_algorithm_name(BSP_COLL_EXCHANGE), "exchange") == 0);
    CHECK(bsp_coll_algorithm_parse("exchange") == BSP_COLL_EXCHANGE);
    /* Not a power of two: never a candidate. */
    for (unsigned n = 3; n <= 40; n += 3)
        CHECK(bsp_coll_select(BSP_COLL_ALLTOALL, n, 8, 1, 1, 1000).algorithm != BSP_COLL_EXCHANGE);

    return check_report("test_coll_exchange");
}
