/* The record channel (router.h, bspram__router_reserve): runs of fixed-size
 * records beside single messages, against a sequential reference. Every
 * lane's components post messages and reserve runs to random destinations —
 * some runs reserved for several destinations first and filled afterwards,
 * in reverse order, as a two-pass partition does — for several supersteps,
 * with and without write-combining windows. Checked against the reference:
 * every inbox as messages (bspram__router_inbox) and as runs
 * (bspram__router_inbox_runs: the records of the runs, in order, are the
 * messages; on the shared-memory transport a run of the channel is one run),
 * and every record (messages, bytes, q, r, h, largest message), which must
 * count a run of n records of s bytes as n messages of s bytes. A lane's
 * runs (one per destination for all its components) the same.
 * Runs on
 * every transport the environment names (ctest runs it on shm and staged).
 * Also the channel's errors, one line each. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "router_rounds.h"
#include "hash/random.h"
#include "router/router_internal.h"

enum { ACTIONS = 6 };

static action action_of(uint64_t p, uint64_t s, uint64_t src, unsigned j, uint64_t seed)
{
    action a = {0};
    uint64_t x = bspram_random3(seed, s, src, j);
    a.dst = bspram_random_below(p, seed + 1, s, src, j);
    a.run = (x & 3) != 0;
    a.late = a.run && (x & 4);
    a.size = (uint32_t)(8u << ((x >> 3) % 3)) + (uint32_t)(8 * ((x >> 5) & 1)); /* 8, 16, 24, 32, 40 */
    a.count = 1 + (x >> 8) % 7;
    a.len = (x >> 16) % 41; /* 0..40 bytes, any alignment */
    return a;
}

static void fill(unsigned char *at, uint64_t s, uint64_t src, unsigned j, uint64_t k, uint64_t len)
{
    for (uint64_t b = 0; b < len; b++)
        at[b] = byte_of(s, src, j, k, b);
}

/* Is msg the k-th record of action j of src (len bytes)? */
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
    for (uint64_t src = first; src < end; src++) {
        void *late[ACTIONS] = {0};
        for (unsigned j = 0; j < ACTIONS; j++) {
            action a = action_of(p, s, src, j, seed);
            if (!a.run) {
                void *at = bspram__router_post(r, lane, src, a.dst, a.len, "test");
                fill(at, s, src, j, 0, a.len);
                continue;
            }
            unsigned char *at = bspram__router_reserve(r, lane, src, a.dst, a.size, a.count, "test");
            if (a.late) {
                late[j] = at;
                continue;
            }
            for (uint64_t k = 0; k < a.count; k++)
                fill(at + k * a.size, s, src, j, k, a.size);
        }
        for (unsigned j = ACTIONS; j-- > 0;)
            if (late[j]) {
                action a = action_of(p, s, src, j, seed);
                for (uint64_t k = 0; k < a.count; k++)
                    fill((unsigned char *)late[j] + k * a.size, s, src, j, k, a.size);
            }
    }
}

/* The reference: component dst's inbox after superstep s, checked as
 * messages and as runs. Returns the number of wrong inboxes (0 or 1). */
static int check_inbox(bspram_router *r, unsigned lane, uint64_t p, uint64_t s, uint64_t dst, uint64_t seed,
                       int runs_whole)
{
    const bspram_message *m;
    size_t n = bspram__router_inbox(r, lane, dst, &m);
    const bspram__run *u;
    size_t nu = bspram__router_inbox_runs(r, lane, dst, &u);
    size_t i = 0, ui = 0, uk = 0, expect_runs = 0;
    int bad = 0;
    for (uint64_t src = 0; src < p; src++)
        for (unsigned j = 0; j < ACTIONS; j++) {
            action a = action_of(p, s, src, j, seed);
            if (a.dst != dst)
                continue;
            uint64_t cnt = a.run ? a.count : 1, len = a.run ? a.size : a.len;
            expect_runs++;
            for (uint64_t k = 0; k < cnt; k++, i++) {
                if (i >= n || m[i].src != src || m[i].dst != dst || !is(m[i].data, m[i].len, s, src, j, k, len))
                    bad = 1;
                /* The same record through the runs. */
                if (ui >= nu || u[ui].src != src || !is((const char *)u[ui].data + uk * u[ui].size, u[ui].size, s,
                                                        src, j, k, len))
                    bad = 1;
                else if (++uk == u[ui].count)
                    ui++, uk = 0;
            }
        }
    if (i != n || ui != nu || uk != 0)
        bad = 1;
    /* Where the transport shares memory, each run and each message is one
     * run of the inbox; elsewhere runs may also join consecutive messages. */
    if (runs_whole && nu != expect_runs)
        bad = 1;
    return bad;
}


/* A run of 2^24 + 3 records (past the short header's count): one run with a
 * 16-byte header, counted whole. Read as runs only (no descriptor per
 * record), on a transport that builds runs itself. */
static void long_run(void)
{
    bspram_router *r = bspram__router_create(2, 1);
    if (!r->transport->build_runs) {
        bspram__router_destroy(r);
        return;
    }
    const uint64_t n = (UINT64_C(1) << 24) + 3;
    uint64_t *at = bspram__router_reserve(r, 0, 0, 1, 8, n, "test");
    for (uint64_t k = 0; k < n; k++)
        at[k] = k * 3 + 1;
    bspram__router_exchange(r, 0, 0);
    const bspram__run *u;
    CHECK_EQ_U64(bspram__router_inbox_runs(r, 0, 1, &u), 1);
    CHECK_EQ_U64(u[0].count, n);
    CHECK_EQ_U64(u[0].size, 8);
    CHECK_EQ_U64(u[0].src, 0);
    uint64_t bad = 0;
    for (uint64_t k = 0; k < n; k++)
        bad += ((const uint64_t *)u[0].data)[k] != k * 3 + 1;
    CHECK_EQ_U64(bad, 0);
    bspram__router_leave(r, 0);
    const bspram_log *log = bspram__router_log(r);
    CHECK_EQ_U64(log->records[0].messages, n);
    CHECK_EQ_U64(log->records[0].bytes, 8 * n);
    CHECK_EQ_U64(log->records[0].charge, n);
    CHECK_EQ_U64(log->records[0].max_message, 8);
    bspram__router_destroy(r);
}

/* The lane's runs (bspram__router_account, bspram__router_reserve_lane):
 * every component of a lane counts cnt(s, src, d) records of 16 bytes
 * {src, k} for each destination d, and the lane reserves one run per
 * destination for all of them and fills it in component order, as
 * combining's stage does. Every inbox, read as runs, holds exactly the
 * reference's records in source order; the records count them per source
 * as a run per component would; and on a transport that builds runs itself
 * each destination gets one run per lane that reached it. While the router
 * keeps the message pattern the lane may not (bspram__router_lane_runs). */
static uint32_t merged_count(uint64_t s, uint64_t src, uint64_t d, uint64_t seed)
{
    return (uint32_t)bspram_random_below(4, seed, s, src, d); /* 0 to 3 */
}

static void merged(uint64_t p, unsigned lanes, bool pattern, uint64_t seed)
{
    bspram_router *r = bspram__router_create(p, lanes);
    bspram__router_keep_pattern(r, pattern);
    CHECK(bspram__router_lane_runs(r) == !pattern);
    if (pattern) {
        bspram__router_destroy(r);
        return;
    }
    const int runs_whole = r->transport->build_runs != NULL;
    const uint64_t supersteps = 3;
    uint64_t wrong = 0, runs_seen = 0, pairs = 0, lane_pairs = 0;
#pragma omp parallel num_threads((int)lanes) reduction(+ : wrong, runs_seen, pairs, lane_pairs)
    {
        unsigned lane = (unsigned)omp_get_thread_num();
        uint64_t first = bspram__router_lane_first(r, lane), end = bspram__router_lane_first(r, lane + 1);
        uint32_t *dst = malloc(p * sizeof *dst), *count = calloc(p, sizeof *count);
        char **cursor = malloc(p * sizeof *cursor);
        for (uint64_t s = 0; s < supersteps; s++) {
            size_t n = 0;
            for (uint64_t src = first; src < end; src++) {
                uint64_t mine = 0;
                for (uint64_t d = 0; d < p; d++) {
                    uint32_t c = merged_count(s, src, d, seed);
                    if (c && count[d] == 0)
                        dst[n++] = (uint32_t)d;
                    count[d] += c;
                    mine += c;
                    pairs += c != 0;
                }
                bspram__router_account(r, lane, src, mine, 16, "test");
            }
            lane_pairs += n;
            bspram__router_reserve_lane(r, lane, 16, n, dst, count, cursor, "test");
            for (uint64_t src = first; src < end; src++)
                for (size_t i = 0; i < n; i++)
                    for (uint32_t k = 0; k < merged_count(s, src, dst[i], seed); k++) {
                        uint64_t rec[2] = {src, k};
                        memcpy(cursor[dst[i]], rec, 16);
                        cursor[dst[i]] += 16;
                    }
            bspram__router_exchange(r, lane, 0);
            for (uint64_t d = first; d < end; d++) {
                const bspram__run *u;
                size_t nr = bspram__router_inbox_runs(r, lane, d, &u);
                runs_seen += nr;
                uint64_t src = 0, k = 0;
                for (size_t i = 0; i < nr; i++)
                    for (uint64_t j = 0; j < u[i].count; j++) {
                        while (src < p && k == merged_count(s, src, d, seed))
                            src++, k = 0;
                        uint64_t rec[2];
                        memcpy(rec, (const char *)u[i].data + 16 * j, 16);
                        wrong += u[i].size != 16 || src == p || rec[0] != src || rec[1] != k;
                        k++;
                    }
                while (src < p && k == merged_count(s, src, d, seed))
                    src++, k = 0;
                wrong += src != p; /* records missing */
            }
        }
        bspram__router_leave(r, lane);
        free(dst);
        free(count);
        free(cursor);
    }
    CHECK_EQ_U64(wrong, 0);
    if (runs_whole)
        CHECK_EQ_U64(runs_seen, lane_pairs);
    if (runs_whole && lanes < p)
        CHECK(runs_seen < pairs);
    const bspram_log *log = bspram__router_log(r);
    for (uint64_t s = 0; s < supersteps && s < log->n; s++) {
        uint64_t messages = 0, q = 0, rmax = 0;
        for (uint64_t src = 0; src < p; src++) {
            uint64_t qs = 0;
            for (uint64_t d = 0; d < p; d++)
                qs += merged_count(s, src, d, seed);
            messages += qs;
            q = qs > q ? qs : q;
        }
        for (uint64_t d = 0; d < p; d++) {
            uint64_t rd = 0;
            for (uint64_t src = 0; src < p; src++)
                rd += merged_count(s, src, d, seed);
            rmax = rd > rmax ? rd : rmax;
        }
        CHECK_EQ_U64(log->records[s].messages, messages);
        CHECK_EQ_U64(log->records[s].bytes, 16 * messages);
        CHECK_EQ_U64(log->records[s].q, q);
        CHECK_EQ_U64(log->records[s].r, rmax);
        CHECK_EQ_U64(log->records[s].max_message, messages ? 16 : 0);
    }
    bspram__router_destroy(r);
}

/* The channel's errors: one line naming the call and the values. */
typedef struct bad_run {
    uint64_t dst, count;
    uint32_t size;
} bad_run;

static void reserve_bad(void *arg)
{
    const bad_run *b = arg;
    bspram_router *r = bspram__router_create(4, 1);
    bspram__router_reserve(r, 0, 0, b->dst, b->size, b->count, "my_call");
}

int main(void)
{
    const uint64_t ps[] = {1, 5, 64, 300};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (unsigned lanes = 1; lanes <= 3; lanes++) {
            router_rounds(ps[i], lanes, 4, 7 + i, 0, post_all, check_inbox, ACTIONS, action_of);
            /* every superstep through the windows after the first */
            router_rounds(ps[i], lanes, 4, 9 + i, 1, post_all, check_inbox, ACTIONS, action_of);
        }
    /* A lane per component (BSPlib's processes), up to BSPRAM__MAIL_LANES of
     * them: on shared memory a small outbox goes by mail, a larger one as
     * the others do, both in one superstep (shm_transport.c). */
    for (unsigned p = 2; p <= BSPRAM__MAIL_LANES + 1; p += p < 5 ? 1 : 12) {
        router_rounds(p, p, 6, 21 + p, 0, post_all, check_inbox, ACTIONS, action_of);
        router_rounds(p, p, 6, 23 + p, 1, post_all, check_inbox, ACTIONS, action_of);
    }
    long_run();
    for (unsigned lanes = 1; lanes <= 3; lanes++)
        for (int pattern = 0; pattern <= 1; pattern++) {
            merged(5, lanes, pattern, 11);
            merged(64, lanes, pattern, 13);
        }
    check_death("size 12", reserve_bad, &(bad_run){1, 1, 12},
                "my_call(dst=1, size=12, count=1): a run holds 1 to 2^53 records of 8 to 512 bytes", 1, 60);
    check_death("count 0", reserve_bad, &(bad_run){1, 0, 16},
                "my_call(dst=1, size=16, count=0): a run holds", 1, 60);
    check_death("size 520", reserve_bad, &(bad_run){1, 2, 520},
                "my_call(dst=1, size=520, count=2): a run holds", 1, 60);
    check_death("dst 4", reserve_bad, &(bad_run){4, 1, 16},
                "my_call(dst=4): destination outside [0, 4)", 1, 60);
    return check_report("test_router_channel");
}
