/* Bad input to the address space, the combiner and the table experiment:
 * one clear line on stderr and a non-zero exit (death tests). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "combine/combine.h"
#include "combine/experiment.h"

typedef struct ctx {
    bspram_machine *m;
    bspram_space *s;
    uint32_t seg, seg4;
} ctx;

static ctx make(uint64_t p)
{
    ctx x;
    bspram_config mc = bspram_config_default(p);
    mc.threads = 2;
    x.m = bspram_machine_create(&mc);
    x.s = bspram_space_create(p, BSPRAM_HASH_XXH3, 1);
    x.seg = bspram_segment_alloc(x.s, 10, 8, BSPRAM_LAYOUT_HASHED);
    x.seg4 = bspram_segment_alloc(x.s, 10, 4, BSPRAM_LAYOUT_HASHED);
    return x;
}

static void one_batch(ctx *x, bspram_request *req, uint64_t n)
{
    uint64_t p = bspram_machine_p(x->m);
    uint64_t *first = calloc(p + 1, sizeof *first);
    for (uint64_t c = 1; c <= p; c++)
        first[c] = n; /* component 0 issues everything */
    uint64_t res[16];
    bspram_combine_options o = bspram_combine_defaults(p);
    bspram_basis_require(&o.basis, p, "2x2");
    bspram_combiner *C = bspram_combiner_create(x->m, x->s, &o);
    bspram_combine(C, req, first, res, NULL);
}

static void bad_basis_product(void *a)
{
    (void)a;
    bspram_basis b;
    bspram_basis_require(&b, 4096, "8x8x8");
}

static void bad_basis_zero(void *a)
{
    (void)a;
    bspram_basis b;
    bspram_basis_require(&b, 16, "4x0x4");
}

static void bad_combiner_basis(void *a)
{
    (void)a;
    ctx x = make(4);
    bspram_combine_options o = bspram_combine_defaults(4);
    bspram_basis_require(&o.basis, 8, "2x4"); /* a valid basis of another p */
    bspram_combiner_create(x.m, x.s, &o);
}

static void bad_v(void *a)
{
    (void)a;
    bspram_table_entry e;
    memset(&e, 0, sizeof e);
    bspram_basis_require(&e.basis, 4, "4");
    e.degree = 1;
    bspram_table_config cfg = {.p = 4, .v = 10, .runs = 1, .seed = 1, .threads = 1};
    double b;
    bspram_table_run(&cfg, &e, 1, &b);
}

static void bad_degree(void *a)
{
    uint64_t d = *(uint64_t *)a;
    bspram_table_entry e;
    memset(&e, 0, sizeof e);
    bspram_basis_require(&e.basis, 4, "4");
    e.degree = d;
    bspram_table_config cfg = {.p = 4, .v = 20, .runs = 1, .seed = 1, .threads = 1};
    double b;
    bspram_table_run(&cfg, &e, 1, &b);
}

/* a: {schedule, router} of a table run that must be refused. */
static void bad_model(void *a)
{
    const int *sr = a;
    bspram_table_entry e;
    memset(&e, 0, sizeof e);
    bspram_basis_require(&e.basis, 4, "4");
    e.degree = 1;
    bspram_table_config cfg = {.p = 4, .v = 8, .runs = 1, .seed = 1, .threads = 1,
                               .schedule = (bspram_schedule)sr[0], .router = (bspram_router_model)sr[1]};
    double b;
    bspram_table_run(&cfg, &e, 1, &b);
}

static void bad_kind(void *a)
{
    unsigned kind = *(unsigned *)a;
    ctx x = make(4);
    bspram_request r = {bspram_address(x.s, x.seg, 1), 5, (uint8_t)kind, 0};
    one_batch(&x, &r, 1);
}

static void bad_reduce_width(void *a)
{
    (void)a;
    ctx x = make(4);
    bspram_request r = {bspram_address(x.s, x.seg4, 1), 5, bspram_kind_reduce(0), 0};
    one_batch(&x, &r, 1);
}

static void common_conflict(void *a)
{
    (void)a;
    ctx x = make(4);
    bspram_request r[3] = {{bspram_address(x.s, x.seg, 3), 7, BSPRAM_WRITE_COMMON, 0},
                           {bspram_address(x.s, x.seg, 2), 1, BSPRAM_WRITE_COMMON, 0},
                           {bspram_address(x.s, x.seg, 3), 8, BSPRAM_WRITE_COMMON, 0}};
    one_batch(&x, r, 3);
}

static void two_update_species(void *a)
{
    (void)a;
    ctx x = make(4);
    bspram_request r[2] = {{bspram_address(x.s, x.seg, 3), 7, BSPRAM_WRITE_PRIORITY, 0},
                           {bspram_address(x.s, x.seg, 3), 8, bspram_kind_reduce(0), 0}};
    one_batch(&x, r, 2);
}

static uint64_t user_max(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return a > b ? a : b;
}

/* A user operation is named in the message by the name it was registered with. */
static void two_species_user_op(void *a)
{
    (void)a;
    ctx x = make(4);
    uint64_t first[5] = {0, 2, 2, 2, 2}, res[2];
    bspram_combine_options o = bspram_combine_defaults(4);
    bspram_combiner *C = bspram_combiner_create(x.m, x.s, &o);
    unsigned op = bspram_combiner_add_op(C, "umax", user_max, NULL, 0);
    bspram_request r[2] = {{bspram_address(x.s, x.seg, 3), 7, bspram_kind_reduce(op), 0},
                           {bspram_address(x.s, x.seg, 3), 8, bspram_kind_fetch(op), 0}};
    bspram_combine(C, r, first, res, NULL);
}

/* Ids past the built-in operations: bspram_op_apply gave a back, and
 * bspram_op_identity 0, as if computed. */
static void apply_not_builtin(void *a)
{
    (void)a;
    printf("%llu\n", (unsigned long long)bspram_op_apply(999, 5, 7));
}

static void identity_not_builtin(void *a)
{
    (void)a;
    printf("%llu\n", (unsigned long long)bspram_op_identity(BSPRAM_BUILTIN_OPS));
}

static void unregistered_op_identity(void *a)
{
    (void)a;
    ctx x = make(4);
    bspram_combine_options o = bspram_combine_defaults(4);
    bspram_combiner *C = bspram_combiner_create(x.m, x.s, &o);
    bspram_combiner_op_identity(C, 25);
}

static void index_out_of_range(void *a)
{
    (void)a;
    ctx x = make(4);
    bspram_address(x.s, x.seg, 10);
}

static void request_out_of_range(void *a)
{
    (void)a;
    ctx x = make(4);
    bspram_request r = {bspram_address(x.s, x.seg, 9) + 1, 0, BSPRAM_READ, 0};
    one_batch(&x, &r, 1);
}

static void request_no_segment(void *a)
{
    (void)a;
    ctx x = make(4);
    bspram_request r = {(uint64_t)77 << BSPRAM_SEGMENT_SHIFT, 0, BSPRAM_READ, 0};
    one_batch(&x, &r, 1);
}

static void bad_width(void *a)
{
    (void)a;
    bspram_space *s = bspram_space_create(4, BSPRAM_HASH_XXH3, 1);
    bspram_segment_alloc(s, 10, 9, BSPRAM_LAYOUT_HASHED);
}

/* 2^40 hashed cells need 24 TiB of tables: refused at once (built for
 * hours, then out of memory). Over 1 component and over 2^31 alike. */
static void unbuildable(void *a)
{
    bspram_space *s = bspram_space_create(*(const uint64_t *)a, BSPRAM_HASH_XXH3, 1);
    bspram_segment_alloc(s, UINT64_C(1) << 40, 8, BSPRAM_LAYOUT_HASHED);
}

static void bad_hash_kind(void *a)
{
    (void)a;
    bspram_space_create(4, (bspram_hash_kind)7, 1);
}

static void reads_without_results(void *a)
{
    (void)a;
    ctx x = make(4);
    uint64_t first[5] = {0, 1, 1, 1, 1};
    bspram_request r = {bspram_address(x.s, x.seg, 1), 0, BSPRAM_READ, 0};
    bspram_combine_options o = bspram_combine_defaults(4);
    bspram_combiner *C = bspram_combiner_create(x.m, x.s, &o);
    bspram_combine(C, &r, first, NULL, NULL);
}

int main(void)
{
    check_death("unknown hash family", bad_hash_kind, NULL,
                "bspram: bspram_space_create(kind=7): unknown hash family; valid: 0 (xxh3), 1 (tabulation)\n",
                1, 20);
    check_death("basis product", bad_basis_product, NULL, "product is 512; it must equal p = 4096", 1, 20);
    check_death("basis zero entry", bad_basis_zero, NULL, "is 0", 1, 20);
    check_death("combiner basis of another p", bad_combiner_basis, NULL, "must equal p = 4", 1, 20);
    check_death("v not a multiple of p", bad_v, NULL, "v = 10 must be a positive multiple of p = 4", 1, 20);
    check_death("unknown schedule", bad_model, (int[]){7, 0},
                "bspram: bspram_table_run(schedule=7): unknown schedule; valid: 0 sync, 1 cycles-sync, 2 async", 1, 20);
    check_death("unknown router", bad_model, (int[]){1, 5},
                "bspram: bspram_table_run(router=5): unknown router; valid: 0 simple, 1 sstar", 1, 20);
    check_death("S*PRAM in charges", bad_model, (int[]){0, 1},
                "bspram: bspram_table_run(router=1, schedule=0): the S*PRAM counts cycles", 1, 20);
    uint64_t d5 = 5, d3 = 3, d0 = 0;
    check_death("degree above p", bad_degree, &d5, "degree 5 must be in [1, p = 4]", 1, 20);
    check_death("degree not dividing v", bad_degree, &d3, "degree 3 must divide v = 20", 1, 20);
    check_death("degree 0", bad_degree, &d0, "degree 0 must be in [1, p = 4]", 1, 20);
    unsigned k1 = 17, k2 = 32 + 30, k3 = 200;
    check_death("unknown species", bad_kind, &k1, "unknown species or operation (kind 17)", 1, 20);
    check_death("unknown reduce operation", bad_kind, &k2, "unknown species or operation (kind 62)", 1, 20);
    check_death("unknown fetch operation", bad_kind, &k3, "unknown species or operation (kind 200)", 1, 20);
    check_death("reduce on 4-byte cells", bad_reduce_width, NULL, "need cells of 8 bytes", 1, 20);
    check_death("common-write conflict", common_conflict, NULL,
                "common-write conflict at address 0x10000000003 (segment 1, cell 3): origin 0 writes", 1, 20);
    check_death("two update species", two_update_species, NULL, "two update species at address 0x10000000003", 1, 20);
    check_death("two update species, user op", two_species_user_op, NULL,
                "two update species at address 0x10000000003 in one batch: reduce(umax#21) and fetch(umax#21)",
                1, 20);
    check_death("identity of an unregistered op", unregistered_op_identity, NULL,
                "bspram_combiner_op_identity(op=25): no such operation", 1, 20);
    {
        /* The identity registered with a user op comes back; built-ins give theirs. */
        ctx x = make(4);
        bspram_combine_options o = bspram_combine_defaults(4);
        bspram_combiner *C = bspram_combiner_create(x.m, x.s, &o);
        unsigned op = bspram_combiner_add_op(C, "umax", user_max, NULL, 42);
        CHECK_EQ_U64(op, BSPRAM_BUILTIN_OPS);
        CHECK_EQ_U64(bspram_combiner_op_identity(C, op), 42);
        unsigned prod = bspram_op_builtin(BSPRAM_OP_PROD, BSPRAM_TYPE_U64);
        CHECK_EQ_U64(bspram_combiner_op_identity(C, prod), 1);
        bspram_combiner_destroy(C);
        bspram_space_destroy(x.s);
        bspram_machine_destroy(x.m);
    }
    check_death("bspram_op_apply of no operation", apply_not_builtin, NULL,
                "bspram: bspram_op_apply(op=999): not a built-in operation; valid: 0..20", 1, 20);
    check_death("bspram_op_identity of a user operation's id", identity_not_builtin, NULL,
                "bspram: bspram_op_identity(op=21): not a built-in operation; valid: 0..20", 1, 20);
    check_death("segment index out of range", index_out_of_range, NULL,
                "bspram_address(segment=1, index=10): index out of range; the segment has 10 cells", 1, 20);
    check_death("request index out of range", request_out_of_range, NULL, "index 10 out of range [0, 10)", 1, 20);
    check_death("request in no segment", request_no_segment, NULL, "is in no live segment", 1, 20);
    check_death("cell width 9", bad_width, NULL, "w must be in [1, 8] bytes", 1, 20);
    static const uint64_t ps[] = {1, 4, UINT64_C(1) << 31};
    for (int i = 0; i < 3; i++)
        check_death("a hashed segment that cannot be built", unbuildable, (void *)&ps[i],
                    "bspram: bspram_segment_alloc(n=1099511627776, w=8): a hashed segment of 1099511627776 "
                    "cells needs at least 24 TiB for its owners' tables (3/2 slots of 8 + 8 bytes per cell this "
                    "process holds); this process can have at most ", 1, 20);
    check_death("reads without results", reads_without_results, NULL, "results=NULL", 1, 20);
    return check_report("test_combine_errors");
}
