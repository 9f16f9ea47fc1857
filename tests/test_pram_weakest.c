/* The weakest model a run needed (bspram_pram_stats_of: weakest,
 * weakest_step), step by step against what each step does by construction:
 * exclusive accesses and a VP's own repeats need EREW; two VPs reading one
 * cell CREW; two writing one value CRCW-common; two values CRCW-arbitrary;
 * combining updates CRCW-combining. The same in every model that runs the
 * steps (report mode where they are violations), for bulk, per-VP and
 * textbook steps, and for T = 1, 2, 4. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "pram/pram.h"

enum { N = 64 };

typedef struct run {
    bspram_pram *P;
    bspram_pram_array A, B;
    uint64_t cells[2 * N], vals[2 * N], out[2 * N];
} run;

static void make(run *r, bspram_pram_model model, int threads)
{
    bspram_pram_config c = bspram_pram_config_default(N, model);
    c.p = 8;
    c.threads = threads;
    c.report = model < BSPRAM_CRCW_ARBITRARY; /* EREW, CREW, common: violations counted, not fatal */
    c.seed = 3;
    r->P = bspram_pram_create(&c);
    r->A = bspram_pram_alloc(r->P, "A", N);
    r->B = bspram_pram_alloc(r->P, "B", N);
}

/* k = 1: VP i at a[i], value 100 + i, but for the VPs listed (index `at`). */
static void slots(run *r, bspram_pram_array a, const uint64_t *vps, size_t nv, uint64_t at, const uint64_t *vals)
{
    for (uint64_t i = 0; i < N; i++) {
        r->cells[i] = bspram_pram_cell(r->P, a, i);
        r->vals[i] = 100 + i;
    }
    for (size_t j = 0; j < nv; j++) {
        r->cells[vps[j]] = bspram_pram_cell(r->P, a, at);
        r->vals[vps[j]] = vals ? vals[j] : 7;
    }
}

static void expect(const run *r, bspram_pram_model weakest, uint64_t step, const char *what)
{
    bspram_pram_stats s = bspram_pram_stats_of(r->P);
    if (s.weakest != weakest || s.weakest_step != step)
        fprintf(stderr, "%s (model %s): weakest %s from step %" PRIu64 ", want %s from step %" PRIu64 "\n", what,
                bspram_pram_model_name(bspram_pram_model_of(r->P)), bspram_pram_model_name(s.weakest),
                s.weakest_step, bspram_pram_model_name(weakest), step);
    CHECK(s.weakest == weakest);
    CHECK_EQ_U64(s.weakest_step, step);
}

/* ---- bulk steps ---- */

static void bulk_story(bspram_pram_model model, int threads)
{
    run r;
    make(&r, model, threads);
    const bool combining = model == BSPRAM_CRCW_COMBINING;
    /* step 1: exclusive reads and writes */
    slots(&r, r.A, NULL, 0, 0, NULL);
    bspram_pram_gather(r.P, 1, r.cells, r.out);
    bspram_pram_scatter(r.P, 1, r.cells, r.vals);
    expect(&r, BSPRAM_EREW, 0, "exclusive");
    /* step 2: each VP reads its own cell twice, writes it twice with one value */
    for (uint64_t i = 0; i < N; i++) {
        r.cells[2 * i] = r.cells[2 * i + 1] = bspram_pram_cell(r.P, r.B, i);
        r.vals[2 * i] = r.vals[2 * i + 1] = i;
    }
    bspram_pram_gather(r.P, 2, r.cells, r.out);
    if (!combining) /* (a combining write adds: two of one VP are two updates) */
        bspram_pram_scatter(r.P, 2, r.cells, r.vals);
    expect(&r, BSPRAM_EREW, 0, "a VP's own repeats");
    /* step 3: VPs 3 and 60 (on different components) read A[5] */
    const uint64_t two[] = {3, 60}, many[] = {0, 9, 17, 33, 63};
    slots(&r, r.A, two, 2, 5, NULL);
    bspram_pram_gather(r.P, 1, r.cells, r.out);
    expect(&r, BSPRAM_CREW, 3, "two VPs read one cell");
    CHECK_EQ_U64(r.out[3], 105);
    CHECK_EQ_U64(r.out[60], 105);
    /* step 3's write phase (a scatter after a gather is its step's): five
     * VPs write 7 to B[9] (VP 9's own cell among them) */
    slots(&r, r.B, many, 5, 9, NULL);
    bspram_pram_scatter(r.P, 1, r.cells, r.vals);
    if (combining) { /* a combining write's meeting is a combination */
        expect(&r, BSPRAM_CRCW_COMBINING, 3, "combining writes");
        bspram_pram_destroy(r.P);
        return;
    }
    expect(&r, BSPRAM_CRCW_COMMON, 3, "one value written by five VPs");
    /* step 4 (writes only): VPs 3 and 60 write 1 and 2 to B[5] */
    const uint64_t v12[] = {1, 2};
    slots(&r, r.B, two, 2, 5, v12);
    bspram_pram_scatter(r.P, 1, r.cells, r.vals);
    expect(&r, BSPRAM_CRCW_ARBITRARY, 4, "two values");
    /* step 5: exclusive again: the weakest stays, from step 4 */
    slots(&r, r.A, NULL, 0, 0, NULL);
    bspram_pram_gather(r.P, 1, r.cells, r.out);
    expect(&r, BSPRAM_CRCW_ARBITRARY, 4, "later exclusive step");
    bspram_pram_destroy(r.P);
}

static void combining_story(int threads)
{
    run r;
    make(&r, BSPRAM_CRCW_COMBINING, threads);
    unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    /* step 1: fetch-and-add by every VP to its own cell: one update each */
    slots(&r, r.A, NULL, 0, 0, NULL);
    bspram_pram_fetch_op(r.P, 1, r.cells, r.vals, sum, r.out);
    expect(&r, BSPRAM_EREW, 0, "exclusive fetch-and-add");
    /* step 2: two VPs add to A[5] */
    const uint64_t two[] = {3, 60};
    slots(&r, r.A, two, 2, 5, NULL);
    bspram_pram_scatter_reduce(r.P, 1, r.cells, r.vals, sum);
    expect(&r, BSPRAM_CRCW_COMBINING, 2, "two updates of one cell");
    bspram_pram_destroy(r.P);
}

/* ---- per-VP and textbook steps: VP 3 and VP 60 read A[5] in step 2 ---- */

typedef struct vp_story {
    bspram_pram_array A, B;
    int step;
} vp_story;

static uint64_t target(const vp_story *s, uint64_t i) { return s->step == 2 && (i == 3 || i == 60) ? 5 : i; }

static void read_cb(bspram_vp *vp, void *arg)
{
    const vp_story *s = arg;
    bspram_vp_read(vp, s->A, target(s, bspram_vp_id(vp)));
}

static void write_cb(bspram_vp *vp, void *arg)
{
    const vp_story *s = arg;
    uint64_t i = bspram_vp_id(vp);
    /* step 3: every VP writes 1 to B[0] */
    bspram_vp_write(vp, s->B, s->step == 3 ? 0 : i, s->step == 3 ? 1 : bspram_vp_value(vp, 0));
}

static void body(bspram_vp *vp, void *arg)
{
    const vp_story *s = arg;
    uint64_t i = bspram_vp_id(vp);
    uint64_t x = bspram_vp_get(vp, s->A, target(s, i));
    bspram_vp_write(vp, s->B, s->step == 3 ? 0 : i, s->step == 3 ? 1 : x);
}

static void vp_steps(bool textbook, int threads)
{
    run r;
    make(&r, BSPRAM_CREW, threads); /* report mode: step 3's writes are counted */
    vp_story s = {r.A, r.B, 0};
    for (s.step = 1; s.step <= 3; s.step++) {
        if (textbook)
            bspram_pram_for_all(r.P, body, &s);
        else
            bspram_pram_step(r.P, read_cb, write_cb, &s);
        expect(&r, s.step == 1 ? BSPRAM_EREW : s.step == 2 ? BSPRAM_CREW : BSPRAM_CRCW_COMMON,
               s.step == 1 ? 0 : (uint64_t)s.step, textbook ? "textbook" : "per VP");
    }
    bspram_pram_destroy(r.P);
}

int main(void)
{
    for (int t = 1; t <= 4; t *= 2) {
        for (int m = BSPRAM_EREW; m <= BSPRAM_CRCW_COMBINING; m++)
            bulk_story((bspram_pram_model)m, t);
        combining_story(t);
        vp_steps(false, t);
        vp_steps(true, t);
    }
    return check_report("test_pram_weakest");
}
