/* The message pattern (bspram_machine_keep_pattern): per superstep and pair
 * of components the messages, bytes and largest message, equal to a
 * sequential reference built from the random pattern alone; the same for
 * T = 1, 2, 5; records identical with and without it; index-aligned with
 * the log when turned on and off between runs; BSPlib puts counted as the
 * records count them (8 + n, by reference too); BSPRAM_PATTERN=1 and the
 * trace's flows column. The loads kept with it: each component's declared
 * work exactly (its own, whatever lane runs it), the record's w their
 * maximum, a time >= 0 each; none while the pattern is off; appending loads
 * out of turn is one error line. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <bsp.h>

#include "check.h"
#include "pattern.h"

#define STEPS 4

static bool send_step(bspram_component *c, void *arg)
{
    const pattern *pt = arg;
    uint64_t s = bspram_superstep(c) % STEPS;
    if (bspram_superstep(c) >= STEPS)
        return false;
    bspram_work(c, bspram_pid(c) * 7 + s + 1);
    pattern_send(c, pt, s, bspram_pid(c));
    return true;
}

/* The reference flows of superstep s: every (src, dst) pair in order. */
static size_t reference_flows(const pattern *pt, uint64_t s, bspram_flow *out)
{
    size_t n = 0;
    for (uint64_t src = 0; src < pt->p; src++) {
        size_t first = n;
        uint64_t k = pattern_count(pt, s, src);
        for (uint64_t j = 0; j < k; j++) {
            uint64_t d = pattern_dst(pt, s, src, j), len = pattern_len(pt, s, src, j);
            size_t f = first;
            while (f < n && out[f].dst != d)
                f++;
            if (f == n)
                out[n++] = (bspram_flow){.src = src, .dst = d};
            out[f].messages++;
            out[f].bytes += len;
            if (len > out[f].largest)
                out[f].largest = len;
        }
        for (size_t a = first + 1; a < n; a++) /* sort this source's pairs by destination */
            for (size_t b = a; b > first && out[b - 1].dst > out[b].dst; b--) {
                bspram_flow t = out[b];
                out[b] = out[b - 1];
                out[b - 1] = t;
            }
    }
    return n;
}

static void check_flows(const bspram_flow *got, size_t n, const bspram_flow *want, size_t nw,
                        const bspram_record *rec)
{
    CHECK_EQ_U64(n, nw);
    uint64_t bytes = 0, messages = 0;
    for (size_t i = 0; i < n && i < nw; i++) {
        CHECK_EQ_U64(got[i].src, want[i].src);
        CHECK_EQ_U64(got[i].dst, want[i].dst);
        CHECK_EQ_U64(got[i].messages, want[i].messages);
        CHECK_EQ_U64(got[i].bytes, want[i].bytes);
        CHECK_EQ_U64(got[i].largest, want[i].largest);
        bytes += got[i].bytes;
        messages += got[i].messages;
    }
    CHECK_EQ_U64(bytes, rec->bytes);
    CHECK_EQ_U64(messages, rec->messages);
}

/* Seconds on the monotonic clock. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Record i's loads: component c declared c*7 + s + 1 in step s < STEPS
 * (send_step), nothing after; its seconds a time measured inside the runs
 * begun at `since` (no bound of the wall clock's: a loaded machine may
 * take any time). */
static void check_loads(const bspram_pattern *pat, size_t i, uint64_t s, uint64_t p,
                        const bspram_record *rec, double since)
{
    const double elapsed = now() - since;
    const bspram_process_load *ld;
    size_t n;
    CHECK(bspram_pattern_loads(pat, i, &ld, &n));
    CHECK_EQ_U64(n, p);
    uint64_t most = 0;
    for (size_t c = 0; c < n && c < p; c++) {
        CHECK_EQ_U64(ld[c].work, s < STEPS ? c * 7 + s + 1 : 0);
        CHECK(ld[c].seconds >= 0 && ld[c].seconds <= elapsed);
        most = ld[c].work > most ? ld[c].work : most;
    }
    CHECK_EQ_U64(most, rec->work);
}

static void append_loads_out_of_turn(void *arg)
{
    (void)arg;
    bspram_pattern pat = {0};
    bspram_pattern_append(&pat, 3, 0);
    bspram_pattern_append_loads(&pat, 2, 4);
}

static int same_record(const bspram_record *a, const bspram_record *b)
{
    return a->superstep == b->superstep && !strcmp(a->label, b->label) &&
           a->messages == b->messages && a->bytes == b->bytes && a->q == b->q && a->r == b->r &&
           a->charge == b->charge && a->h_bytes == b->h_bytes &&
           a->max_message == b->max_message && a->work == b->work;
}

static void bulk(int threads, uint64_t p)
{
    pattern pt = {.seed = 11, .p = p, .max_per_component = 9, .max_len = 40};
    bspram_flow *want = malloc(p * 10 * sizeof *want);
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    bspram_machine *plain = bspram_machine_create(&cfg), *kept = bspram_machine_create(&cfg);
    const double since = now();
    bspram_machine_run(plain, send_step, &pt, 0);
    bspram_machine_keep_pattern(kept, true);
    bspram_machine_run(kept, send_step, &pt, 0);
    size_t n0, n1;
    const bspram_record *r0 = bspram_machine_records(plain, &n0);
    const bspram_record *r1 = bspram_machine_records(kept, &n1);
    const bspram_pattern *pat = bspram_machine_pattern(kept);
    CHECK_EQ_U64(n0, n1);
    for (size_t i = 0; i < n0 && i < n1; i++) {
        CHECK(same_record(&r0[i], &r1[i])); /* keeping the pattern changes no record */
        const bspram_flow *f;
        size_t nf;
        CHECK(bspram_pattern_get(pat, i, &f, &nf));
        size_t nw = i < STEPS ? reference_flows(&pt, i, want) : 0;
        check_flows(f, nf, want, nw, &r1[i]);
        check_loads(pat, i, i, p, &r1[i], since);
        const bspram_flow *none;
        CHECK(!bspram_pattern_get(bspram_machine_pattern(plain), i, &none, &nf) && nf == 0);
        const bspram_process_load *no_loads;
        CHECK(!bspram_pattern_loads(bspram_machine_pattern(plain), i, &no_loads, &nf) && nf == 0);
    }

    /* Off for one run, on again: the pattern stays aligned with the log. */
    bspram_machine_keep_pattern(kept, false);
    bspram_machine_run(kept, send_step, &pt, 0);
    size_t off_end;
    bspram_machine_records(kept, &off_end);
    bspram_machine_keep_pattern(kept, true);
    bspram_machine_run(kept, send_step, &pt, 0);
    size_t n2;
    const bspram_record *r2 = bspram_machine_records(kept, &n2);
    pat = bspram_machine_pattern(kept);
    for (size_t i = n1; i < n2; i++) {
        const bspram_flow *f;
        size_t nf;
        int was_kept = bspram_pattern_get(pat, i, &f, &nf);
        CHECK_EQ_U64(was_kept, i >= off_end);
        const bspram_process_load *ld;
        CHECK_EQ_U64(bspram_pattern_loads(pat, i, &ld, &nf), i >= off_end);
        if (was_kept) {
            uint64_t s = r2[i].superstep % STEPS; /* the step function repeats its pattern */
            size_t nw = r2[i].messages ? reference_flows(&pt, s, want) : 0;
            bspram_pattern_get(pat, i, &f, &nf);
            check_flows(f, nf, want, nw, &r2[i]);
            check_loads(pat, i, r2[i].superstep, p, &r2[i], since); /* no work past STEPS */
        }
    }
    /* Cleared with the records. */
    bspram_machine_clear_records(kept);
    const bspram_flow *f;
    size_t nf;
    CHECK(!bspram_pattern_get(bspram_machine_pattern(kept), 0, &f, &nf));
    bspram_machine_destroy(plain);
    bspram_machine_destroy(kept);
    free(want);
}

/* BSPlib puts through the pattern: each is one message of 8 + n bytes, an
 * unbuffered bsp_hpput of ≥ 4096 bytes too (stored by reference). */
static char big[3][8192];

static void spmd(void)
{
    bsp_begin(3);
    bsp_push_reg(big[bsp_pid()], sizeof big[0]);
    bsp_sync();
    char src[8192] = {0};
    unsigned me = bsp_pid();
    bsp_put((me + 1) % 3, src, big[me], 0, 10 + me);
    bsp_put((me + 1) % 3, src, big[me], 100, 3);
    bsp_sync();
    if (me == 0)
        bsp_hpput(2, src, big[0], 0, 5000);
    bsp_sync();
    bsp_end();
}

static void check_bsplib_trace(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[4096];
    int puts_row = 0, hpput_row = 0;
    while (fgets(line, sizeof line, f)) {
        /* the flows column, src:dst:messages:bytes:largest, before the loads */
        if (strstr(line, ",0:1:2:29:18 1:2:2:30:19 2:0:2:31:20,"))
            puts_row = 1;
        if (strstr(line, ",0:2:1:5008:5008,"))
            hpput_row = 1;
    }
    fclose(f);
    CHECK(puts_row);
    CHECK(hpput_row);
}

int main(void)
{
    bulk(1, 7);
    bulk(2, 7);
    bulk(5, 7);
    bulk(3, 300);
    check_death("append_loads out of turn", append_loads_out_of_turn, NULL,
                "bspram: bspram_pattern_append_loads(record=2): the pattern's last record is 3", 1, 30);

    char path[64];
    snprintf(path, sizeof path, "/tmp/bspram-test-pattern-%d.csv", (int)getpid());
    setenv("BSPRAM_TRACE", path, 1);
    setenv("BSPRAM_PATTERN", "1", 1);
    bsp_init(spmd, 0, NULL);
    spmd();
    unsetenv("BSPRAM_TRACE");
    unsetenv("BSPRAM_PATTERN");
    check_bsplib_trace(path);
    remove(path);
    return check_report("test_router_pattern");
}
