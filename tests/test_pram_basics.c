/* The PRAM's small parts (pram/pram.h): model names and their parsing, the
 * default config, the host map, arrays and host access, registers, how
 * phases make steps, the statistics and the per-step trace (CSV and JSON),
 * and the machine's log kept small in long runs while BSPRAM_TRACE still
 * receives every superstep. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pram/pram.h"

static void names(void)
{
    const char *want[] = {"EREW", "CREW", "CRCW-common", "CRCW-arbitrary", "CRCW-priority", "CRCW-combining"};
    for (int m = 0; m < 6; m++) {
        CHECK(strcmp(bspram_pram_model_name((bspram_pram_model)m), want[m]) == 0);
        CHECK(bspram_pram_model_parse(want[m], NULL) == m);
    }
    CHECK(bspram_pram_model_name((bspram_pram_model)6) == NULL);
    CHECK(bspram_pram_model_name((bspram_pram_model)-1) == NULL);
    CHECK(bspram_pram_model_parse("erew", NULL) == BSPRAM_EREW);
    CHECK(bspram_pram_model_parse("crcw_priority", NULL) == BSPRAM_CRCW_PRIORITY);
    CHECK(bspram_pram_model_parse("Crcw-Common", NULL) == BSPRAM_CRCW_COMMON);
    unsigned op = 99;
    CHECK(bspram_pram_model_parse("crcw-combining", &op) == BSPRAM_CRCW_COMBINING);
    CHECK_EQ_U64(op, 99); /* no operation named: *op unchanged */
    CHECK(bspram_pram_model_parse("crcw-combining:max:u64", &op) == BSPRAM_CRCW_COMBINING);
    CHECK_EQ_U64(op, bspram_op_builtin(BSPRAM_OP_MAX, BSPRAM_TYPE_U64));
    CHECK(bspram_pram_model_parse("CRCW_COMBINING:XOR", &op) == BSPRAM_CRCW_COMBINING);
    CHECK_EQ_U64(op, bspram_op_builtin(BSPRAM_OP_XOR, BSPRAM_TYPE_I64));
    CHECK(bspram_pram_model_parse("crcw-combining:", &op) == -1);
    CHECK(bspram_pram_model_parse("crcw-combining:avg", &op) == -1);
    CHECK(bspram_pram_model_parse("crew:sum", &op) == -1);
    CHECK(bspram_pram_model_parse("crcw", NULL) == -1);
    CHECK(bspram_pram_model_parse("", NULL) == -1);
    CHECK(bspram_pram_model_parse("erewx", NULL) == -1);
    /* A NULL name is refused in one line: test_null_errors. */
}

static void config_and_host(void)
{
    bspram_pram_config c = bspram_pram_config_default(100000, BSPRAM_CREW);
    CHECK_EQ_U64(c.n, 100000);
    CHECK_EQ_U64(c.p, 4096);
    CHECK(c.threads >= 1);
    CHECK(c.model == BSPRAM_CREW);
    CHECK_EQ_U64(c.op, bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_I64));
    CHECK_EQ_U64(c.registers, 4);
    CHECK(!c.report);
    CHECK_EQ_U64(c.seed, 0);
    CHECK(c.combine.strategy == BSPRAM_STRATEGY_AUTO);
    CHECK_EQ_U64(bspram_pram_config_default(10, BSPRAM_EREW).p, 10);

    c = bspram_pram_config_default(10, BSPRAM_CRCW_ARBITRARY);
    c.p = 4;
    c.threads = 2;
    bspram_pram *P = bspram_pram_create(&c);
    CHECK_EQ_U64(bspram_pram_n(P), 10);
    CHECK_EQ_U64(bspram_pram_p(P), 4);
    CHECK(bspram_pram_model_of(P) == BSPRAM_CRCW_ARBITRARY);
    /* ceil(10/4) = 3: VPs 0-2 on 0, 3-5 on 1, 6-8 on 2, 9 on 3 */
    const uint64_t host[10] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3};
    for (uint64_t i = 0; i < 10; i++)
        CHECK_EQ_U64(bspram_pram_host(P, i), host[i]);
    CHECK_EQ_U64(bspram_machine_p(bspram_pram_machine(P)), 4);
    CHECK_EQ_U64(bspram_machine_threads(bspram_pram_machine(P)), 2);
    CHECK_EQ_U64(bspram_combiner_op_count(bspram_pram_combiner(P)), BSPRAM_BUILTIN_OPS);
    bspram_pram_stats s = bspram_pram_stats_of(P);
    CHECK_EQ_U64(s.steps, 0);
    CHECK(s.slowdown == 0.0);
    size_t nt = 99;
    bspram_pram_trace(P, &nt);
    CHECK_EQ_U64(nt, 0);
    bspram_pram_destroy(P);
    bspram_pram_destroy(NULL);
}

static void arrays(void)
{
    bspram_pram_config c = bspram_pram_config_default(8, BSPRAM_CREW);
    c.threads = 2;
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_array A = bspram_pram_alloc(P, "A", 10);
    bspram_pram_array B = bspram_pram_alloc(P, "a-long-name-of-twenty", 5);
    CHECK(A != B);
    CHECK_EQ_U64(bspram_pram_cells(P, A), 10);
    CHECK_EQ_U64(bspram_pram_cells(P, B), 5);
    CHECK(bspram_pram_cell(P, A, 3) != bspram_pram_cell(P, B, 3));
    CHECK(bspram_pram_cell(P, A, 3) != BSPRAM_PRAM_NONE);
    uint64_t v[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, w[10] = {0};
    bspram_pram_load(P, A, v, 4); /* cells [0, 4) only */
    bspram_pram_store(P, A, w, 10);
    CHECK(w[0] == 1 && w[3] == 4 && w[4] == 0 && w[9] == 0);
    bspram_pram_load(P, A, NULL, 0);
    /* a freed array's number is reused, its cells zero again */
    bspram_pram_load(P, B, v, 5);
    bspram_pram_free(P, B);
    bspram_pram_array C = bspram_pram_alloc(P, NULL, 5);
    CHECK_EQ_U64(C, B);
    bspram_pram_store(P, C, w, 5);
    CHECK(w[0] == 0 && w[4] == 0);
    bspram_pram_destroy(P);
}

/* Registers: config.registers words per VP, zero at create, kept across
 * steps; NULL with 0 registers. */
static void count_reg(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t *r = bspram_vp_registers(vp);
    CHECK(r != NULL);
    r[0] += 1;
    r[2] += bspram_vp_id(vp);
    CHECK_EQ_U64(bspram_vp_n(vp), 40);
}

static void check_reg(bspram_vp *vp, void *arg)
{
    uint64_t *r = bspram_vp_registers(vp);
    const uint64_t steps = *(const uint64_t *)arg;
    CHECK_EQ_U64(r[0], steps);
    CHECK_EQ_U64(r[1], 0);
    CHECK_EQ_U64(r[2], steps * bspram_vp_id(vp));
}

static void no_reg(bspram_vp *vp, void *arg)
{
    (void)arg;
    CHECK(bspram_vp_registers(vp) == NULL);
}

static void registers(void)
{
    bspram_pram_config c = bspram_pram_config_default(40, BSPRAM_EREW);
    c.p = 6;
    c.threads = 4;
    c.registers = 3;
    bspram_pram *P = bspram_pram_create(&c);
    for (int i = 0; i < 3; i++)
        bspram_pram_step(P, count_reg, NULL, NULL);
    bspram_pram_step(P, NULL, count_reg, NULL);
    uint64_t steps = 4;
    bspram_pram_step(P, check_reg, check_reg, &steps);
    CHECK_EQ_U64(bspram_pram_stats_of(P).steps, 5);
    bspram_pram_destroy(P);
    c.registers = 0;
    P = bspram_pram_create(&c);
    bspram_pram_step(P, no_reg, no_reg, NULL);
    bspram_pram_destroy(P);
}

/* Which phases make a step (pram.h). */
static void read_one(bspram_vp *vp, void *arg)
{
    bspram_vp_read(vp, *(bspram_pram_array *)arg, bspram_vp_id(vp));
}

static void steps(void)
{
    bspram_pram_config c = bspram_pram_config_default(8, BSPRAM_CRCW_COMBINING);
    c.p = 2;
    c.threads = 2;
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_array A = bspram_pram_alloc(P, "A", 8);
    uint64_t cells[8], vals[8], out[8];
    for (uint64_t i = 0; i < 8; i++) {
        cells[i] = bspram_pram_cell(P, A, i);
        vals[i] = i;
    }
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_I64);
    bspram_pram_gather(P, 1, cells, out);                 /* 1 (reads only) */
    bspram_pram_gather(P, 1, cells, out);                 /* 2 */
    bspram_pram_scatter(P, 1, cells, vals);               /*   its writes */
    bspram_pram_scatter(P, 1, cells, vals);               /* 3 (writes only) */
    bspram_pram_scatter_reduce(P, 1, cells, vals, sum);   /* 4 */
    bspram_pram_gather(P, 1, cells, out);                 /* 5 */
    bspram_pram_fetch_op(P, 1, cells, vals, sum, out);    /*   its writes */
    bspram_pram_step(P, read_one, NULL, &A);              /* 6 (a per-VP step is whole) */
    bspram_pram_scatter(P, 1, cells, vals);               /* 7 */
    bspram_pram_step(P, NULL, NULL, NULL);                /* 8 (nothing, no cost) */
    bspram_pram_gather(P, 1, cells, out);                 /* 9 */
    bspram_pram_step(P, read_one, NULL, &A);              /* 10 */
    size_t n;
    const bspram_pram_step_record *t = bspram_pram_trace(P, &n);
    CHECK_EQ_U64(n, 10);
    const uint64_t reads[10] = {8, 8, 0, 0, 8, 8, 0, 0, 8, 8}, writes[10] = {0, 8, 8, 8, 8, 0, 8, 0, 0, 0};
    uint64_t ss = 0, charge = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U64(t[i].step, i + 1);
        CHECK_EQ_U64(t[i].reads, reads[i]);
        CHECK_EQ_U64(t[i].writes, writes[i]);
        CHECK_EQ_U64(t[i].violations, 0);
        ss += t[i].supersteps;
        charge += t[i].charge;
    }
    CHECK_EQ_U64(t[7].supersteps, 0);
    CHECK(t[0].supersteps > 0 && t[0].charge > 0);
    /* a gather runs forward and reverse supersteps, a scatter forward only */
    CHECK_EQ_U64(t[2].supersteps * 2, t[0].supersteps);
    bspram_pram_stats s = bspram_pram_stats_of(P);
    CHECK_EQ_U64(s.steps, 10);
    CHECK_EQ_U64(s.work, 8 * 11);
    CHECK_EQ_U64(s.supersteps, ss);
    CHECK_EQ_U64(s.charge, charge);
    CHECK(s.slowdown == (double)charge / (10.0 * 4.0));
    /* the records are the machine's: the same sums */
    size_t nr;
    const bspram_record *r = bspram_machine_records(bspram_pram_machine(P), &nr);
    CHECK_EQ_U64(nr, ss);
    CHECK_EQ_U64(bspram_records_total(r, nr).charge, charge);

    /* the trace as CSV and JSON */
    char csv[] = "/tmp/test_pram_basics_XXXXXX.csv", json[] = "/tmp/test_pram_basics_XXXXXX.json";
    close(mkstemps(csv, 4));
    close(mkstemps(json, 5));
    CHECK(bspram_pram_write_trace(P, csv) == 0);
    CHECK(bspram_pram_write_trace(P, json) == 0);
    char buf[4096];
    FILE *f = fopen(csv, "r");
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = 0;
    fclose(f);
    char want[4096];
    int w = snprintf(want, sizeof want, "step,reads,writes,violations,supersteps,charge\n");
    for (size_t i = 0; i < n; i++)
        w += snprintf(want + w, sizeof want - (size_t)w, "%zu,%" PRIu64 ",%" PRIu64 ",0,%" PRIu64 ",%" PRIu64 "\n",
                      i + 1, t[i].reads, t[i].writes, t[i].supersteps, t[i].charge);
    CHECK(strcmp(buf, want) == 0);
    f = fopen(json, "r");
    len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = 0;
    fclose(f);
    w = snprintf(want, sizeof want, "[");
    for (size_t i = 0; i < n; i++)
        w += snprintf(want + w, sizeof want - (size_t)w,
                      "%s\n{\"step\":%zu,\"reads\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"violations\":0,"
                      "\"supersteps\":%" PRIu64 ",\"charge\":%" PRIu64 "}",
                      i ? "," : "", i + 1, t[i].reads, t[i].writes, t[i].supersteps, t[i].charge);
    snprintf(want + w, sizeof want - (size_t)w, "\n]\n");
    CHECK(strcmp(buf, want) == 0);
    remove(csv);
    remove(json);
    errno = 0;
    CHECK(bspram_pram_write_trace(P, "/nonexistent-dir/trace.csv") == -1);
    CHECK(errno == ENOENT);
    bspram_pram_destroy(P);
}

/* A long run: the machine's log stays small, the per-step trace complete,
 * and BSPRAM_TRACE receives every superstep. */
static void long_run(void)
{
    char path[] = "/tmp/test_pram_basics_XXXXXX.csv";
    close(mkstemps(path, 4));
    setenv("BSPRAM_TRACE", path, 1);
    bspram_pram_config c = bspram_pram_config_default(16, BSPRAM_CRCW_PRIORITY);
    c.p = 4;
    c.threads = 2;
    c.combine.degree_hint = 1; /* one phase: 3 supersteps a step */
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_array A = bspram_pram_alloc(P, "A", 16);
    uint64_t cells[16], vals[16], out[16];
    for (uint64_t i = 0; i < 16; i++)
        cells[i] = bspram_pram_cell(P, A, (i * 5) % 16);
    const int steps = 1500; /* 4500 supersteps: the log is cleared once */
    for (int st = 0; st < steps; st++) {
        bspram_pram_gather(P, 1, cells, out);
        for (uint64_t i = 0; i < 16; i++)
            vals[i] = out[i] + i;
        bspram_pram_scatter(P, 1, cells, vals);
        size_t nr;
        bspram_machine_records(bspram_pram_machine(P), &nr);
        CHECK(nr <= 4096);
    }
    bspram_pram_stats s = bspram_pram_stats_of(P);
    CHECK_EQ_U64(s.steps, steps);
    CHECK_EQ_U64(s.supersteps, 3 * steps);
    size_t n;
    bspram_pram_trace(P, &n);
    CHECK_EQ_U64(n, steps);
    uint64_t mem[16];
    bspram_pram_store(P, A, mem, 16);
    bool ok = true; /* each cell gains its VP's id per step */
    for (uint64_t i = 0; i < 16; i++)
        ok &= mem[(i * 5) % 16] == steps * i;
    CHECK(ok);
    bspram_pram_destroy(P);
    unsetenv("BSPRAM_TRACE");
    FILE *f = fopen(path, "r");
    uint64_t rows = 0;
    int ch;
    while (f && (ch = fgetc(f)) != EOF)
        rows += ch == '\n';
    if (f)
        fclose(f);
    CHECK_EQ_U64(rows, 1 + 3 * (uint64_t)steps); /* the header, then every superstep */
    remove(path);
}

int main(void)
{
    names();
    config_and_host();
    arrays();
    registers();
    steps();
    long_run();
    return check_report("test_pram_basics");
}
