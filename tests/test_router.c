/* The router through the bulk machine: random patterns against a sequential
 * reference, for many p and T; records against statistics computed here. */
#include <stdatomic.h>
#include <stdbool.h>

#include "check.h"
#include "pattern.h"
#include "bsp/machine_internal.h"
#include "router/router_internal.h" /* white box: where windows start (heavy patterns) */

typedef struct run {
    pattern pt;
    uint64_t supersteps;
    expected *exp;          /* [supersteps] */
    atomic_ullong wrong;    /* inboxes that differ from the reference */
    atomic_ullong checked;
} run;

static bool step(bspram_component *c, void *arg)
{
    run *r = arg;
    uint64_t s = bspram_superstep(c), pid = bspram_pid(c);
    if (s > 0) {
        const bspram_message *in;
        size_t n = bspram_inbox(c, &in);
        if (!inbox_matches(&r->exp[s - 1], s - 1, pid, in, n))
            atomic_fetch_add(&r->wrong, 1);
        atomic_fetch_add(&r->checked, 1);
    }
    if (s == r->supersteps)
        return false;
    pattern_send(c, &r->pt, s, pid);
    return true;
}

/* windows_from: bytes a lane must post in a superstep before it posts
 * through its write-combining windows (0: the router's default, a share of
 * the last-level cache), so that tests of a few MiB reach them. */
static void run_pattern_windows(const char *what, pattern pt, int threads, uint64_t supersteps,
                                uint64_t windows_from);

static void run_pattern(const char *what, pattern pt, int threads, uint64_t supersteps)
{
    run_pattern_windows(what, pt, threads, supersteps, 0);
}

static void run_pattern_windows(const char *what, pattern pt, int threads, uint64_t supersteps,
                                uint64_t windows_from)
{
    run r = {.pt = pt, .supersteps = supersteps};
    r.exp = calloc(supersteps, sizeof *r.exp);
    for (uint64_t s = 0; s < supersteps; s++)
        expected_build(&r.exp[s], &pt, s);
    bspram_config cfg = bspram_config_default(pt.p);
    cfg.threads = threads;
    bspram_machine *m = bspram_machine_create(&cfg);
    if (windows_from)
        bspram__bsp_machine_router(m)->windows_from = windows_from;
    uint64_t ran = bspram_machine_run(m, step, &r, 0);
    CHECK_EQ_U64(ran, supersteps + 1);
    CHECK_EQ_U64(atomic_load(&r.wrong), 0);
    CHECK_EQ_U64(atomic_load(&r.checked), supersteps * pt.p);
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    CHECK_EQ_U64(n, supersteps + 1);
    for (uint64_t s = 0; s < supersteps && s < n; s++) {
        const expected *e = &r.exp[s];
        CHECK_EQ_U64(rec[s].superstep, s);
        CHECK_EQ_U64(rec[s].messages, e->messages);
        CHECK_EQ_U64(rec[s].bytes, e->bytes);
        CHECK_EQ_U64(rec[s].q, e->q);
        CHECK_EQ_U64(rec[s].r, e->r);
        CHECK_EQ_U64(rec[s].charge, e->q > e->r ? e->q : e->r);
        CHECK_EQ_U64(rec[s].h_bytes, e->h_bytes);
        CHECK_EQ_U64(rec[s].max_message, e->max_message);
    }
    if (n == supersteps + 1) /* the last superstep sends nothing */
        CHECK(rec[supersteps].messages == 0 && rec[supersteps].charge == 0);
    if (check_failures)
        fprintf(stderr, "  (in %s: p=%llu T=%d)\n", what, (unsigned long long)pt.p, threads);
    bspram_machine_destroy(m);
    for (uint64_t s = 0; s < supersteps; s++)
        expected_free(&r.exp[s]);
    free(r.exp);
}

/* Large payloads: component 0 sends a few MiB-sized messages to others. */
static bool big_step(bspram_component *c, void *arg)
{
    int *bad = arg;
    uint64_t pid = bspram_pid(c), p = bspram_nprocs(c);
    if (bspram_superstep(c) == 0) {
        if (pid == 0)
            for (uint64_t d = 0; d < p; d++) {
                uint64_t len = (3u << 20) + d;
                unsigned char *b = bspram_send_buffer(c, d, len);
                pattern_fill(b, len, 0, 0, d);
            }
        return true;
    }
    const bspram_message *in;
    size_t n = bspram_inbox(c, &in);
    if (n != 1 || in[0].len != (3u << 20) + pid)
        __atomic_add_fetch(bad, 1, __ATOMIC_RELAXED);
    else
        for (uint64_t i = 0; i < in[0].len; i += 4093)
            if (((const unsigned char *)in[0].data)[i] != pattern_byte(0, 0, pid, i))
                __atomic_add_fetch(bad, 1, __ATOMIC_RELAXED);
    return false;
}

int main(void)
{
    static const uint64_t ps[] = {1, 2, 3, 7, 64, 4096, 65536};
    static const int ts[] = {1, 2, 4};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (size_t t = 0; t < sizeof ts / sizeof ts[0]; t++) {
            pattern pt = {.seed = 42 + i, .p = ps[i], .max_per_component = ps[i] >= 4096 ? 6 : 40,
                          .max_len = ps[i] >= 4096 ? 24 : 300};
            run_pattern("random", pt, ts[t], ps[i] >= 4096 ? 2 : 4);
        }
    /* Heavy supersteps: every lane posts well over 1 MiB, so (windows from
     * 1 MiB) from the second superstep on it posts through its write-combining
     * windows (p ≤ 8192; router_internal.h); lengths up to 600 bytes mix
     * entries that fit a window with ones that go straight to the chunk.
     * p = 9000 has none. */
    for (size_t t = 0; t < 3; t++) {
        run_pattern_windows("heavy", (pattern){.seed = 12, .p = 128, .max_per_component = 400, .max_len = 600}, ts[t], 4, 1u << 20);
        run_pattern_windows("heavy, small", (pattern){.seed = 13, .p = 4096, .max_per_component = 60, .max_len = 100}, ts[t], 3, 1u << 20);
    }
    run_pattern_windows("heavy, no windows", (pattern){.seed = 14, .p = 9000, .max_per_component = 60, .max_len = 100}, 2, 3, 1u << 20);
    /* All-to-one fan-in, zero-byte messages only, and no messages at all. */
    for (size_t t = 0; t < 3; t++) {
        run_pattern("fan-in", (pattern){.seed = 7, .p = 1000, .max_per_component = 5, .max_len = 16, .fan_in = 1}, ts[t], 3);
        run_pattern("zero-byte", (pattern){.seed = 8, .p = 300, .max_per_component = 9, .max_len = 0}, ts[t], 3);
        run_pattern("empty", (pattern){.seed = 9, .p = 100, .max_per_component = 0, .max_len = 8}, ts[t], 3);
    }
    /* p = 2^20 components, sparse traffic. */
    run_pattern("p = 2^20", (pattern){.seed = 11, .p = 1u << 20, .max_per_component = 2, .max_len = 8}, 2, 2);
    /* More lanes than components. */
    run_pattern("T > p", (pattern){.seed = 10, .p = 3, .max_per_component = 8, .max_len = 40}, 5, 3);
    /* Large payloads: 3 MiB each. */
    for (size_t t = 0; t < 2; t++) {
        int bad = 0;
        bspram_config cfg = bspram_config_default(5);
        cfg.threads = ts[t];
        bspram_machine *m = bspram_machine_create(&cfg);
        bspram_machine_run(m, big_step, &bad, 0);
        size_t n;
        const bspram_record *rec = bspram_machine_records(m, &n);
        CHECK_EQ_U64(bad, 0);
        CHECK_EQ_U64(rec[0].max_message, (3u << 20) + 4);
        CHECK_EQ_U64(rec[0].h_bytes, 5 * (3u << 20) + 10); /* component 0 sends them all */
        CHECK_EQ_U64(rec[0].q, 5);
        CHECK_EQ_U64(rec[0].r, 1);
        bspram_machine_destroy(m);
    }
    return check_report("test_router");
}
