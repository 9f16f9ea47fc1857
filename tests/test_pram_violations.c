/* Violations of the exclusive and common rules (pram/pram.h): in fatal mode
 * one line naming the model, the step, the two least VPs and the cell, exit
 * status 1 (death tests, bulk and per-VP); in report mode the counts per
 * step, the first BSPRAM_PRAM_REPORT_KEEP lines in full, and the run going
 * on under the arbitrary rule. A VP's own repeated access to a cell is no
 * violation. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hash/random.h"
#include "pram/pram.h"

enum { N = 64, P_ = 8 }; /* 8 VPs per component */

typedef struct scene {
    bspram_pram *P;
    bspram_pram_array A, B;
    uint64_t cells[2 * N], vals[2 * N], out[2 * N];
    uint64_t b3; /* B[3] after step 2 */
} scene;

static void scene_make(scene *s, bspram_pram_model model, bool report, int threads)
{
    bspram_pram_config c = bspram_pram_config_default(N, model);
    c.p = P_;
    c.threads = threads;
    c.report = report;
    c.seed = 1;
    s->P = bspram_pram_create(&c);
    s->A = bspram_pram_alloc(s->P, "A", N);
    s->B = bspram_pram_alloc(s->P, "B", N);
    uint64_t v[N];
    for (uint64_t i = 0; i < N; i++)
        v[i] = 100 + i;
    bspram_pram_load(s->P, s->A, v, N);
}

/* The accesses whose call sites the violation lines name (pram.h): each
 * line's number is the enum's before it. */
enum { GATHER_LINE = __LINE__ + 1 };
static void gather(scene *s, uint64_t k) { bspram_pram_gather(s->P, k, s->cells, s->out); }
enum { SCATTER_LINE = __LINE__ + 1 };
static void scatter(scene *s, uint64_t k) { bspram_pram_scatter(s->P, k, s->cells, s->vals); }
enum { VP_READ_LINE = __LINE__ + 1 };
static void vp_read_B(bspram_vp *vp, const scene *s, uint64_t j) { bspram_vp_read(vp, s->B, j); }
enum { VP_WRITE_LINE = __LINE__ + 1 };
static void vp_write_A(bspram_vp *vp, const scene *s, uint64_t j, uint64_t v) { bspram_vp_write(vp, s->A, j, v); }

/* "at test_pram_violations.c:42" */
static const char *at(unsigned line)
{
    static char buf[4][64];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "at test_pram_violations.c:%u", line);
    return b;
}

/* VP i reads (or writes) A[i]: exclusive. */
static void identity(scene *s, bspram_pram_array a)
{
    for (uint64_t i = 0; i < N; i++) {
        s->cells[i] = bspram_pram_cell(s->P, a, i);
        s->vals[i] = 1000 + i;
    }
}

static void clean_step(scene *s)
{
    identity(s, s->A);
    gather(s, 1);
    scatter(s, 1);
}

/* VPs 17, 40 and 50 read A[5], VPs 60 and 61 read A[60]; VP 5 reads A[17]. */
static void conflicting_reads(scene *s)
{
    identity(s, s->A);
    s->cells[5] = bspram_pram_cell(s->P, s->A, 17);
    s->cells[17] = s->cells[40] = s->cells[50] = bspram_pram_cell(s->P, s->A, 5);
    s->cells[61] = bspram_pram_cell(s->P, s->A, 60);
}

/* ---- fatal mode (death tests: first, before this process starts OpenMP) ---- */

static void erew_read(void *arg)
{
    (void)arg;
    scene s;
    scene_make(&s, BSPRAM_EREW, false, 2);
    clean_step(&s);
    conflicting_reads(&s);
    gather(&s, 1);
}

static void erew_write(void *arg)
{
    (void)arg;
    scene s;
    scene_make(&s, BSPRAM_EREW, false, 2);
    clean_step(&s);
    identity(&s, s.A);
    gather(&s, 1); /* step 2's reads: clean */
    identity(&s, s.B);
    s.cells[17] = s.cells[40] = s.cells[55] = bspram_pram_cell(s.P, s.A, 5);
    scatter(&s, 1);
}

static void crew_write(void *arg)
{
    (void)arg;
    scene s;
    scene_make(&s, BSPRAM_CREW, false, 2);
    for (uint64_t i = 0; i < N; i++)
        s.cells[i] = bspram_pram_cell(s.P, s.A, 0); /* concurrent reads: allowed */
    gather(&s, 1);
    identity(&s, s.B);
    s.cells[40] = s.cells[17] = bspram_pram_cell(s.P, s.B, 17);
    scatter(&s, 1);
}

static void common_write(void *arg)
{
    (void)arg;
    scene s;
    scene_make(&s, BSPRAM_CRCW_COMMON, false, 2);
    for (uint64_t i = 0; i < N; i++) {
        s.cells[i] = bspram_pram_cell(s.P, s.A, 60); /* all write 9: allowed */
        s.vals[i] = 9;
    }
    s.cells[17] = s.cells[40] = bspram_pram_cell(s.P, s.A, 5);
    s.vals[17] = 1;
    s.vals[40] = 2;
    scatter(&s, 1);
}

static void vp_read_hot(bspram_vp *vp, void *arg)
{
    const scene *s = arg;
    uint64_t i = bspram_vp_id(vp);
    vp_read_B(vp, s, i == 17 || i == 40 || i == 50 ? 5 : i == 5 ? 17 : i);
}

static void erew_read_vp(void *arg)
{
    (void)arg;
    scene s;
    scene_make(&s, BSPRAM_EREW, false, 2);
    clean_step(&s);
    bspram_pram_step(s.P, NULL, NULL, NULL); /* step 2: nothing */
    bspram_pram_step(s.P, vp_read_hot, NULL, &s);
}

static void vp_write_hot(bspram_vp *vp, void *arg)
{
    const scene *s = arg;
    uint64_t i = bspram_vp_id(vp);
    vp_write_A(vp, s, i == 33 || i == 63 ? 2 : (i + 3) % N, i == 63);
}

static void common_write_vp(void *arg)
{
    (void)arg;
    scene s;
    scene_make(&s, BSPRAM_CRCW_COMMON, false, 2);
    bspram_pram_step(s.P, NULL, vp_write_hot, &s);
}

/* VP 17 writes A[5] on one line, VP 40 on another: the line names both. */
enum { WRITE_HERE_LINE = __LINE__ + 1 };
static void write_here(bspram_vp *vp, const scene *s) { bspram_vp_write(vp, s->A, 5, 1); }
enum { WRITE_THERE_LINE = __LINE__ + 1 };
static void write_there(bspram_vp *vp, const scene *s) { bspram_vp_write(vp, s->A, 5, 2); }

static void vp_two_sites(bspram_vp *vp, void *arg)
{
    const scene *s = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i == 17)
        write_here(vp, s);
    else if (i == 40)
        write_there(vp, s);
    else
        vp_write_A(vp, s, i == 5 ? 17 : i, 1);
}

static void two_sites(void *arg)
{
    scene s;
    scene_make(&s, BSPRAM_CREW, false, *(const int *)arg);
    bspram_pram_for_all(s.P, vp_two_sites, &s);
}

/* ---- report mode ---- */

/* The EREW scenario of the report: see the expected text in report_erew. */
static void erew_story(scene *s)
{
    /* step 1: clean */
    clean_step(s);
    /* step 2: two read conflicts, one write conflict (VPs 2 and 9 at B[3]) */
    conflicting_reads(s);
    gather(s, 1);
    identity(s, s->B);
    s->cells[2] = s->cells[9] = bspram_pram_cell(s->P, s->B, 3);
    s->cells[3] = bspram_pram_cell(s->P, s->B, 2); /* VP 3 leaves B[3] to them */
    scatter(s, 1);
    uint64_t b[N];
    bspram_pram_store(s->P, s->B, b, N);
    s->b3 = b[3];
    /* step 3: VP 3 reads A[7] twice and VP 4 writes B[9] twice: its own, no
     * violation; the other slots are exclusive */
    for (uint64_t i = 0; i < N; i++) {
        s->cells[2 * i] = bspram_pram_cell(s->P, s->A, i);
        s->cells[2 * i + 1] = BSPRAM_PRAM_NONE;
    }
    s->cells[6] = bspram_pram_cell(s->P, s->A, 7); /* VP 3: A[7] … */
    s->cells[7] = bspram_pram_cell(s->P, s->A, 7); /* … and A[7] again; A[3] unread */
    s->cells[14] = bspram_pram_cell(s->P, s->A, 3); /* VP 7 reads A[3] instead */
    gather(s, 2);
    for (uint64_t i = 0; i < N; i++) {
        s->cells[2 * i] = bspram_pram_cell(s->P, s->B, i);
        s->cells[2 * i + 1] = BSPRAM_PRAM_NONE;
        s->vals[2 * i] = s->vals[2 * i + 1] = i;
    }
    s->cells[8] = s->cells[9] = bspram_pram_cell(s->P, s->B, 9); /* VP 4, twice */
    s->cells[18] = bspram_pram_cell(s->P, s->B, 4);              /* VP 9 writes B[4] */
    scatter(s, 2);
    /* step 4: VPs 2i and 2i+1 write A[i], i < 20: twenty violations */
    for (uint64_t i = 0; i < N; i++) {
        s->cells[i] = bspram_pram_cell(s->P, s->A, i < 40 ? i / 2 : i);
        s->vals[i] = 7000 + i;
    }
    scatter(s, 1);
}

static char *report_text(const bspram_pram *P, uint64_t *count)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *count = bspram_pram_report(P, f);
    fclose(f);
    return buf;
}

static void report_erew(int threads)
{
    scene s;
    scene_make(&s, BSPRAM_EREW, true, threads);
    erew_story(&s);
    uint64_t count;
    char *text = report_text(s.P, &count);
    char want[4096];
    int w = snprintf(want, sizeof want,
                     "EREW: 23 violations in 2 steps\n"
                     "step 2: 3\n"
                     "step 4: 20\n"
                     "EREW violation in step 2 %s: VPs 17 and 40 both read cell A[5]\n"
                     "EREW violation in step 2 %s: VPs 60 and 61 both read cell A[60]\n"
                     "EREW violation in step 2 %s: VPs 2 and 9 both write cell B[3]\n",
                     at(GATHER_LINE), at(GATHER_LINE), at(SCATTER_LINE));
    for (int i = 0; i < 13; i++)
        w += snprintf(want + w, sizeof want - (size_t)w,
                      "EREW violation in step 4 %s: VPs %d and %d both write cell A[%d]\n", at(SCATTER_LINE),
                      2 * i, 2 * i + 1, i);
    snprintf(want + w, sizeof want - (size_t)w, "... and 7 more\n");
    CHECK_EQ_U64(count, 23);
    CHECK(strcmp(text, want) == 0);
    if (strcmp(text, want) != 0)
        fprintf(stderr, "report:\n%s\nwanted:\n%s\n", text, want);
    free(text);
    bspram_pram_stats st = bspram_pram_stats_of(s.P);
    CHECK_EQ_U64(st.violations, 23);
    CHECK_EQ_U64(st.steps, 4);
    size_t n;
    const bspram_pram_step_record *tr = bspram_pram_trace(s.P, &n);
    CHECK_EQ_U64(n, 4);
    CHECK_EQ_U64(tr[0].violations, 0);
    CHECK_EQ_U64(tr[1].violations, 3);
    CHECK_EQ_U64(tr[2].violations, 0);
    CHECK_EQ_U64(tr[3].violations, 20);
    CHECK_EQ_U64(tr[2].reads, N + 1);
    CHECK_EQ_U64(tr[2].writes, N + 1);
    /* the run went on: B[3] holds VP 2's or VP 9's value, A[i] (i < 20)
     * that of VP 2i or 2i+1 */
    uint64_t b[N], a[N];
    bspram_pram_store(s.P, s.B, b, N);
    bspram_pram_store(s.P, s.A, a, N);
    CHECK(s.b3 == 1002 || s.b3 == 1009);
    CHECK_EQ_U64(b[9], 4);
    bool ok = true;
    for (uint64_t i = 0; i < 20; i++)
        ok &= a[i] == 7000 + 2 * i || a[i] == 7000 + 2 * i + 1;
    CHECK(ok);
    bspram_pram_destroy(s.P);
}

static void report_other_models(void)
{
    /* CRCW-common in report mode: two cells with disagreeing writers */
    scene s;
    scene_make(&s, BSPRAM_CRCW_COMMON, true, 2);
    for (uint64_t i = 0; i < N; i++) {
        s.cells[i] = bspram_pram_cell(s.P, s.A, i < 32 ? 60 : 61);
        s.vals[i] = 9;
    }
    s.vals[40] = 4;
    scatter(&s, 1);
    uint64_t count;
    char *text = report_text(s.P, &count);
    CHECK_EQ_U64(count, 1);
    const char *want1 = "CRCW-common: 1 violation in 1 step\nstep 1: 1\n";
    CHECK(strncmp(text, want1, strlen(want1)) == 0);
    /* which two of the writers of A[61] are named depends on the combining
     * tree (pram.h); they must write different values: VP 40 and another */
    unsigned a = 0, b = 0;
    CHECK(sscanf(text + strlen(want1),
                 "CRCW-common violation in step 1 at test_pram_violations.c:%*u: VPs %u and %u write "
                 "different values to cell A[61]\n", &a, &b) == 2);
    CHECK(a >= 32 && b < N && a < b && (a == 40 || b == 40));
    free(text);
    bspram_pram_destroy(s.P);

    /* CREW: concurrent reads are fine, concurrent writes are not */
    scene_make(&s, BSPRAM_CREW, true, 1);
    for (uint64_t i = 0; i < N; i++)
        s.cells[i] = bspram_pram_cell(s.P, s.A, 0);
    gather(&s, 1);
    bool ok = true;
    for (uint64_t i = 0; i < N; i++)
        ok &= s.out[i] == 100;
    CHECK(ok);
    identity(&s, s.B);
    s.cells[63] = s.cells[62] = bspram_pram_cell(s.P, s.B, 0);
    scatter(&s, 1);
    text = report_text(s.P, &count);
    CHECK_EQ_U64(count, 1);
    char want2[160];
    snprintf(want2, sizeof want2, "CREW: 1 violation in 1 step\nstep 1: 1\n"
             "CREW violation in step 1 %s: VPs 0 and 62 both write cell B[0]\n", at(SCATTER_LINE));
    CHECK(strcmp(text, want2) == 0);
    free(text);
    bspram_pram_destroy(s.P);

    /* the CRCW models never violate; the report says so */
    scene_make(&s, BSPRAM_CRCW_ARBITRARY, true, 2);
    for (uint64_t i = 0; i < N; i++)
        s.cells[i] = bspram_pram_cell(s.P, s.A, 0);
    gather(&s, 1);
    scatter(&s, 1);
    text = report_text(s.P, &count);
    CHECK_EQ_U64(count, 0);
    CHECK(strcmp(text, "CRCW-arbitrary: no violations\n") == 0);
    free(text);
    bspram_pram_destroy(s.P);
}

/* Random phases in report mode against a reference: the violations counted
 * are the cells that two distinct VPs read (EREW), write (EREW, CREW) or
 * write with different values (CRCW-common), and each kept line names, for
 * reads and writes, the two least distinct VPs of its cell. k = 3 slots per
 * VP, so a VP often meets itself — which is no violation. */
static void random_against_reference(bspram_pram_model model, bool reads, int threads)
{
    enum { RN = 2000, RK = 3, RM = 3000 };
    bspram_pram_config c = bspram_pram_config_default(RN, model);
    c.p = 50;
    c.threads = threads;
    c.report = true;
    c.seed = 9;
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_array A = bspram_pram_alloc(P, "A", RM);
    uint64_t *cells = malloc(RN * RK * sizeof *cells), *vals = malloc(RN * RK * sizeof *vals);
    uint64_t *idx = malloc(RN * RK * sizeof *idx), *out = malloc(RN * RK * sizeof *out);
    for (uint64_t s = 0; s < RN * RK; s++) {
        uint64_t x = bspram_random2(3, model, s);
        /* mostly one-to-one, some collisions, some a VP's own repeats */
        idx[s] = x % 7 == 0 ? (x >> 8) % RM : x % 7 == 1 && s % RK ? idx[s - 1] : s % RM;
        cells[s] = x % 11 == 0 ? BSPRAM_PRAM_NONE : bspram_pram_cell(P, A, idx[s]);
        vals[s] = (x >> 20) % 3;
    }
    if (reads)
        (bspram_pram_gather)(P, RK, cells, out); /* without its macro: no site in the lines */
    else
        (bspram_pram_scatter)(P, RK, cells, vals);
    /* the reference: per cell the two least distinct VPs, and whether two values differ */
    uint64_t *v0 = malloc(RM * sizeof *v0), *v1 = malloc(RM * sizeof *v1), *val0 = malloc(RM * sizeof *val0);
    bool *differ = calloc(RM, sizeof *differ);
    for (uint64_t t = 0; t < RM; t++)
        v0[t] = v1[t] = UINT64_MAX;
    for (uint64_t s = 0; s < RN * RK; s++) {
        if (cells[s] == BSPRAM_PRAM_NONE)
            continue;
        uint64_t t = idx[s], vp = s / RK;
        if (v0[t] == UINT64_MAX) {
            v0[t] = vp;
            val0[t] = vals[s];
        } else {
            if (vp != v0[t] && v1[t] == UINT64_MAX)
                v1[t] = vp; /* VPs come in increasing order */
            differ[t] |= vals[s] != val0[t];
        }
    }
    uint64_t want = 0;
    for (uint64_t t = 0; t < RM; t++)
        want += model == BSPRAM_CRCW_COMMON ? differ[t] : v1[t] != UINT64_MAX;
    CHECK(want > 20);
    CHECK_EQ_U64(bspram_pram_stats_of(P).violations, want);
    if (model != BSPRAM_CRCW_COMMON) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        bspram_pram_report(P, f);
        fclose(f);
        /* the kept lines: the least cells, each with its two least VPs */
        const char *line = strchr(strchr(buf, '\n') + 1, '\n') + 1;
        uint64_t t = 0;
        for (int kept = 0; kept < BSPRAM_PRAM_REPORT_KEEP; kept++) {
            while (v1[t] == UINT64_MAX)
                t++;
            char expect[160];
            int len_e = snprintf(expect, sizeof expect, "%s violation in step 1: VPs %" PRIu64 " and %" PRIu64
                                 " both %s cell A[%" PRIu64 "]\n", bspram_pram_model_name(model), v0[t], v1[t],
                                 reads ? "read" : "write", t);
            CHECK(strncmp(line, expect, (size_t)len_e) == 0);
            line = strchr(line, '\n') + 1;
            t++;
        }
        free(buf);
    }
    free(v0);
    free(v1);
    free(val0);
    free(differ);
    free(cells);
    free(vals);
    free(idx);
    free(out);
    bspram_pram_destroy(P);
}

int main(void)
{
    char want[6][200];
    snprintf(want[0], sizeof want[0], "bspram: EREW violation in step 2 %s: VPs 17 and 40 both read cell A[5]\n",
             at(GATHER_LINE));
    check_death("EREW reads", erew_read, NULL, want[0], 1, 60);
    snprintf(want[1], sizeof want[1], "bspram: EREW violation in step 2 %s: VPs 17 and 40 both write cell A[5]\n",
             at(SCATTER_LINE));
    check_death("EREW writes", erew_write, NULL, want[1], 1, 60);
    snprintf(want[2], sizeof want[2], "bspram: CREW violation in step 1 %s: VPs 17 and 40 both write cell B[17]\n",
             at(SCATTER_LINE));
    check_death("CREW writes", crew_write, NULL, want[2], 1, 60);
    snprintf(want[3], sizeof want[3], "bspram: CRCW-common violation in step 1 %s: VPs 17 and 40 write different "
             "values to cell A[5]\n", at(SCATTER_LINE));
    check_death("CRCW-common writes", common_write, NULL, want[3], 1, 60);
    snprintf(want[4], sizeof want[4], "bspram: EREW violation in step 3 %s: VPs 17 and 40 both read cell B[5]\n",
             at(VP_READ_LINE));
    check_death("EREW reads, per VP", erew_read_vp, NULL, want[4], 1, 60);
    snprintf(want[5], sizeof want[5], "bspram: CRCW-common violation in step 1 %s: VPs 33 and 63 write different "
             "values to cell A[2]\n", at(VP_WRITE_LINE));
    check_death("CRCW-common writes, per VP", common_write_vp, NULL, want[5], 1, 60);
    for (int t = 1; t <= 4; t *= 2) { /* two sites in one line, the same for any T */
        char two[200];
        snprintf(two, sizeof two, "bspram: CREW violation in step 1 %s and test_pram_violations.c:%u: VPs 17 and "
                 "40 both write cell A[5]\n", at(WRITE_HERE_LINE), (unsigned)WRITE_THERE_LINE);
        check_death("two sites", two_sites, &(int){t}, two, 1, 60);
    }
    for (int t = 1; t <= 4; t *= 2)
        report_erew(t);
    report_other_models();
    for (int t = 1; t <= 2; t++) {
        random_against_reference(BSPRAM_EREW, true, t);
        random_against_reference(BSPRAM_EREW, false, t);
        random_against_reference(BSPRAM_CREW, false, t);
        random_against_reference(BSPRAM_CRCW_COMMON, false, t);
    }
    return check_report("test_pram_violations");
}
