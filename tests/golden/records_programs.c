/* Fixed programs whose records must not change when the library's insides
 * do: a bulk machine with random patterns, declared work and counted posts;
 * combining batches of every species under several bases and strategies;
 * a BSPlib program with puts, gets, sends, an unbuffered hpput and
 * registrations. Prints every record (all columns but the seconds) as CSV;
 * tests/golden/records.csv is this output, taken before a refactoring, and
 * the ctest `records_golden` compares the two.
 *
 * usage: records_programs [threads]   (the output is the same for any number) */
#include <bsp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "bsp/machine_internal.h"

static int threads = 2;

static void print(const char *program, const bspram_record *rec, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%s,%" PRIu64 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
               program, rec[i].superstep, rec[i].label, rec[i].messages, rec[i].bytes, rec[i].q,
               rec[i].r, rec[i].charge, rec[i].h_bytes, rec[i].max_message, rec[i].work);
}

/* ---- bulk: random messages, work, counted posts, zero-byte messages ---- */

/* A digest of c's inbox: lengths and sources, and each payload's last byte
 * if last_bytes (so that the records of what c sends next depend on them). */
static uint64_t inbox_sum(const bspram_component *c, int last_bytes)
{
    const bspram_message *in;
    size_t n = bspram_inbox(c, &in);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += in[i].len + in[i].src +
               (last_bytes && in[i].len ? ((const unsigned char *)in[i].data)[in[i].len - 1] : 0);
    return sum;
}

static bool bulk_step(bspram_component *c, void *arg)
{
    (void)arg;
    uint64_t s = bspram_superstep(c), pid = bspram_pid(c), p = bspram_nprocs(c);
    uint64_t sum = inbox_sum(c, 0);
    uint64_t k = bspram_random_below(9, 11, s, pid, 0);
    for (uint64_t j = 0; j < k; j++) {
        uint64_t dst = bspram_random_below(p, 11, s, pid, 2 * j + 1);
        uint64_t len = bspram_random_below(70, 11, s, pid, 2 * j + 2);
        unsigned char *buf = bspram_send_buffer(c, dst, len);
        memset(buf, (int)(sum & 0xff), (size_t)len);
    }
    if (pid % 5 == 0)
        memset(bspram__bsp_send_buffer_counted(c, (pid + 1) % p, 8, 8 + 1000 * pid), 0, 8);
    bspram_work(c, pid % 13 + s);
    return s < 5;
}

/* Run a bulk program on p components and print its records. */
static void bulk_program(const char *name, uint64_t p, bool (*step)(bspram_component *, void *))
{
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_machine_run(m, step, NULL, 0);
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    print(name, rec, n);
    bspram_machine_destroy(m);
}

/* ---- heavy: supersteps of tens of MiB, so lanes post through the router's
 * write-combining windows; some messages larger than a window ---- */

static bool heavy_step(bspram_component *c, void *arg)
{
    (void)arg;
    uint64_t s = bspram_superstep(c), pid = bspram_pid(c), p = bspram_nprocs(c);
    uint64_t sum = inbox_sum(c, 1);
    uint64_t k = 40 + bspram_random_below(120, 12, s, pid, 0);
    for (uint64_t j = 0; j < k; j++) {
        uint64_t dst = bspram_random_below(p, 12, s, pid, 2 * j + 1);
        /* The lengths depend on the bytes received: the records see them. */
        uint64_t len = bspram_random_below(j % 50 ? 160 : 700, 12, s, pid, 2 * j + 2) + sum % 5;
        unsigned char *buf = bspram_send_buffer(c, dst, len);
        memset(buf, (int)((sum + j) & 0xff), (size_t)len);
    }
    if (pid % 7 == 0)
        memset(bspram__bsp_send_buffer_counted(c, (pid * 13) % p, 8, 8 + 100 * pid), 0, 8);
    bspram_work(c, sum % 17);
    return s < 4;
}

/* ---- combining: every species, several bases, physical delivery ---- */

static uint64_t gcd(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void combine_case(const char *name, uint64_t p, const char *basis, bspram_strategy strategy,
                         bspram_spread spread, bspram_physical physical, bspram_layout layout)
{
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_XXH3, 5);
    uint32_t seg = bspram_segment_alloc(s, 300, 8, layout);
    uint32_t seg2 = bspram_segment_alloc(s, 50, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(p);
    o.strategy = strategy;
    if (strategy == BSPRAM_STRATEGY_FIXED)
        bspram_basis_require(&o.basis, p, basis);
    o.spread = spread;
    o.physical = physical;
    o.seed = 99;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    unsigned op_gcd = bspram_combiner_add_op(C, "gcd", gcd, NULL, 0);
    const uint64_t q = 24;
    bspram_request *req = calloc(p * q, sizeof *req);
    uint64_t *first = calloc(p + 1, sizeof *first), *res = calloc(p * q, sizeof *res);
    for (int batch = 0; batch < 4; batch++) {
        for (uint64_t c = 0; c < p; c++) {
            first[c + 1] = first[c] + q;
            for (uint64_t j = 0; j < q; j++) {
                bspram_request *r = &req[c * q + j];
                uint64_t x = bspram_random_below(1000, 7, (uint64_t)batch, c, j);
                /* cells 0..99: reads and one update species per batch;
                 * 100..299 and seg2: other species by cell range */
                uint64_t cell = x % 300;
                r->value = x + 1;
                if (cell < 100) {
                    r->address = bspram_address(s, seg, cell % 7); /* high degree */
                    static const uint8_t kinds[4] = {BSPRAM_WRITE_ARBITRARY, BSPRAM_WRITE_PRIORITY, 0, 0};
                    r->kind = j % 3 == 0 ? BSPRAM_READ
                              : batch < 2 ? kinds[batch]
                              : batch == 2 ? bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64))
                                           : bspram_kind_reduce(op_gcd);
                } else if (cell < 200) {
                    r->address = bspram_address(s, seg, cell);
                    r->kind = bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_MAX, BSPRAM_TYPE_I64));
                } else {
                    r->address = bspram_address(s, seg2, cell % 50);
                    r->kind = j % 2 ? BSPRAM_READ
                                    : bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64));
                }
            }
        }
        bspram_combine(C, req, first, res, NULL);
    }
    /* A batch of common writes (all equal per cell) and a batch of reductions only. */
    for (uint64_t c = 0; c < p; c++)
        for (uint64_t j = 0; j < q; j++) {
            req[c * q + j].address = bspram_address(s, seg, (c + j) % 300);
            req[c * q + j].value = (c + j) % 300 * 3;
            req[c * q + j].kind = BSPRAM_WRITE_COMMON;
        }
    bspram_combine(C, req, first, res, NULL);
    for (uint64_t c = 0; c < p; c++)
        for (uint64_t j = 0; j < q; j++) {
            req[c * q + j].address = bspram_address(s, seg2, (c * 7 + j) % 50);
            req[c * q + j].kind = bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_F64));
            double v = (double)(c + j);
            memcpy(&req[c * q + j].value, &v, 8);
        }
    bspram_combine(C, req, first, NULL, NULL);
    uint64_t check = 0, cells[300];
    bspram_gather_cells(C, bspram_address(s, seg, 0), 300, cells); /* over MPI: from every rank */
    for (uint64_t t = 0; t < 300; t++)
        check = check * 31 + cells[t];
    for (uint64_t i = 0; i < p * q; i++)
        check = check * 31 + res[i];
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    print(name, rec, n);
    printf("%s,values,%016" PRIx64 "\n", name, check);
    free(req);
    free(first);
    free(res);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

static void combine(void)
{
    combine_case("combine-1phase", 64, "64", BSPRAM_STRATEGY_FIXED, BSPRAM_SPREAD_RANDOM,
                 BSPRAM_PHYSICAL_EXTRA_PHASE, BSPRAM_LAYOUT_HASHED);
    combine_case("combine-4x4x4", 64, "4x4x4", BSPRAM_STRATEGY_FIXED, BSPRAM_SPREAD_RANDOM,
                 BSPRAM_PHYSICAL_EXTRA_PHASE, BSPRAM_LAYOUT_HASHED);
    combine_case("combine-source", 60, "3x4x5", BSPRAM_STRATEGY_FIXED, BSPRAM_SPREAD_SOURCE,
                 BSPRAM_PHYSICAL_EXTRA_PHASE, BSPRAM_LAYOUT_HASHED);
    combine_case("combine-block-extra", 64, "8x8", BSPRAM_STRATEGY_FIXED, BSPRAM_SPREAD_RANDOM,
                 BSPRAM_PHYSICAL_EXTRA_PHASE, BSPRAM_LAYOUT_BLOCK);
    combine_case("combine-cyclic-direct", 64, "8x8", BSPRAM_STRATEGY_FIXED, BSPRAM_SPREAD_RANDOM,
                 BSPRAM_PHYSICAL_DIRECT_LAST, BSPRAM_LAYOUT_CYCLIC);
    combine_case("combine-auto", 512, NULL, BSPRAM_STRATEGY_AUTO, BSPRAM_SPREAD_RANDOM,
                 BSPRAM_PHYSICAL_EXTRA_PHASE, BSPRAM_LAYOUT_HASHED);
    combine_case("combine-adaptive", 4096, NULL, BSPRAM_STRATEGY_ADAPTIVE, BSPRAM_SPREAD_RANDOM,
                 BSPRAM_PHYSICAL_EXTRA_PHASE, BSPRAM_LAYOUT_HASHED);
}

/* ---- BSPlib: written to a trace by the library; the ctest's script reads it ---- */

static void bsplib_program(void)
{
    bsp_begin(3);
    unsigned s = bsp_pid(), p = bsp_nprocs();
    uint64_t cell[4] = {s, 0, 0, 0}, got = 0;
    bsp_push_reg(cell, sizeof cell);
    bsp_size_t tag = 4;
    bsp_set_tagsize(&tag);
    bsp_sync();
    for (unsigned t = 0; t < p; t++)
        bsp_put(t, &cell[0], cell, 8 * (1 + s), 8);
    bsp_get((s + 1) % p, cell, 0, &got, 8);
    uint32_t tg = s;
    static const char hello[8] = "hello"; /* up to 5 + 2 bytes are sent */
    bsp_send((s + 2) % p, &tg, hello, 5 + s);
    bsp_sync();
    enum { W = 700 };
    static uint64_t big[3][W], dst[3][W];
    bsp_push_reg(dst[s], sizeof dst[s]);
    bsp_sync();
    bsp_hpput((s + 1) % p, big[s], dst[s], 0, sizeof big[s]);
    bsp_put((s + 1) % p, big[s], dst[s], 0, 100);
    bsp_sync();
    bsp_pop_reg(dst[s]);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        threads = atoi(argv[1]);
    /* Built with libbspram-mpi and run under mpirun, every rank computes the
     * records: rank 0 prints them. (The values lines read cells and results
     * on one rank only: tests/mpi/records_golden.sh leaves them out.) */
    if (bspram_rank() != 0 && !freopen("/dev/null", "w", stdout))
        return 1;
    const char *what = argc > 2 ? argv[2] : "all";
    if (!strcmp(what, "bsplib")) {
        bsp_init(bsplib_program, argc, argv);
        bsplib_program();
        return 0;
    }
    printf("program,superstep,label,messages,bytes,q,r,charge,h_bytes,max_message,work\n");
    bulk_program("bulk", 1000, bulk_step);
    bulk_program("heavy", 4096, heavy_step);
    combine();
    return 0;
}
