/* Textbook steps (bspram_pram_for_all): one body per VP that reads,
 * computes and writes, with the PRAM's synchronous semantics — checked
 * against sequential references; the same memory, statistics and trace as
 * the step written as two callbacks, for T = 1, 2, 4; the VP's registers
 * kept across the body's first run; phases without requests cost no
 * superstep; and the errors (a read that depends on a value read in the same
 * step, a read more or fewer once the values are known, the two styles'
 * calls mixed), each naming the least VP for any T. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "hash/random.h"
#include "pram/pram.h"

enum { N = 1000, P_ = 37 };

static bspram_pram *make(bspram_pram_model model, uint64_t n, uint64_t p, int threads)
{
    bspram_pram_config c = bspram_pram_config_default(n, model);
    c.p = p;
    c.threads = threads;
    c.seed = 11;
    return bspram_pram_create(&c);
}

/* ---- Hillis–Steele prefix sums: for d = 1, 2, 4, …: for all i in
 * parallel: if i ≥ d then A[i] ← A[i] + A[i − d] ---- */

typedef struct scan {
    bspram_pram_array A;
    uint64_t d;
} scan;

static void scan_body(bspram_vp *vp, void *arg)
{
    const scan *s = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i < s->d)
        return;
    uint64_t x = bspram_vp_get(vp, s->A, i), y = bspram_vp_get(vp, s->A, i - s->d);
    bspram_vp_write(vp, s->A, i, x + y);
}

static void scan_read(bspram_vp *vp, void *arg)
{
    const scan *s = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i < s->d)
        return;
    bspram_vp_read(vp, s->A, i);
    bspram_vp_read(vp, s->A, i - s->d);
}

static void scan_write(bspram_vp *vp, void *arg)
{
    const scan *s = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i >= s->d)
        bspram_vp_write(vp, s->A, i, bspram_vp_value(vp, 0) + bspram_vp_value(vp, 1));
}

/* The scan in one style; its statistics and trace in *st, *tr (malloc). */
static void run_scan(bool textbook, int threads, bspram_pram_stats *st, bspram_pram_step_record **tr, size_t *ntr)
{
    bspram_pram *P = make(BSPRAM_CREW, N, P_, threads);
    scan s = {bspram_pram_alloc(P, "A", N), 0};
    uint64_t *a = malloc(N * sizeof *a), *ref = malloc(N * sizeof *ref);
    for (uint64_t i = 0; i < N; i++)
        a[i] = bspram_random2(5, i, 0) % 1000;
    bspram_pram_load(P, s.A, a, N);
    for (uint64_t i = 0, acc = 0; i < N; i++)
        ref[i] = acc += a[i];
    for (s.d = 1; s.d < N; s.d *= 2) {
        if (textbook)
            bspram_pram_for_all(P, scan_body, &s);
        else
            bspram_pram_step(P, scan_read, scan_write, &s);
    }
    bspram_pram_store(P, s.A, a, N);
    CHECK(memcmp(a, ref, N * sizeof *a) == 0);
    *st = bspram_pram_stats_of(P);
    const bspram_pram_step_record *r = bspram_pram_trace(P, ntr);
    *tr = malloc(*ntr * sizeof **tr);
    memcpy(*tr, r, *ntr * sizeof **tr);
    free(a);
    free(ref);
    bspram_pram_destroy(P);
}

static void same_as_callbacks(void)
{
    bspram_pram_stats ref;
    bspram_pram_step_record *reftr;
    size_t refn;
    run_scan(false, 1, &ref, &reftr, &refn);
    CHECK_EQ_U64(ref.steps, 10); /* ceil(log2 1000) */
    for (int t = 1; t <= 4; t *= 2) {
        bspram_pram_stats st;
        bspram_pram_step_record *tr;
        size_t n;
        run_scan(true, t, &st, &tr, &n);
        CHECK_EQ_U64(st.steps, ref.steps);
        CHECK_EQ_U64(st.work, ref.work);
        CHECK_EQ_U64(st.supersteps, ref.supersteps);
        CHECK_EQ_U64(st.charge, ref.charge);
        CHECK(st.weakest == BSPRAM_CREW && ref.weakest == BSPRAM_CREW);
        CHECK_EQ_U64(n, refn);
        CHECK(n == refn && memcmp(tr, reftr, n * sizeof *tr) == 0);
        free(tr);
    }
    free(reftr);
}

/* ---- synchronous semantics: neighbours swap in one step ---- */

static void swap_body(bspram_vp *vp, void *arg)
{
    const bspram_pram_array *A = arg;
    uint64_t i = bspram_vp_id(vp);
    bspram_vp_write(vp, *A, i, bspram_vp_get(vp, *A, i ^ 1));
}

/* ---- registers: r0 ← 2·r0 + A[i], three times; the first run's change
 * to r0 (with A[i] read as 0) must not stay ---- */

static void reg_body(bspram_vp *vp, void *arg)
{
    const bspram_pram_array *A = arg;
    uint64_t *r = bspram_vp_registers(vp);
    r[0] = 2 * r[0] + bspram_vp_get(vp, *A, bspram_vp_id(vp));
}

static void init_body(bspram_vp *vp, void *arg)
{
    const bspram_pram_array *A = arg;
    bspram_vp_write(vp, *A, bspram_vp_id(vp), 3 * bspram_vp_id(vp) + 1);
}

static void reg_out_body(bspram_vp *vp, void *arg)
{
    const bspram_pram_array *R = arg;
    bspram_vp_write(vp, *R, bspram_vp_id(vp), bspram_vp_registers(vp)[0]);
}

static void idle_body(bspram_vp *vp, void *arg)
{
    (void)vp;
    (void)arg;
}

static void semantics(int threads)
{
    const uint64_t n = 64;
    bspram_pram *P = make(BSPRAM_EREW, n, 8, threads);
    bspram_pram_array A = bspram_pram_alloc(P, "A", n);
    /* a step without reads: the write batch only, as a bulk scatter */
    bspram_pram_for_all(P, init_body, &A);
    bspram_pram_stats s1 = bspram_pram_stats_of(P);
    CHECK_EQ_U64(s1.steps, 1);
    CHECK_EQ_U64(s1.work, n);
    bspram_pram *Q = make(BSPRAM_EREW, n, 8, threads);
    bspram_pram_array QA = bspram_pram_alloc(Q, "A", n);
    uint64_t cells[64], vals[64], a[64];
    for (uint64_t i = 0; i < n; i++) {
        cells[i] = bspram_pram_cell(Q, QA, i);
        vals[i] = 3 * i + 1;
    }
    bspram_pram_scatter(Q, 1, cells, vals);
    CHECK_EQ_U64(bspram_pram_stats_of(Q).supersteps, s1.supersteps);
    CHECK_EQ_U64(bspram_pram_stats_of(Q).charge, s1.charge);
    bspram_pram_destroy(Q);
    /* a step without requests: one unit of time, no superstep */
    bspram_pram_for_all(P, idle_body, NULL);
    CHECK_EQ_U64(bspram_pram_stats_of(P).steps, 2);
    CHECK_EQ_U64(bspram_pram_stats_of(P).supersteps, s1.supersteps);
    /* swap */
    bspram_pram_for_all(P, swap_body, &A);
    bspram_pram_store(P, A, a, n);
    bool ok = true;
    for (uint64_t i = 0; i < n; i++)
        ok &= a[i] == 3 * (i ^ 1) + 1;
    CHECK(ok);
    /* registers: r0 = 7·A[i] after three steps from 0, written out by a
     * fourth */
    for (int k = 0; k < 3; k++)
        bspram_pram_for_all(P, reg_body, &A);
    bspram_pram_array R = bspram_pram_alloc(P, "R", n);
    bspram_pram_for_all(P, reg_out_body, &R);
    bspram_pram_store(P, R, a, n);
    ok = true;
    for (uint64_t i = 0; i < n; i++)
        ok &= a[i] == 7 * (3 * (i ^ 1) + 1);
    CHECK(ok);
    bspram_pram_stats s = bspram_pram_stats_of(P);
    CHECK(s.weakest == BSPRAM_EREW);
    CHECK_EQ_U64(s.steps, 7);
    bspram_pram_destroy(P);
}

/* ---- errors ---- */

typedef struct misuse {
    int what;
    int threads;
    bspram_pram_array S, B;
    int model;  /* CREW unless set (model + 1: 0 is CREW) */
    bool report;
} misuse;

/* S[20] = 7 and S[50] = 9, the other cells 0: VPs 20 and 50 (on the two
 * lanes of T = 2) misuse; VPs below 20 are slow, so that VP 50's lane meets
 * its misuse first in time — the line must name VP 20 all the same. */
static void misuse_body(bspram_vp *vp, void *arg)
{
    const misuse *m = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i < 20)
        usleep(2000);
    uint64_t s = bspram_vp_get(vp, m->S, i);
    switch (m->what) {
    case 0: bspram_vp_get(vp, m->S, s); break;          /* pointer jumping in one step */
    case 1: if (s == 0) bspram_vp_get(vp, m->B, i); break; /* a read fewer once S[i] is known */
    case 2: if (s != 0) bspram_vp_get(vp, m->B, i); break; /* a read more */
    case 3: if (s != 0) bspram_vp_read(vp, m->B, i); break;
    case 4: if (s != 0) bspram_vp_value(vp, 0); break;
    default: if (i >= 20) bspram_vp_get(vp, m->B, s - 7); break; /* S[i] − 7: out of range in the first run */
    }
}

static void misuse_run(void *arg)
{
    misuse *m = arg;
    bspram_pram_config c = bspram_pram_config_default(64, m->model ? (bspram_pram_model)(m->model - 1) : BSPRAM_CREW);
    c.p = 8;
    c.threads = m->threads;
    c.seed = 11;
    c.report = m->report;
    bspram_pram *P = bspram_pram_create(&c);
    m->S = bspram_pram_alloc(P, "S", 64);
    m->B = bspram_pram_alloc(P, "B", 64);
    uint64_t s[64] = {0};
    s[20] = 7;
    s[50] = 9;
    bspram_pram_load(P, m->S, s, 64);
    bspram_pram_for_all(P, misuse_body, m);
}

static void get_in_callback_cb(bspram_vp *vp, void *arg)
{
    const misuse *m = arg;
    if (bspram_vp_id(vp) == 5)
        bspram_vp_get(vp, m->S, 0);
}

static void get_in_callback(void *arg)
{
    misuse *m = arg;
    bspram_pram *P = make(BSPRAM_CREW, 64, 8, 2);
    m->S = bspram_pram_alloc(P, "S", 64);
    bspram_pram_step(P, get_in_callback_cb, NULL, m);
}

static void body_null(void *arg)
{
    (void)arg;
    bspram_pram_for_all(make(BSPRAM_CREW, 4, 2, 1), NULL, NULL);
}

static void errors(void)
{
    const char *tail = " before its values were known; the cells a VP reads in a step may not depend on what it "
                       "reads in that step (read it in the next step)\n";
    char want[6][400];
    snprintf(want[0], sizeof want[0], "bspram: bspram_vp_get(array=S, index=7): VP 20's read number 1 in step 1 "
             "was S[0]%s", tail);
    snprintf(want[1], sizeof want[1], "bspram: bspram_vp_get: VP 20 read 1 cells in step 1 once its values were "
             "known, 2 before; the cells a VP reads in a step may not depend on what it reads in that step (read "
             "it in the next step)\n");
    snprintf(want[2], sizeof want[2], "bspram: bspram_vp_get(array=B, index=20): VP 20 read 1 cells in step 1%s",
             tail);
    snprintf(want[3], sizeof want[3], "bspram: bspram_vp_read: called in the body of bspram_pram_for_all (VP 20, "
             "step 1); a body reads with bspram_vp_get\n");
    snprintf(want[4], sizeof want[4], "bspram: bspram_vp_value: called in the body of bspram_pram_for_all (VP 20, "
             "step 1); a body reads with bspram_vp_get\n");
    snprintf(want[5], sizeof want[5], "bspram: bspram_vp_get(array=B, index=18446744073709551609): index out of "
             "range [0, 64) (VP 20, step 1); in the body's first run every bspram_vp_get answers 0: a cell "
             "computed from a value read in this step is read in the next step\n");
    for (int what = 0; what < 6; what++)
        for (int t = 1; t <= 2; t++) {
            misuse m = {what, t, 0, 0, 0, false};
            check_death(want[what], misuse_run, &m, want[what], 1, 60);
        }
    /* The same line in every model and mode: the first run's gets answer 0,
     * so under EREW the VPs' reads of S[0] (case 0) or B[0] met in the read
     * batch and were reported as an EREW violation on that cell, before the
     * second run found the real error. */
    for (int model = BSPRAM_EREW; model <= BSPRAM_CRCW_COMBINING; model++)
        for (int what = 0; what < 6; what += 5)
            for (int report = 0; report < 2; report++) {
                misuse m = {what, 2, 0, 0, model + 1, report};
                check_death(want[what], misuse_run, &m, want[what], 1, 60);
            }
    misuse m = {0, 2, 0, 0, 0, false};
    check_death("get in a callback", get_in_callback, &m,
                "bspram: bspram_vp_get: called in a callback of bspram_pram_step (VP 5, step 1); callbacks read "
                "with bspram_vp_read\n", 1, 60);
    check_death("body NULL", body_null, NULL,
                "bspram: bspram_pram_for_all(body=NULL): body must not be NULL\n", 1, 60);
}

int main(void)
{
    errors(); /* death tests first, before this process starts OpenMP */
    same_as_callbacks();
    for (int t = 1; t <= 4; t *= 2)
        semantics(t);
    return check_report("test_pram_textbook");
}
