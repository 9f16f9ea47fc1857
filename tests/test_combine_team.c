/* A combining batch run by the lanes of a team that is already running: a
 * bulk team between supersteps of its own, and an SPMD program between
 * bspram__bsp_sync calls. The answers must equal a sequential reference, and the
 * records must equal those of the same batch run from the host
 * (bspram_combine) — same phases, labels and charges — with the program's own
 * supersteps around them, labelled as the program set them. */
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "check.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

enum { Q = 12 }; /* requests per component */

typedef struct setup {
    bspram_machine *m;
    bspram_space *s;
    uint32_t seg;
    bspram_combiner *C;
    bspram_request *req;
    uint64_t *first, *res;
    uint64_t p;
} setup;

static setup make(uint64_t p, int threads)
{
    setup x;
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    x.p = p;
    x.m = bspram_machine_create(&cfg);
    x.s = bspram_space_create(p, BSPRAM_HASH_XXH3, 3);
    x.seg = bspram_segment_alloc(x.s, 40, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(p);
    if (p % 4 == 0 && p > 4) {
        uint64_t b[2] = {4, p / 4};
        bspram_basis_make(&o.basis, p, 2, b, NULL, 0);
    }
    o.seed = 17;
    x.C = bspram_combiner_create(x.m, x.s, &o);
    x.req = calloc(p * Q, sizeof *x.req);
    x.first = calloc(p + 1, sizeof *x.first);
    x.res = calloc(p * Q, sizeof *x.res);
    /* reads of cells 0..9 and fetch-and-adds on cells 10..39 */
    for (uint64_t c = 0; c < p; c++) {
        x.first[c + 1] = x.first[c] + Q;
        for (uint64_t j = 0; j < Q; j++) {
            bspram_request *r = &x.req[c * Q + j];
            uint64_t cell = (c * 5 + j * 3) % 40;
            r->address = bspram_address(x.s, x.seg, cell);
            r->kind = cell < 10 ? BSPRAM_READ
                                : bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64));
            r->value = c + j + 1;
        }
    }
    for (uint64_t t = 0; t < 10; t++) /* over MPI: each rank its own cells */
        if (bspram_holds(x.s, bspram_address(x.s, x.seg, t)))
            bspram_store(x.s, bspram_address(x.s, x.seg, t), 100 + t);
    return x;
}

static void destroy(setup *x)
{
    free(x->req);
    free(x->first);
    free(x->res);
    bspram_combiner_destroy(x->C);
    bspram_space_destroy(x->s);
    bspram_machine_destroy(x->m);
}

/* Reads see 100 + t; the fetch-and-adds of a cell sum to the cell's total,
 * and each answer is below the total (a prefix of the others' values). */
static void check_answers(const setup *x)
{
    uint64_t total[40] = {0};
    for (uint64_t i = 0; i < x->p * Q; i++) {
        uint64_t cell = x->req[i].address & (BSPRAM_SEGMENT_MAX_CELLS - 1);
        if (cell >= 10)
            total[cell] += x->req[i].value;
    }
    int ok = 1;
    for (uint64_t i = 0; i < x->p * Q; i++) {
        uint64_t cell = x->req[i].address & (BSPRAM_SEGMENT_MAX_CELLS - 1);
        ok &= cell < 10 ? x->res[i] == 100 + cell : x->res[i] + x->req[i].value <= total[cell];
    }
    CHECK(ok);
    for (uint64_t t = 10; t < 40; t++)
        if (bspram_holds(x->s, bspram_address(x->s, x->seg, t))) /* over MPI: its owner's rank */
            CHECK_EQ_U64(bspram_load(x->s, bspram_address(x->s, x->seg, t)), total[t]);
}

static bool ring(bspram_component *c, void *arg)
{
    (void)arg;
    uint64_t v = bspram_pid(c);
    bspram_send(c, (v + 1) % bspram_nprocs(c), &v, sizeof v);
    return false;
}

/* A bulk team: a superstep of its own, a batch, another superstep. */
static void bulk_lane(bspram_team *t, void *arg)
{
    setup *x = arg;
    bspram__bsp_team_set_label(t, "mine");
    bspram__bsp_team_each(t, ring, NULL);
    bspram__bsp_team_exchange(t, 0);
    bspram__combine_team(t, x->C, x->req, x->first, x->res, NULL);
    bspram__bsp_team_each(t, ring, NULL);
    bspram__bsp_team_exchange(t, 0);
}

/* An SPMD program: the component is its own lane. */
static void spmd_program(bspram_component *self, void *arg)
{
    setup *x = arg;
    uint64_t v = bspram_pid(self);
    bspram_send(self, (v + 1) % bspram_nprocs(self), &v, sizeof v);
    bspram__bsp_sync(self, 0);
    const bspram_message *in;
    CHECK(bspram_inbox(self, &in) == 1);
    bspram__combine_team(bspram__bsp_component_team(self), x->C, x->req, x->first, x->res, NULL);
    bspram__bsp_sync(self, 0);
}

/* The host-side batch's records, for comparison. */
static size_t host_records(uint64_t p, int threads, bspram_record *out)
{
    setup h = make(p, threads);
    bspram_combine(h.C, h.req, h.first, h.res, NULL);
    check_answers(&h);
    size_t n;
    const bspram_record *rec = bspram_machine_records(h.m, &n);
    memcpy(out, rec, n * sizeof *rec);
    destroy(&h);
    return n;
}

static void same_records(const bspram_record *a, const bspram_record *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        CHECK(strcmp(a[i].label, b[i].label) == 0);
        CHECK(a[i].messages == b[i].messages && a[i].q == b[i].q && a[i].r == b[i].r &&
              a[i].charge == b[i].charge && a[i].h_bytes == b[i].h_bytes);
    }
}

int main(void)
{
    bspram_record host[64];
    for (int threads = 1; threads <= 3; threads++) {
        size_t nh = host_records(24, threads, host);
        CHECK(nh == 4); /* two forward phases, two reverse steps */

        setup x = make(24, threads);
        bspram__bsp_machine_team(x.m, bulk_lane, &x);
        check_answers(&x);
        size_t n;
        const bspram_record *rec = bspram_machine_records(x.m, &n);
        CHECK_EQ_U64(n, nh + 2);
        if (n == nh + 2) {
            CHECK(strcmp(rec[0].label, "mine") == 0 && rec[0].messages == 24);
            same_records(rec + 1, host, nh);
            CHECK(strcmp(rec[n - 1].label, "mine") == 0 && rec[n - 1].messages == 24);
        }
        destroy(&x);
    }
    /* SPMD: p = T = 3 (one phase: 3 is prime) */
    size_t nh = host_records(3, 3, host);
    setup x = make(3, 3);
    bspram__bsp_machine_spmd(x.m, spmd_program, &x);
    check_answers(&x);
    size_t n;
    const bspram_record *rec = bspram_machine_records(x.m, &n);
    CHECK_EQ_U64(n, nh + 2);
    if (n == nh + 2) {
        CHECK(strcmp(rec[0].label, "superstep") == 0);
        same_records(rec + 1, host, nh);
        CHECK(strcmp(rec[n - 1].label, "superstep") == 0);
    }
    destroy(&x);
    return check_report("test_combine_team");
}
