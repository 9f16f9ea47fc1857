/* The record channel a record at a time (router.h, bspram__router_append),
 * against a sequential reference. Every lane's components append records
 * of 8, 16 and 24 bytes to a few destinations, interleaved among
 * themselves and with posts and reserved runs to the same destinations,
 * for several supersteps, with and without write-combining windows, at
 * p = 130 too (destinations d and d + 64 share a slot of open runs).
 * Checked against the reference: every inbox as messages and as runs (the
 * records of the runs, in order, are the messages: an appended record is a
 * message of its size, in issue order), and every record (messages, bytes,
 * q, r, h, largest message) as if each record had been posted alone
 * (tests/router_records.h). On a transport that builds runs itself, each
 * inbox has at least as many runs as the rule of open runs makes (a full
 * chunk may begin another), and at most one per message; and a case small
 * enough for one chunk has exactly the runs of the rule: records appended
 * to one destination join one run; posts, reserves and appends to another
 * destination of the same slot between them begin new ones.
 * Runs on every transport the environment names (ctest: shm and staged).
 * Also append's errors, one line each. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "router_rounds.h"
#include "hash/random.h"
#include "router/router_internal.h"

enum { ACTIONS = 40, FEW = 4 };

/* Action j of src in superstep s: an append (run of one record, run = 2),
 * a post (run = 0) or a reserve (run = 1), to one of FEW destinations (in
 * [0, p), two of them 64 apart where p allows). */
static action action_of(uint64_t p, uint64_t s, uint64_t src, unsigned j, uint64_t seed)
{
    action a = {0};
    uint64_t x = bspram_random3(seed, s, src, j);
    uint64_t pick = bspram_random_below(FEW, seed + 1, s, src, j);
    const uint64_t few[FEW] = {src % p, (src + 1) % p, (src + 3) % p, (src + 3 + 64) % p};
    a.dst = few[pick];
    const unsigned kind = (unsigned)(x % 10);
    a.run = kind < 7 ? 2 : kind < 9 ? 0 : 1;
    a.size = (x >> 8) % 8 == 0 ? 24 : (x >> 8) % 8 == 1 ? 8 : 16; /* mostly 16 */
    a.count = a.run == 2 ? 1 : 1 + (x >> 12) % 3;
    a.len = (x >> 16) % 20;
    return a;
}

static void fill(unsigned char *at, uint64_t s, uint64_t src, unsigned j, uint64_t k, uint64_t len)
{
    for (uint64_t b = 0; b < len; b++)
        at[b] = byte_of(s, src, j, k, b);
}

static int is(const void *data, uint64_t len, uint64_t s, uint64_t src, unsigned j, uint64_t k, uint64_t want)
{
    if (len != want)
        return 0;
    for (uint64_t b = 0; b < len; b++)
        if (((const unsigned char *)data)[b] != byte_of(s, src, j, k, b))
            return 0;
    return 1;
}

static void post_all(bspram_router *r, unsigned lane, uint64_t p, uint64_t s, uint64_t seed)
{
    uint64_t first = bspram__router_lane_first(r, lane), end = bspram__router_lane_first(r, lane + 1);
    for (uint64_t src = first; src < end; src++)
        for (unsigned j = 0; j < ACTIONS; j++) {
            action a = action_of(p, s, src, j, seed);
            if (a.run == 2)
                fill(bspram__router_append(r, lane, src, a.dst, a.size, "test"), s, src, j, 0, a.size);
            else if (a.run == 0)
                fill(bspram__router_post(r, lane, src, a.dst, a.len, "test"), s, src, j, 0, a.len);
            else {
                unsigned char *at = bspram__router_reserve(r, lane, src, a.dst, a.size, a.count, "test");
                for (uint64_t k = 0; k < a.count; k++)
                    fill(at + k * a.size, s, src, j, k, a.size);
            }
        }
}

/* The runs the rule of open runs makes in dst's inbox in superstep s (no
 * full chunk): per source (a lane's components post in order, and a new
 * source closes every run), a record joins the last one appended to dst
 * if nothing went to dst or to another destination of its slot since. */
static uint64_t rule_runs(uint64_t p, uint64_t s, uint64_t dst, uint64_t seed)
{
    uint64_t runs = 0;
    for (uint64_t src = 0; src < p; src++) {
        int open = 0;         /* dst's last entry is an open run, */
        uint32_t open_size = 0; /* of this size */
        for (unsigned j = 0; j < ACTIONS; j++) {
            action a = action_of(p, s, src, j, seed);
            if (a.dst != dst) {
                if (a.run == 2 && a.dst % BSPRAM__OPEN_RUNS == dst % BSPRAM__OPEN_RUNS)
                    open = 0; /* the slot is taken */
                continue;
            }
            if (a.run == 2 && open && open_size == a.size)
                continue; /* joins */
            runs++;
            open = a.run == 2;
            open_size = a.size;
        }
    }
    return runs;
}

static int check_inbox(bspram_router *r, unsigned lane, uint64_t p, uint64_t s, uint64_t dst, uint64_t seed,
                       int runs_whole)
{
    const bspram_message *m;
    size_t n = bspram__router_inbox(r, lane, dst, &m);
    const bspram__run *u;
    size_t nu = bspram__router_inbox_runs(r, lane, dst, &u);
    size_t i = 0, ui = 0, uk = 0;
    int bad = 0;
    for (uint64_t src = 0; src < p; src++)
        for (unsigned j = 0; j < ACTIONS; j++) {
            action a = action_of(p, s, src, j, seed);
            if (a.dst != dst)
                continue;
            uint64_t cnt = a.run == 1 ? a.count : 1, len = a.run ? a.size : a.len;
            for (uint64_t k = 0; k < cnt; k++, i++) {
                if (i >= n || m[i].src != src || m[i].dst != dst || !is(m[i].data, m[i].len, s, src, j, k, len))
                    bad = 1;
                if (ui >= nu || u[ui].src != src ||
                    !is((const char *)u[ui].data + uk * u[ui].size, u[ui].size, s, src, j, k, len))
                    bad = 1;
                else if (++uk == u[ui].count)
                    ui++, uk = 0;
            }
        }
    if (i != n || ui != nu || uk != 0)
        bad = 1;
    if (runs_whole && (nu < rule_runs(p, s, dst, seed) || nu > n))
        bad = 1;
    return bad;
}

/* action_of's records for router_records.h: an append is a message of its size. */
static action counted_of(uint64_t p, uint64_t s, uint64_t src, unsigned j, uint64_t seed)
{
    action a = action_of(p, s, src, j, seed);
    if (a.run == 2)
        a.run = 1; /* a run of one record */
    return a;
}


/* Exactly the rule's runs, in one chunk: component 0 of p = 130 (one lane)
 * appends 16-byte records {j} to 1, 2 and 66 (2's slot): 1, 1, 2, 1, 66, 2,
 * 2, post to 1, 1, 1, reserve 1 record to 2, 2, 8-byte 1, 1. */
static void exact(void)
{
    bspram_router *r = bspram__router_create(130, 1);
    if (!r->transport->build_runs) {
        bspram__router_destroy(r);
        return;
    }
    static const struct { uint64_t dst; int kind; uint32_t size; } seq[] = {
        {1, 2, 16}, {1, 2, 16}, {2, 2, 16}, {1, 2, 16}, {66, 2, 16}, {2, 2, 16}, {2, 2, 16},
        {1, 0, 16}, {1, 2, 16}, {1, 2, 16}, {2, 1, 16}, {2, 2, 16}, {1, 2, 8}, {1, 2, 8},
    };
    const size_t n = sizeof seq / sizeof seq[0];
    for (size_t j = 0; j < n; j++) {
        uint64_t *at = seq[j].kind == 2   ? bspram__router_append(r, 0, 0, seq[j].dst, seq[j].size, "test")
                       : seq[j].kind == 1 ? bspram__router_reserve(r, 0, 0, seq[j].dst, seq[j].size, 1, "test")
                                          : bspram__router_post(r, 0, 0, seq[j].dst, seq[j].size, "test");
        at[0] = j;
        if (seq[j].size == 16)
            at[1] = ~(uint64_t)j;
    }
    bspram__router_exchange(r, 0, 0);
    /* dst 1: {0, 1} {3} | post 7 | {8, 9} | {12, 13} of 8 bytes: 1 is in its
     * run across the append to 2 (another slot) but not across the post. */
    static const uint64_t runs1[][3] = {{0, 1, 3}, {7, 7, 7}, {8, 9, 9}, {12, 13, 13}};
    static const uint64_t counts1[] = {3, 1, 2, 2};
    const bspram__run *u;
    size_t nu = bspram__router_inbox_runs(r, 0, 1, &u);
    CHECK_EQ_U64(nu, 4);
    for (size_t i = 0; i < nu && i < 4; i++) {
        CHECK_EQ_U64(u[i].count, counts1[i]);
        for (uint64_t k = 0; k < u[i].count; k++)
            CHECK_EQ_U64(*(const uint64_t *)((const char *)u[i].data + k * u[i].size), runs1[i][k]);
    }
    /* dst 2: {2} | {5, 6} (66 took the slot between) | reserve 10 | {11}. */
    nu = bspram__router_inbox_runs(r, 0, 2, &u);
    CHECK_EQ_U64(nu, 4);
    static const uint64_t counts2[] = {1, 2, 1, 1};
    for (size_t i = 0; i < nu && i < 4; i++)
        CHECK_EQ_U64(u[i].count, counts2[i]);
    nu = bspram__router_inbox_runs(r, 0, 66, &u);
    CHECK_EQ_U64(nu, 1);
    bspram__router_leave(r, 0);
    const bspram_log *log = bspram__router_log(r);
    CHECK_EQ_U64(log->records[0].messages, n);
    CHECK_EQ_U64(log->records[0].bytes, 16 * (n - 2) + 16);
    CHECK_EQ_U64(log->records[0].max_message, 16);
    bspram__router_destroy(r);
}

typedef struct bad_append {
    uint64_t dst;
    uint32_t size;
} bad_append;

static void append_bad(void *arg)
{
    const bad_append *b = arg;
    bspram_router *r = bspram__router_create(4, 1);
    bspram__router_append(r, 0, 0, b->dst, b->size, "my_call");
}

int main(void)
{
    const uint64_t ps[] = {1, 5, 64, 130};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (unsigned lanes = 1; lanes <= 3; lanes++) {
            router_rounds(ps[i], lanes, 4, 7 + i, 0, post_all, check_inbox, ACTIONS, counted_of);
            /* every superstep through the windows after the first */
            router_rounds(ps[i], lanes, 4, 9 + i, 1, post_all, check_inbox, ACTIONS, counted_of);
        }
    /* A lane per component (BSPlib's processes), up to BSPRAM__MAIL_LANES of
     * them: on shared memory a small outbox goes by mail, a larger one as
     * the others do, both in one superstep (shm_transport.c). */
    for (unsigned p = 2; p <= BSPRAM__MAIL_LANES + 1; p += p < 5 ? 1 : 12) {
        router_rounds(p, p, 6, 21 + p, 0, post_all, check_inbox, ACTIONS, counted_of);
        router_rounds(p, p, 6, 23 + p, 1, post_all, check_inbox, ACTIONS, counted_of);
    }
    exact();
    check_death("size 12", append_bad, &(bad_append){1, 12},
                "my_call(dst=1, size=12, count=1): a run holds 1 to 2^53 records of 8 to 512 bytes", 1, 60);
    check_death("size 520", append_bad, &(bad_append){1, 520}, "my_call(dst=1, size=520, count=1): a run holds",
                1, 60);
    check_death("dst 4", append_bad, &(bad_append){4, 16}, "my_call(dst=4): destination outside [0, 4)", 1, 60);
    return check_report("test_router_append");
}
