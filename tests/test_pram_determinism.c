/* Same config, seed included ⇒ the same results, statistics, trace and
 * report for T = 1, 2 and 4 (pram/pram.h): a mixed program of bulk and
 * per-VP steps under every model, in report mode so that violations are
 * part of what is compared. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hash/random.h"
#include "pram/pram.h"

enum { N = 3000, P_ = 96, M = 700 };

typedef struct run {
    uint64_t reads[4][4 * N];   /* answers of the gathers / fetch-and-op */
    uint64_t mem[M];
    bspram_pram_stats stats;
    bspram_pram_step_record trace[16];
    size_t ntrace;
    char report[8192];
    char trace_csv[8192];
} run;

typedef struct prog {
    bspram_pram_array A;
    uint64_t step;
} prog;

static void vp_read(bspram_vp *vp, void *arg)
{
    const prog *g = arg;
    uint64_t i = bspram_vp_id(vp);
    bspram_vp_read(vp, g->A, bspram_random2(g->step, 1, i) % M);
}

static void vp_write(bspram_vp *vp, void *arg)
{
    const prog *g = arg;
    uint64_t i = bspram_vp_id(vp);
    uint64_t *r = bspram_vp_registers(vp);
    r[1] += bspram_vp_value(vp, 0);
    if (i % 3)
        bspram_vp_write(vp, g->A, bspram_random2(g->step, 2, i) % M, r[1] + i);
}

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
}

static void program(bspram_pram_model model, int threads, run *out)
{
    bspram_pram_config c = bspram_pram_config_default(N, model);
    c.p = P_;
    c.threads = threads;
    c.seed = 42;
    c.report = true;
    bspram_pram *P = bspram_pram_create(&c);
    prog g = {bspram_pram_alloc(P, "A", M), 0};
    uint64_t *cells = malloc(2 * N * sizeof *cells), *vals = malloc(2 * N * sizeof *vals);
    uint64_t init[M];
    for (uint64_t t = 0; t < M; t++)
        init[t] = t;
    bspram_pram_load(P, g.A, init, M);
    for (uint64_t st = 0; st < 4; st++) {
        for (uint64_t s = 0; s < 2 * N; s++) {
            uint64_t x = bspram_random2(7, st, s);
            cells[s] = x % 5 == 0 ? BSPRAM_PRAM_NONE : bspram_pram_cell(P, g.A, x % M);
            vals[s] = model == BSPRAM_CRCW_COMMON ? x % M : x >> 40;
        }
        bspram_pram_gather(P, 2, cells, out->reads[st]);
        if (model == BSPRAM_CRCW_COMBINING && st % 2)
            bspram_pram_fetch_op(P, 2, cells, vals, bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64),
                                 out->reads[st] + 2 * N);
        else
            bspram_pram_scatter(P, 2, cells, vals);
        g.step = st;
        bspram_pram_step(P, vp_read, vp_write, &g);
    }
    bspram_pram_store(P, g.A, out->mem, M);
    out->stats = bspram_pram_stats_of(P);
    const bspram_pram_step_record *tr = bspram_pram_trace(P, &out->ntrace);
    memcpy(out->trace, tr, out->ntrace * sizeof *tr);
    FILE *f = fmemopen(out->report, sizeof out->report, "w");
    bspram_pram_report(P, f);
    fclose(f);
    char path[] = "/tmp/test_pram_determinism_XXXXXX.csv";
    int fd = mkstemps(path, 4);
    CHECK(fd >= 0);
    CHECK(bspram_pram_write_trace(P, path) == 0);
    slurp(path, out->trace_csv, sizeof out->trace_csv);
    remove(path);
    free(cells);
    free(vals);
    bspram_pram_destroy(P);
}

int main(void)
{
    static run base, other;
    for (int model = BSPRAM_EREW; model <= BSPRAM_CRCW_COMBINING; model++) {
        memset(&base, 0, sizeof base);
        program((bspram_pram_model)model, 1, &base);
        CHECK_EQ_U64(base.stats.steps, 8);
        if (model <= BSPRAM_CRCW_COMMON)
            CHECK(base.stats.violations > 0); /* random accesses break the exclusive rules */
        for (int t = 2; t <= 4; t *= 2) {
            memset(&other, 0, sizeof other);
            program((bspram_pram_model)model, t, &other);
            CHECK(memcmp(base.reads, other.reads, sizeof base.reads) == 0);
            CHECK(memcmp(base.mem, other.mem, sizeof base.mem) == 0);
            CHECK(memcmp(&base.stats, &other.stats, sizeof base.stats) == 0);
            CHECK_EQ_U64(base.ntrace, other.ntrace);
            CHECK(memcmp(base.trace, other.trace, sizeof base.trace) == 0);
            CHECK(strcmp(base.report, other.report) == 0);
            CHECK(strcmp(base.trace_csv, other.trace_csv) == 0);
            if (strcmp(base.report, other.report) != 0)
                fprintf(stderr, "T=1:\n%s\nT=%d:\n%s\n", base.report, t, other.report);
        }
    }
    return check_report("test_pram_determinism");
}
