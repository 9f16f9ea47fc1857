/* The records of BSPlib supersteps with bsp_shm requests (combine/bsp_shm.h).
 *
 * A program at P = 8 issues one superstep of reads, fetch-and-adds,
 * reductions on a block segment and arbitrary writes (with a put beside
 * them), an empty superstep that changes the basis to 2x4, and a superstep
 * of max-reductions and combining writes. Its trace (BSPRAM_TRACE) must show
 * after each superstep's "bsp_sync" row the combining phases — here
 * combine:forward:1..2 and combine:reverse:1..2 (auto is one phase at P = 8,
 * plus §5's extra phase for the block segment), then combine:forward:1..2
 * with no reverse flow (no answers) — and those rows must equal, column by
 * column, the records of the same two batches given to bspram_combine on a
 * machine of its own with the address space and options that bsp_shm.h
 * documents; the answers must be the host batch's too (each process checks
 * its own). The section runs twice: the two machines' rows are identical but
 * for the seconds. The host batches run before bsp_init, so that over MPI
 * every rank makes the machine's calls and has their answers and records;
 * pid 0's rank writes the trace, which main reads. */
#include <bsp.h>
#include <bsp_shm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsplib_check.h"

enum { P = 8, HASHED_CELLS = 64, BLOCK_CELLS = 16, Q1 = 4, Q3 = 2 };

/* Request j of process pid in superstep 1 (Q1 each) and 3 (Q3 each), as
 * (segment 1 or 2, index, kind, value). */
typedef struct req {
    unsigned seg;
    uint64_t index;
    uint8_t kind;
    uint64_t value;
} req;

static unsigned op(bspram_op_kind k) { return bspram_op_builtin(k, BSPRAM_TYPE_U64); }

static req request(unsigned step, unsigned pid, unsigned j)
{
    if (step == 1) {
        switch (j) {
        case 0: return (req){1, (pid * 7) % HASHED_CELLS, BSPRAM_READ, 0};
        case 1: return (req){1, 5, bspram_kind_fetch(op(BSPRAM_OP_SUM)), pid + 1};
        case 2: return (req){2, pid % BLOCK_CELLS, bspram_kind_reduce(op(BSPRAM_OP_SUM)), 1};
        default: return (req){1, 10 + pid, BSPRAM_WRITE_ARBITRARY, 100 + pid};
        }
    }
    if (j == 0)
        return (req){1, pid % 3, bspram_kind_reduce(op(BSPRAM_OP_MAX)), pid};
    return (req){1, 20, bspram_kind_combine_write(op(BSPRAM_OP_SUM)), 1};
}

/* The host's batches (made by main before bsp_init: on every MPI rank):
 * superstep 1's answers [pid][j] and the records. */
static uint64_t host_answers[P][Q1];
static bspram_record host_records[16];
static size_t n_host_records;

static void issue(unsigned step, const bsp_shm_t seg[2], unsigned pid, uint64_t *ans)
{
    unsigned n = step == 1 ? Q1 : Q3;
    for (unsigned j = 0; j < n; j++) {
        req r = request(step, pid, j);
        bsp_shm_t s = seg[r.seg - 1];
        if (r.kind == BSPRAM_READ)
            bsp_shm_read(s, r.index, &ans[j]);
        else if (r.kind == BSPRAM_WRITE_ARBITRARY)
            bsp_shm_write(s, r.index, BSP_SHM_ARBITRARY, &r.value);
        else if (r.kind >= 96)
            bsp_shm_combine_write(s, r.index, r.kind - 96u, &r.value);
        else if (r.kind >= 64)
            bsp_shm_fetch_op(s, r.index, r.kind - 64u, &r.value, &ans[j]);
        else
            bsp_shm_reduce(s, r.index, r.kind - 32u, &r.value);
    }
}

static void spmd(void)
{
    bsp_begin(P);
    const unsigned pid = bsp_pid();
    bsp_shm_t seg[2] = {bsp_shm_alloc(HASHED_CELLS, 8, BSP_SHM_HASHED),
                        bsp_shm_alloc(BLOCK_CELLS, 8, BSP_SHM_BLOCK)};
    uint64_t word = 0;
    bsp_push_reg(&word, sizeof word);
    bsp_sync(); /* row 0 */
    uint64_t mine = pid, answers[Q1] = {0};
    bsp_put((pid + 1) % P, &mine, &word, 0, sizeof mine);
    issue(1, seg, pid, answers);
    bsp_sync(); /* row 1 and the first batch */
    SPMD_CHECK(word == (pid + P - 1) % P);
    /* the answers: the host's; the reads of unwritten cells 0 */
    for (unsigned j = 0; j < 2; j++) /* j ≥ 2: writes and reductions, no answer */
        SPMD_CHECK(answers[j] == host_answers[pid][j]);
    bsp_shm_set_basis("2x4");
    bsp_sync(); /* no requests: no batch */
    issue(3, seg, pid, NULL);
    bsp_sync(); /* the second batch, on the basis 2x4 */
    bsp_pop_reg(&word);
    bsp_end();
}

typedef struct row {
    unsigned machine;
    unsigned long long step;
    char label[32];
    unsigned long long messages, bytes, q, r, charge, h_bytes, max_message;
} row;

static size_t read_trace(const char *path, row *rows, size_t max)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return 0;
    char line[512];
    CHECK(fgets(line, sizeof line, f) != NULL); /* the header */
    size_t n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        row *x = &rows[n];
        int k = sscanf(line, "%u,%llu,%31[^,],%llu,%llu,%llu,%llu,%llu,%llu,%llu", &x->machine,
                       &x->step, x->label, &x->messages, &x->bytes, &x->q, &x->r, &x->charge,
                       &x->h_bytes, &x->max_message);
        CHECK_EQ_U64(k, 10);
        n++;
    }
    fclose(f);
    return n;
}

static int same_record(const row *a, const bspram_record *b)
{
    return !strcmp(a->label, b->label) && a->messages == b->messages && a->bytes == b->bytes &&
           a->q == b->q && a->r == b->r && a->charge == b->charge && a->h_bytes == b->h_bytes &&
           a->max_message == b->max_message;
}

/* The same two batches from the host: bspram_combine with the space and the
 * options bsp_shm.h documents. Returns the records; answers of batch 1 in
 * answers_out. */
static size_t host(bspram_record *out, size_t max, uint64_t answers_out[P][Q1])
{
    bspram_config cfg = bspram_config_default(P);
    cfg.threads = 3; /* any: records do not depend on it */
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_space *s = bspram_space_create(P, BSPRAM_HASH_XXH3, 0);
    uint32_t segs[2] = {bspram_segment_alloc(s, HASHED_CELLS, 8, BSPRAM_LAYOUT_HASHED),
                        bspram_segment_alloc(s, BLOCK_CELLS, 8, BSPRAM_LAYOUT_BLOCK)};
    bspram_combine_options o = bspram_combine_defaults(P);
    o.strategy = BSPRAM_STRATEGY_AUTO;
    o.seed = 0;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    for (unsigned step = 1; step <= 3; step += 2) {
        unsigned q = step == 1 ? Q1 : Q3;
        bspram_request reqs[P * Q1];
        uint64_t first[P + 1], results[P * Q1];
        for (unsigned c = 0; c <= P; c++)
            first[c] = (uint64_t)c * q;
        for (unsigned c = 0; c < P; c++)
            for (unsigned j = 0; j < q; j++) {
                req r = request(step, c, j);
                reqs[c * q + j] = (bspram_request){bspram_address(s, segs[r.seg - 1], r.index),
                                                   r.value, r.kind, c};
            }
        if (step == 3) {
            bspram_basis_require(&o.basis, P, "2x4");
            o.strategy = BSPRAM_STRATEGY_FIXED;
            bspram_combiner_set_options(C, &o);
        }
        bspram_combine(C, reqs, first, results, NULL);
        if (step == 1)
            for (unsigned c = 0; c < P; c++)
                for (unsigned j = 0; j < Q1; j++)
                    answers_out[c][j] = results[c * Q1 + j];
    }
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    CHECK(n <= max);
    memcpy(out, rec, (n < max ? n : max) * sizeof *rec);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
    return n;
}

int main(int argc, char **argv)
{
    /* the host batches first, untraced */
    n_host_records = host(host_records, 16, host_answers);
    char path[64];
    snprintf(path, sizeof path, "/tmp/bspram_test_shm_records_%d.csv", (int)getpid());
    setenv("BSPRAM_TRACE", path, 1);
    bsp_init(spmd, argc, argv);
    for (int run = 0; run < 2; run++) {
        spmd();
        CHECK_SPMD("records");
    }
    unsetenv("BSPRAM_TRACE");

    static row rows[64];
    size_t n = read_trace(path, rows, 64);
    unlink(path);
    /* the labels, in order */
    static const char *const labels[] = {
        "bsp_sync", "bsp_sync", "combine:forward:1", "combine:forward:2", "combine:reverse:1",
        "combine:reverse:2", "bsp_sync", "bsp_sync", "combine:forward:1", "combine:forward:2",
        "bsp_end"};
    enum { NROWS = sizeof labels / sizeof labels[0] };
    CHECK_EQ_U64(n, 2 * NROWS);
    if (n != 2 * NROWS)
        return check_report("test_bsp_shm_records");
    for (size_t i = 0; i < NROWS; i++) {
        CHECK(strcmp(rows[i].label, labels[i]) == 0);
        CHECK_EQ_U64(rows[i].step, i);
        /* the second run: identical but for the machine number */
        const row *a = &rows[i], *b = &rows[NROWS + i];
        CHECK(a->machine != b->machine && a->step == b->step && !strcmp(a->label, b->label) &&
              a->messages == b->messages && a->bytes == b->bytes && a->q == b->q && a->r == b->r &&
              a->charge == b->charge && a->h_bytes == b->h_bytes &&
              a->max_message == b->max_message);
    }
    /* row 1: the puts alone (8 of 16 bytes); the requests are not in it */
    CHECK(rows[1].messages == P && rows[1].bytes == 16 * P && rows[1].charge == 1);
    /* the phases: the host batches' records, charge by charge */
    const bspram_record *h = host_records;
    CHECK_EQ_U64(n_host_records, 6);
    if (n_host_records == 6) {
        for (size_t i = 0; i < 4; i++)
            CHECK(same_record(&rows[2 + i], &h[i]));
        for (size_t i = 0; i < 2; i++)
            CHECK(same_record(&rows[8 + i], &h[4 + i]));
    }
    CHECK(rows[2].charge > 0 && rows[8].charge > 0);
    return check_report("test_bsp_shm_records");
}
