/* Same seed ⇒ same results and records for any thread count and either
 * transport: the random program of tests/shared_program.h (every species,
 * messages, steps with and without batches) at T = 1, 2, 4 — and at T = 3
 * on the other transport — gives identical answers (fetch-and-op prefixes
 * included), memory, inboxes and records (every column but the seconds). */
#include <stdio.h>

#include "shared_program.h"

typedef struct outcome {
    uint64_t digest;          /* every answer, in (step, component, index) order, and the memory */
    bspram_record *rec;
    size_t nrec;
} outcome;

static uint64_t mix(uint64_t h, uint64_t v) { return bspram_random2(h, v, 0x6d6978); }

static outcome run(const sp_config *cfg)
{
    sp_world w;
    sp_create(&w, cfg);
    CHECK_EQ_U64(bspram_shared_run(w.sh, sp_step, &w, 0), cfg->steps);
    sp_check_end(&w);
    outcome o = {0, NULL, 0};
    for (uint64_t s = 0; s < cfg->steps; s++)
        for (uint64_t c = 0; c < cfg->p; c++)
            for (uint64_t j = 0; j < sp_count(&w, s, c); j++)
                o.digest = mix(o.digest, w.got[s][c][j]);
    for (uint64_t g = 0; g < sp_cells_total(&w); g++) {
        unsigned i = sp_seg_of(&w, g);
        o.digest = mix(o.digest, bspram_load(w.s, bspram_address(w.s, w.seg[i], g - w.base[i])));
    }
    const bspram_record *rec = bspram_machine_records(w.m, &o.nrec);
    o.rec = malloc(o.nrec * sizeof *o.rec);
    memcpy(o.rec, rec, o.nrec * sizeof *rec);
    sp_destroy(&w);
    return o;
}

static int same_records(const bspram_record *a, const bspram_record *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].superstep != b[i].superstep || strcmp(a[i].label, b[i].label) ||
            a[i].messages != b[i].messages || a[i].bytes != b[i].bytes || a[i].q != b[i].q ||
            a[i].r != b[i].r || a[i].charge != b[i].charge || a[i].h_bytes != b[i].h_bytes ||
            a[i].max_message != b[i].max_message || a[i].work != b[i].work)
            return 0;
    return 1;
}

static void compare(const outcome *a, const outcome *b, const char *what)
{
    CHECK_EQ_U64(a->digest, b->digest);
    CHECK_EQ_U64(a->nrec, b->nrec);
    int same = a->nrec == b->nrec && same_records(a->rec, b->rec, a->nrec);
    CHECK(same);
    if (a->digest != b->digest || !same)
        fprintf(stderr, "differs: %s\n", what);
}

int main(void)
{
    static const struct { uint64_t p; sp_options o; } cases[] = {
        {32, SP_OPTIONS_AUTO}, {64, SP_OPTIONS_FIXED}, {24, SP_OPTIONS_ADAPTIVE}, {5, SP_OPTIONS_AUTO}};
    const char *env = getenv("BSPRAM_TRANSPORT");
    const char *other = env && !strcmp(env, "staged") ? "shm" : "staged";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sp_config cfg = {.p = cases[i].p, .threads = 1, .seed = 40 + i, .steps = 14, .max_req = 12,
                         .options = cases[i].o};
        outcome base = run(&cfg);
        CHECK(base.nrec > cfg.steps); /* batches ran */
        for (int threads = 2; threads <= 4; threads *= 2) {
            cfg.threads = threads;
            outcome o = run(&cfg);
            compare(&base, &o, "threads");
            free(o.rec);
        }
        /* The other transport (BSPRAM_TRANSPORT is read at each machine's creation). */
        setenv("BSPRAM_TRANSPORT", other, 1);
        cfg.threads = 3;
        outcome o = run(&cfg);
        compare(&base, &o, other);
        free(o.rec);
        if (env)
            setenv("BSPRAM_TRANSPORT", env, 1);
        else
            unsetenv("BSPRAM_TRANSPORT");
        /* A different seed gives different answers (the digest sees them). */
        cfg.seed += 1000;
        cfg.threads = 1;
        o = run(&cfg);
        CHECK(o.digest != base.digest);
        free(o.rec);
        free(base.rec);
    }
    return check_report("test_shared_determinism");
}
