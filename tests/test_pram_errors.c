/* Every error of pram/pram.h: one line on stderr naming the call and its
 * arguments, exit status 1 (death tests). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pram/pram.h"

static bspram_pram *make(bspram_pram_model model)
{
    bspram_pram_config c = bspram_pram_config_default(16, model);
    c.p = 4;
    c.threads = 2;
    return bspram_pram_create(&c);
}

/* ---- create ---- */

static void create_with(void *arg)
{
    const bspram_pram_config *c = arg;
    bspram_pram_create(c);
}

/* ---- arrays ---- */

static void alloc_zero(void *arg)
{
    (void)arg;
    bspram_pram_alloc(make(BSPRAM_CREW), "A", 0);
}

static void alloc_huge(void *arg)
{
    (void)arg;
    bspram_pram_alloc(make(BSPRAM_CREW), "A", (UINT64_C(1) << 40) + 1);
}

static void alloc_unbuildable(void *arg)
{
    (void)arg;
    bspram_pram_alloc(make(BSPRAM_CREW), "A", UINT64_C(1) << 40);
}

static void cell_no_array(void *arg)
{
    (void)arg;
    bspram_pram_cell(make(BSPRAM_CREW), 7, 0);
}

static void cell_out_of_range(void *arg)
{
    (void)arg;
    bspram_pram *P = make(BSPRAM_CREW);
    bspram_pram_cell(P, bspram_pram_alloc(P, "A", 10), 10);
}

static void cell_freed(void *arg)
{
    (void)arg;
    bspram_pram *P = make(BSPRAM_CREW);
    bspram_pram_array a = bspram_pram_alloc(P, "A", 10);
    bspram_pram_free(P, a);
    bspram_pram_cell(P, a, 0);
}

static void free_twice(void *arg)
{
    (void)arg;
    bspram_pram *P = make(BSPRAM_CREW);
    bspram_pram_array a = bspram_pram_alloc(P, "A", 10);
    bspram_pram_free(P, a);
    bspram_pram_free(P, a);
}

static void too_many_arrays(void *arg)
{
    (void)arg;
    bspram_pram *P = make(BSPRAM_CREW);
    for (unsigned i = 0; i <= BSPRAM_MAX_SEGMENTS; i++)
        bspram_pram_alloc(P, "A", 1);
}

static void load_too_many(void *arg)
{
    (void)arg;
    bspram_pram *P = make(BSPRAM_CREW);
    uint64_t v[11] = {0};
    bspram_pram_load(P, bspram_pram_alloc(P, "A", 10), v, 11);
}

static void store_null(void *arg)
{
    (void)arg;
    bspram_pram *P = make(BSPRAM_CREW);
    bspram_pram_store(P, bspram_pram_alloc(P, "A", 10), NULL, 3);
}

/* ---- bulk ---- */

typedef struct bulk_case {
    int which; /* 0 gather, 1 scatter, 2 scatter_reduce, 3 fetch_op */
    bspram_pram_model model;
    uint64_t k;
    int bad_cell; /* 1: VP 5's second slot names a freed array's cell; 2: a cell past the end;
                     3: both, and VP 13's second slot too (another lane's) */
    unsigned op;
} bulk_case;

static void bulk(void *arg)
{
    const bulk_case *b = arg;
    bspram_pram *P = make(b->model);
    bspram_pram_array A = bspram_pram_alloc(P, "A", 16);
    uint64_t cells[32], vals[32] = {0}, out[32];
    for (uint64_t s = 0; s < 32; s++)
        cells[s] = bspram_pram_cell(P, A, s % 16);
    if (b->bad_cell == 1) {
        bspram_pram_array F = bspram_pram_alloc(P, "F", 16);
        cells[11] = bspram_pram_cell(P, F, 3);
        bspram_pram_free(P, F);
    } else if (b->bad_cell == 2) {
        cells[11] = bspram_pram_cell(P, A, 15) + 1;
    } else if (b->bad_cell == 3) {
        cells[11] = cells[27] = bspram_pram_cell(P, A, 15) + 1;
    }
    uint64_t k = b->k;
    switch (b->which) {
    case 0: bspram_pram_gather(P, k, cells, out); break;
    case 1: bspram_pram_scatter(P, k, cells, vals); break;
    case 2: bspram_pram_scatter_reduce(P, k, cells, vals, b->op); break;
    default: bspram_pram_fetch_op(P, k, cells, vals, b->op, out); break;
    }
}

/* ---- per VP ---- */

typedef struct vp_case {
    bspram_pram_model model;
    int what; /* which misuse, see vp_read_cb / vp_write_cb */
    bspram_pram_array A;
    bool also; /* VP 13 misuses too (misuser) */
} vp_case;

/* VP 5 misuses; with `also`, VP 13 (on the other lane) too, and VPs 0..4
 * are slow, so that VP 13's lane meets its misuse first: the line must
 * still name VP 5 (the least), whatever the timing. */
static bool misuser(const vp_case *v, bspram_vp *vp)
{
    const uint64_t i = bspram_vp_id(vp);
    if (v->also && i < 5)
        usleep(20000);
    return i == 5 || (v->also && i == 13);
}

static void vp_read_cb(bspram_vp *vp, void *arg)
{
    const vp_case *v = arg;
    if (!misuser(v, vp))
        return;
    switch (v->what) {
    case 0: bspram_vp_write(vp, v->A, 1, 2); break;
    case 1: bspram_vp_value(vp, 0); break;
    case 2: bspram_vp_read(vp, v->A, 16); break;
    case 3: bspram_vp_read(vp, 9, 0); break;
    case 4: bspram_vp_reduce(vp, v->A, 1, 2, 0); break;
    default: break;
    }
}

static void vp_write_cb(bspram_vp *vp, void *arg)
{
    const vp_case *v = arg;
    if (!misuser(v, vp))
        return;
    switch (v->what) {
    case 10: bspram_vp_read(vp, v->A, 1); break;
    case 11: bspram_vp_value(vp, 1); break;   /* one read issued */
    case 12: bspram_vp_reduce(vp, v->A, 1, 2, 0); break;
    case 13: bspram_vp_reduce(vp, v->A, 1, 2, 30); break;
    case 14: bspram_vp_write(vp, v->A, 99, 2); break;
    default: break;
    }
}

static void one_read(bspram_vp *vp, void *arg)
{
    const vp_case *v = arg;
    bspram_vp_read(vp, v->A, bspram_vp_id(vp));
}

static void vp_misuse(void *arg)
{
    vp_case *v = arg;
    bspram_pram *P = make(v->model);
    v->A = bspram_pram_alloc(P, "A", 16);
    bspram_pram_step(P, NULL, NULL, NULL); /* step 1: nothing; the misuse is in step 2 */
    if (v->what < 10)
        bspram_pram_step(P, vp_read_cb, NULL, v);
    else
        bspram_pram_step(P, v->what == 11 ? one_read : NULL, vp_write_cb, v);
}

static void vp_value_no_reads(void *arg)
{
    vp_case *v = arg;
    bspram_pram *P = make(v->model);
    v->A = bspram_pram_alloc(P, "A", 16);
    v->what = 11;
    bspram_pram_step(P, NULL, vp_write_cb, v);
}

/* ---- a handle kept past its callback ---- */

static bspram_vp *kept;
static bspram_pram_array kept_array;

static void keep_body(bspram_vp *vp, void *arg)
{
    (void)arg;
    if (bspram_vp_id(vp) == 5)
        kept = vp;
    bspram_vp_write(vp, kept_array, bspram_vp_id(vp), 1);
}

static void keep_read(bspram_vp *vp, void *arg)
{
    (void)arg;
    if (bspram_vp_id(vp) == 5)
        kept = vp;
    bspram_vp_read(vp, kept_array, bspram_vp_id(vp));
}

/* Every VP but 5 writes through VP 5's handle from step 2. */
static void use_kept(bspram_vp *vp, void *arg)
{
    (void)arg;
    bspram_vp_write(bspram_vp_id(vp) == 5 ? vp : kept, kept_array, bspram_vp_id(vp), 2);
}

/* how: 0 bspram_vp_id on the host after the step, 1 bspram_vp_read there,
 * 2 through the handle in the next step's callbacks, 3 after destroy. The
 * handle is kept by a textbook body (even how) or a read callback (odd). */
static void kept_handle(void *arg)
{
    const int how = *(const int *)arg;
    bspram_pram_config c = bspram_pram_config_default(16, BSPRAM_CREW);
    c.p = 4;
    c.threads = 1 + (how / 2 + how) % 3;
    bspram_pram *P = bspram_pram_create(&c);
    kept_array = bspram_pram_alloc(P, "A", 16);
    bspram_pram_step(P, NULL, NULL, NULL);
    if (how % 2)
        bspram_pram_step(P, keep_read, NULL, NULL);
    else
        bspram_pram_for_all(P, keep_body, NULL); /* step 2 */
    switch (how / 2) {
    case 0: bspram_vp_id(kept); break;
    case 1: bspram_vp_read(kept, kept_array, 3); break;
    case 2: bspram_pram_step(P, NULL, use_kept, NULL); break; /* step 3 */
    default: bspram_pram_destroy(P); bspram_vp_n(kept); break;
    }
}

/* ---- the combining rule's operation ---- */

static void set_op_model(void *arg)
{
    (void)arg;
    bspram_pram_set_op(make(BSPRAM_CRCW_PRIORITY), 3);
}

static void set_op_unknown(void *arg)
{
    (void)arg;
    bspram_pram_set_op(make(BSPRAM_CRCW_COMBINING), 21);
}

static void host_bad_vp(void *arg)
{
    (void)arg;
    bspram_pram_host(make(BSPRAM_CREW), 16);
}

int main(void)
{
    /* create */
    bspram_pram_config c = bspram_pram_config_default(0, BSPRAM_EREW);
    check_death("n = 0", create_with, &c, "bspram: bspram_pram_create(n=0, p=0): n must be in [1, 4294967295]\n", 1, 30);
    c = bspram_pram_config_default(UINT64_C(1) << 32, BSPRAM_EREW);
    check_death("n = 2^32", create_with, &c,
                "bspram: bspram_pram_create(n=4294967296, p=4096): n must be in [1, 4294967295]\n", 1, 30);
    c = bspram_pram_config_default(10, BSPRAM_EREW);
    c.p = 0;
    check_death("p = 0", create_with, &c, "bspram: bspram_pram_create(n=10, p=0): p must be in [1, 2147483648]\n", 1, 30);
    c.p = (UINT64_C(1) << 31) + 1;
    check_death("p = 2^31 + 1", create_with, &c,
                "bspram: bspram_pram_create(n=10, p=2147483649): p must be in [1, 2147483648]\n", 1, 30);
    c = bspram_pram_config_default(10, (bspram_pram_model)6);
    check_death("model 6", create_with, &c,
                "bspram: bspram_pram_create(model=6): unknown model; valid: 0 EREW, 1 CREW, 2 CRCW-common, "
                "3 CRCW-arbitrary, 4 CRCW-priority, 5 CRCW-combining\n", 1, 30);
    c = bspram_pram_config_default(10, BSPRAM_CRCW_COMBINING);
    c.op = 21;
    check_death("op 21", create_with, &c,
                "bspram: bspram_pram_create(op=21): unknown operation; valid: 0..20 (built-in; a user operation "
                "is registered on bspram_pram_combiner and chosen with bspram_pram_set_op)\n", 1, 30);
    c = bspram_pram_config_default(10, BSPRAM_CREW);
    c.threads = 0;
    check_death("threads 0", create_with, &c,
                "bspram: bspram_machine_create(p=10, threads=0): threads must be in [1, 65536]\n", 1, 30);
    c = bspram_pram_config_default(10, BSPRAM_CREW);
    c.registers = 70000;
    check_death("registers", create_with, &c,
                "bspram: bspram_pram_create(registers=70000): registers must be in [0, 65536]\n", 1, 30);
    c = bspram_pram_config_default(10, BSPRAM_CREW);
    c.combine.strategy = (bspram_strategy)7;
    check_death("combine options", create_with, &c, "bspram: bspram_combiner_set_options(strategy=7): unknown strategy", 1, 30);

    /* arrays and host access */
    check_death("alloc 0 cells", alloc_zero, NULL,
                "bspram: bspram_pram_alloc(name=A, cells=0): cells must be in [1, 2^40]\n", 1, 30);
    check_death("alloc 2^40 + 1 cells", alloc_huge, NULL,
                "bspram: bspram_pram_alloc(name=A, cells=1099511627777): cells must be in [1, 2^40]\n", 1, 30);
    /* 2^40 cells are in range but need 24 TiB: refused at once, not built
     * for hours. */
    check_death("alloc 2^40 cells", alloc_unbuildable, NULL,
                "bspram: bspram_pram_alloc(name=A, cells=1099511627776): a hashed segment of 1099511627776 cells "
                "needs at least 24 TiB for its owners' tables (3/2 slots of 8 + 8 bytes per cell this process "
                "holds); this process can have at most ", 1, 30);
    check_death("cell of no array", cell_no_array, NULL, "bspram: bspram_pram_cell(array=7): no such array\n", 1, 30);
    check_death("cell out of range", cell_out_of_range, NULL,
                "bspram: bspram_pram_cell(array=A, index=10): index out of range [0, 10)\n", 1, 30);
    check_death("cell of a freed array", cell_freed, NULL, "bspram: bspram_pram_cell(array=1): no such array\n", 1, 30);
    check_death("free twice", free_twice, NULL, "bspram: bspram_pram_free(array=1): no such array\n", 1, 30);
    check_death("too many arrays", too_many_arrays, NULL,
                "bspram: bspram_pram_alloc(name=A, cells=1): too many arrays; at most 65535 live\n", 1, 120);
    check_death("load too many", load_too_many, NULL,
                "bspram: bspram_pram_load(array=A, count=11): count above the array's 10 cells\n", 1, 30);
    check_death("store NULL", store_null, NULL, "bspram: bspram_pram_store(array=A, count=3): values is NULL\n", 1, 30);
    check_death("host of VP n", host_bad_vp, NULL, "bspram: bspram_pram_host(vp=16): no such VP; valid: [0, 16)\n", 1, 30);

    /* bulk */
    bulk_case b0 = {0, BSPRAM_CREW, 0, 0, 0};
    check_death("gather k = 0", bulk, &b0, "bspram: bspram_pram_gather(k=0): k must be at least 1 (cells per VP)\n", 1, 30);
    bulk_case b1 = {1, BSPRAM_CREW, 0, 0, 0};
    check_death("scatter k = 0", bulk, &b1, "bspram: bspram_pram_scatter(k=0): k must be at least 1 (cells per VP)\n", 1, 30);
    bulk_case b2 = {0, BSPRAM_CREW, 2, 1, 0};
    check_death("gather of a freed array", bulk, &b2,
                "bspram: bspram_pram_gather(k=2, cells[11]=0x20000000003): names no cell of a live array (VP 5, "
                "step 1)\n", 1, 30);
    bulk_case b3 = {1, BSPRAM_CRCW_ARBITRARY, 2, 2, 0};
    check_death("scatter past the end", bulk, &b3,
                "bspram: bspram_pram_scatter(k=2, cells[11]=0x10000000010): names no cell of a live array (VP 5, "
                "step 1)\n", 1, 30);
    bulk_case b4 = {2, BSPRAM_EREW, 1, 0, 0};
    check_death("scatter_reduce on EREW", bulk, &b4,
                "bspram: bspram_pram_scatter_reduce: the EREW model has no combining operations; use CRCW-combining\n",
                1, 30);
    bulk_case b5 = {3, BSPRAM_CRCW_PRIORITY, 1, 0, 0};
    check_death("fetch_op on CRCW-priority", bulk, &b5,
                "bspram: bspram_pram_fetch_op: the CRCW-priority model has no combining operations; use "
                "CRCW-combining\n", 1, 30);
    bulk_case b6 = {2, BSPRAM_CRCW_COMBINING, 1, 0, 21};
    check_death("scatter_reduce unknown op", bulk, &b6,
                "bspram: bspram_pram_scatter_reduce(op=21): no such operation; valid: 0..20 (user operations are "
                "registered on bspram_pram_combiner)\n", 1, 30);
    bulk_case b7 = {3, BSPRAM_CRCW_COMBINING, 0, 0, 0};
    check_death("fetch_op k = 0", bulk, &b7, "bspram: bspram_pram_fetch_op(k=0): k must be at least 1 (cells per VP)\n", 1, 30);

    /* per VP: calls in the wrong phase, bad arguments */
    vp_case v[] = {{BSPRAM_CREW, 0, 0, false},           {BSPRAM_CREW, 1, 0, false},
                   {BSPRAM_CREW, 2, 0, false},           {BSPRAM_CREW, 3, 0, false},
                   {BSPRAM_CRCW_COMBINING, 4, 0, false}, {BSPRAM_CREW, 10, 0, false},
                   {BSPRAM_CREW, 11, 0, false},          {BSPRAM_CREW, 12, 0, false},
                   {BSPRAM_CRCW_COMBINING, 13, 0, false}, {BSPRAM_CREW, 14, 0, false}};
    const char *want[] = {
        "bspram: bspram_vp_write(array=A, index=1, value=2): called in the read callback (VP 5, step 2); "
        "writes are issued in the write callback\n",
        "bspram: bspram_vp_value(k=0): called in the read callback (VP 5, step 2); values are seen in the "
        "write callback\n",
        "bspram: bspram_vp_read(array=A, index=16): index out of range [0, 16) (VP 5, step 2)\n",
        "bspram: bspram_vp_read(array=9, index=0): no such array (VP 5, step 2)\n",
        "bspram: bspram_vp_reduce(array=A, index=1, value=2, op=0): called in the read callback (VP 5, "
        "step 2); writes are issued in the write callback\n",
        "bspram: bspram_vp_read(array=A, index=1): called in the write callback (VP 5, step 2); reads are "
        "issued in the read callback\n",
        "bspram: bspram_vp_value(k=1): out of range; VP 5 issued 1 reads in step 2, valid: 0..0\n",
        "bspram: bspram_vp_reduce: the CREW model has no combining operations; use CRCW-combining\n",
        "bspram: bspram_vp_reduce(op=30): no such operation; valid: 0..20 (user operations are registered "
        "on bspram_pram_combiner)\n",
        "bspram: bspram_vp_write(array=A, index=99): index out of range [0, 16) (VP 5, step 2)\n",
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        check_death(want[i], vp_misuse, &v[i], want[i], 1, 30);
    /* Two VPs on two lanes misuse: the least is named, on every run (the
     * later lane met its misuse first in time). */
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        v[i].also = true;
        check_death(want[i], vp_misuse, &v[i], want[i], 1, 30);
    }
    for (int r = 0; r < 5; r++) {
        bulk_case both = {r % 2, BSPRAM_CREW, 2, 3, 0};
        char line[200];
        snprintf(line, sizeof line, "bspram: bspram_pram_%s(k=2, cells[11]=0x10000000010): names no cell of a "
                 "live array (VP 5, step 1)\n", r % 2 ? "scatter" : "gather");
        check_death("two bad slots on two lanes", bulk, &both, line, 1, 30);
    }
    vp_case nv = {BSPRAM_CREW, 11, 0, false};
    check_death("vp_value without reads", vp_value_no_reads, &nv,
                "bspram: bspram_vp_value(k=1): VP 5 issued no reads in step 1\n", 1, 30);

    /* A bspram_vp kept by a callback and used after it returned: one line
     * naming the call, the VP and the step, exit 1 (a crash before). */
    const char *valid = "; a bspram_vp is valid only inside the callback it was given to\n";
    const char *kept_want[] = {
        "bspram: bspram_vp_id: the bspram_vp of VP 5 used after its callback returned (after step 2)",
        "bspram: bspram_vp_read: the bspram_vp of VP 5 used after its callback returned (after step 2)",
        "bspram: bspram_vp_write: VP 0 (step 3) used the bspram_vp of VP 5, kept from an earlier callback",
        ("bspram: bspram_vp_n: vp is the handle of no VP of a live PRAM (kept after bspram_pram_destroy, or "
         "not a bspram_vp)"),
    };
    for (int how = 0; how < 8; how++) {
        char line[300];
        snprintf(line, sizeof line, "%s%s", kept_want[how / 2], valid);
        int arg = how;
        check_death(line, kept_handle, &arg, line, 1, 30);
    }

    /* the combining rule's operation */
    check_death("set_op on another model", set_op_model, NULL,
                "bspram: bspram_pram_set_op(op=3): the CRCW-priority model has no combining write; use "
                "CRCW-combining\n", 1, 30);
    check_death("set_op unknown", set_op_unknown, NULL,
                "bspram: bspram_pram_set_op(op=21): no such operation; valid: 0..20 (user operations are "
                "registered on bspram_pram_combiner)\n", 1, 30);
    return check_report("test_pram_errors");
}
