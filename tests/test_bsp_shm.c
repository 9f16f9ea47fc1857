/* bsp_shm (combine/bsp_shm.h) against a sequential reference, for
 * P = 1, 2, 3, 8 and 64.
 *
 * Part 1. Five segments of different widths and layouts (hashed, block,
 * cyclic; 8, 4 and 1 bytes). In each superstep every cell gets one species
 * — none, reads only, write arbitrary / priority / common, reduce, fetch-and-op
 * or combining write, each with one of the built-in operations or a user
 * operation — and every process issues a pseudo-random number of requests of
 * that species to it (0, 1 or 2), plus reads of random cells; all species are
 * mixed in one superstep on different cells. Pid 0 also reads every cell in
 * every superstep, which gives the memory before each superstep. The same
 * supersteps carry BSMP messages, puts and (every other superstep) gets, and
 * the basis changes (fixed, adaptive, auto:D) on the way. Every process logs
 * its requests and answers; at the end of the section it sends its log to
 * pid 0 (bsp_send), which keeps them for main. After the section main (pid
 * 0's thread) replays everything sequentially: every read equals the
 * cell before its superstep (and writes no byte beyond the cell's width);
 * every cell after a superstep is what the species makes of it (arbitrary:
 * one of the written values; priority: the lowest pid's earliest; common;
 * reduce and combining write with bspram_op_apply); fetch-and-op answers
 * are prefixes of the combining order (an order is rebuilt from them for
 * the cancellative operations; for min, max, and, or each answer lies
 * between the cell before and after). The section runs twice: every answer
 * must be the same (determinism).
 *
 * Part 2. Allocation cycles: a segment allocated, used, freed, in twelve
 * rounds with changing widths and layouts (the address space reuses
 * segment numbers: new segments must read 0), requests issued in the
 * superstep of a free still served, handles numbered by allocation, a
 * read answer landing in a registered area that a put also writes in the
 * same superstep (the answer wins), and a read served by bsp_end.
 *
 * Portable BSPlib (it runs over MPI too): one SPMD function, whose first
 * superstep tells every process which part the section runs (main's choice,
 * pid 0's alone over MPI); main's P only in bsp_begin and pid 0. */
#include <bsp.h>
#include <bsp_shm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"
#include "hash/random.h"

enum { NSEG = 5, NS = 5, MAXP = 64, SEED = 0x5eed };

static const struct segdef {
    uint64_t cells;
    unsigned width;
    bspram_layout layout;
} segdef[NSEG] = {
    {48, 8, BSP_SHM_HASHED}, {40, 8, BSP_SHM_CYCLIC}, {33, 4, BSP_SHM_BLOCK},
    {29, 1, BSP_SHM_HASHED}, {20, 8, BSP_SHM_BLOCK},
};

enum { SP_NONE, SP_READ, SP_ARB, SP_PRIO, SP_COMMON, SP_REDUCE, SP_FETCH, SP_CWRITE, SP_N };

/* Operations: the built-ins by name, and a user operation (index USER). */
static const char *const opname[] = {"sum:u64", "sum:i64", "prod:u64", "min:i64", "max:u64",
                                     "and:u64", "or:u64",  "xor:u64",  "sum:f64", "min:f64",
                                     "max:f64", "user"};
enum { NOPS = 12, USER = 11 };
/* For fetch-and-op: the cancellative ones (an order can be rebuilt). */
static int cancellative(unsigned o) { return o <= 1 || o == 7 || o == 8 || o == USER; }

#define M61 ((UINT64_C(1) << 61) - 1)
static uint64_t plus61(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return (a % M61 + b % M61) % M61; /* addition in Z_M61: the cell may hold any word */
}

static uint64_t apply(unsigned o, uint64_t a, uint64_t b)
{
    if (o == USER)
        return plus61(a, b, NULL);
    return bspram_op_apply((unsigned)bspram_op_parse(opname[o]), a, b);
}

static uint64_t mask(uint64_t v, unsigned w) { return w == 8 ? v : v & ((UINT64_C(1) << (8 * w)) - 1); }

static uint64_t of_double(double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    return v;
}

/* The species of a cell in superstep s, and its operation. */
static unsigned species(unsigned s, unsigned g, uint64_t cell, unsigned *op)
{
    uint64_t r = bspram_random3(SEED, s, g, cell);
    *op = (unsigned)((r >> 32) % NOPS);
    unsigned sp = (unsigned)(r % (segdef[g].width == 8 ? SP_N : SP_REDUCE));
    if (sp == SP_FETCH && *op == 2)
        *op = 0; /* no fetch-and-product: answers would not determine an order */
    return sp;
}

/* The value of request j of process pid at the cell. */
static uint64_t value_of(unsigned s, unsigned g, uint64_t cell, unsigned sp, unsigned op,
                         unsigned pid, unsigned j)
{
    uint64_t r = bspram_random3(SEED + 1, (uint64_t)s << 32 | g, cell, (uint64_t)pid << 8 | j);
    unsigned w = segdef[g].width;
    if (sp == SP_COMMON)
        return mask(bspram_random3(SEED + 2, s, g, cell), w);
    if (sp < SP_REDUCE)
        return mask(r, w);
    switch (op) {
    case 0: case 1: return 1 + r % 1000;
    case 2: return 1 + r % 4;
    case 8: return of_double((double)(1 + r % 1000));
    case 9: case 10: return of_double((double)((int)(r % 2001) - 1000));
    case USER: return r % M61;
    default: return r;
    }
}

/* One request as logged by its process (in issue order). */
typedef struct entry {
    uint16_t step;
    uint8_t seg, sp, op, snapshot;
    uint32_t cell;
    uint64_t value;
    unsigned char ans[8]; /* the answer's bytes; 0xAA beyond what was written */
} entry;

static unsigned P;
/* Every process's log of runs 0 and 1, as pid 0 received them: pid 0's
 * (main's process), written by it alone and read by main. caplog is set by
 * main before bsp_init (on every MPI rank). */
static entry *logs[2][MAXP];
static size_t nlog[2][MAXP], caplog;
static int run; /* main's: 0 or 1, which log pid 0 fills */

/* One process's own log, in issue order. */
typedef struct plog {
    entry *e;
    size_t n;
} plog;

/* A new entry (padding zeroed: the runs' logs are compared byte for byte). */
static entry *new_entry(plog *log, unsigned s, unsigned g, unsigned sp, unsigned op,
                        int snapshot, uint64_t cell, uint64_t value)
{
    if (log->n == caplog) {
        fprintf(stderr, "test_bsp_shm: log full\n");
        abort();
    }
    entry *e = &log->e[log->n++];
    memset(e, 0, sizeof *e);
    e->step = (uint16_t)s;
    e->seg = (uint8_t)g;
    e->sp = (uint8_t)sp;
    e->op = (uint8_t)op;
    e->snapshot = (uint8_t)snapshot;
    e->cell = (uint32_t)cell;
    e->value = value;
    memset(e->ans, 0xAA, sizeof e->ans);
    return e;
}

static void fixed_basis(char *buf, size_t len, unsigned p)
{
    if (p == 64)
        snprintf(buf, len, "4x4x4");
    else if (p == 8)
        snprintf(buf, len, "2x4");
    else
        snprintf(buf, len, "%u", p);
}

/* Part 1: the requests of one run, logged; the logs end at pid 0. */
static void requests(void)
{
    const unsigned p = bsp_nprocs(), pid = bsp_pid();
    plog log = {malloc(caplog * sizeof(entry)), 0};
    unsigned ops[NOPS];
    for (unsigned o = 0; o < USER; o++)
        ops[o] = (unsigned)bspram_op_parse(opname[o]);
    ops[USER] = bsp_shm_add_op("plus61", plus61, NULL, 0);
    SPMD_CHECK(ops[USER] == BSPRAM_BUILTIN_OPS);
    bsp_shm_t seg[NSEG];
    for (unsigned g = 0; g < NSEG; g++) {
        seg[g] = bsp_shm_alloc(segdef[g].cells, segdef[g].width, segdef[g].layout);
        SPMD_CHECK((seg[g] & UINT32_MAX) == g + 1 && seg[g] >> 32 == seg[0] >> 32);
    }
    /* DRMA beside the requests: a word each process puts to the next one,
     * and one it gets from it. */
    uint64_t box[2] = {0, 0}, got = 0;
    bsp_push_reg(box, sizeof box);
    bsp_size_t tagsize = sizeof(uint32_t);
    bsp_set_tagsize(&tagsize);
    bsp_sync();

    const unsigned next = (pid + 1) % p;
    for (unsigned s = 1; s <= NS + 1; s++) {
        char text[32];
        if (s == 2) {
            fixed_basis(text, sizeof text, p);
            bsp_shm_set_basis(text);
        } else if (s == 3) {
            bsp_shm_set_basis("adaptive");
        } else if (s == 4) {
            snprintf(text, sizeof text, "auto:%u", p < 4 ? p : 4);
            bsp_shm_set_basis(text);
        } else if (s == 5) {
            bsp_shm_set_basis("auto");
        }
        for (unsigned g = 0; s <= NS && g < NSEG; g++) {
            for (uint64_t cell = 0; cell < segdef[g].cells; cell++) {
                unsigned op, sp = species(s, g, cell, &op);
                uint64_t r = bspram_random3(SEED + 3, (uint64_t)s << 32 | g, cell, pid);
                if (r % 4 == 0) { /* a read of any cell */
                    entry *e = new_entry(&log, s, g, SP_READ, 0, 0, cell, 0);
                    bsp_shm_read(seg[g], cell, e->ans);
                }
                if (sp <= SP_READ)
                    continue;
                unsigned count = (unsigned)((r >> 8) % 3);
                for (unsigned j = 0; j < count; j++) {
                    uint64_t v = value_of(s, g, cell, sp, op, pid, j);
                    entry *e = new_entry(&log, s, g, sp, op, 0, cell, v);
                    unsigned char bytes[8];
                    memcpy(bytes, &v, 8); /* little-endian: the low bytes first */
                    switch (sp) {
                    case SP_ARB: bsp_shm_write(seg[g], cell, BSP_SHM_ARBITRARY, bytes); break;
                    case SP_PRIO: bsp_shm_write(seg[g], cell, BSP_SHM_PRIORITY, bytes); break;
                    case SP_COMMON: bsp_shm_write(seg[g], cell, BSP_SHM_COMMON, bytes); break;
                    case SP_REDUCE: bsp_shm_reduce(seg[g], cell, ops[op], &v); break;
                    case SP_FETCH: bsp_shm_fetch_op(seg[g], cell, ops[op], &v, e->ans); break;
                    default: bsp_shm_combine_write(seg[g], cell, ops[op], &v); break;
                    }
                }
            }
        }
        if (pid == 0) /* the memory before this superstep */
            for (unsigned g = 0; g < NSEG; g++)
                for (uint64_t cell = 0; cell < segdef[g].cells; cell++) {
                    entry *e = new_entry(&log, s, g, SP_READ, 0, 1, cell, 0);
                    bsp_shm_read(seg[g], cell, e->ans);
                }
        /* BSMP and DRMA in the same superstep */
        uint32_t tag = s;
        uint64_t payload[2] = {s, pid};
        bsp_send(next, &tag, payload, sizeof payload);
        uint64_t word = 1000u * s + pid;
        bsp_put(next, &word, box, 0, sizeof word);
        if (s % 2 == 0)
            bsp_get(next, box, sizeof(uint64_t), &got, sizeof got);
        box[1] = 7000u * s + pid; /* what the gets of this superstep read: before the sync */
        bsp_sync();
        bsp_nprocs_t packets;
        bsp_size_t bytes;
        bsp_qsize(&packets, &bytes);
        SPMD_CHECK(packets == 1 && bytes == sizeof payload);
        bsp_size_t status;
        uint32_t rtag = 0;
        bsp_get_tag(&status, &rtag);
        uint64_t in[2] = {0, 0};
        bsp_move(in, sizeof in);
        const unsigned prev = (pid + p - 1) % p;
        SPMD_CHECK(status == sizeof payload && rtag == s && in[0] == s && in[1] == prev);
        SPMD_CHECK(box[0] == 1000u * s + prev);
        if (s % 2 == 0)
            SPMD_CHECK(got == 7000u * s + next);
    }
    bsp_pop_reg(box);
    /* Every log to pid 0, a message each tagged with its pid (the answers
     * have all landed: the last sync served the last reads). */
    uint32_t me = pid;
    bsp_send(0, &me, log.e, log.n * sizeof(entry));
    bsp_sync();
    if (pid == 0) {
        bsp_nprocs_t packets;
        bsp_size_t bytes;
        bsp_qsize(&packets, &bytes);
        SPMD_CHECK(packets == p);
        for (bsp_nprocs_t k = 0; k < packets; k++) {
            bsp_size_t status;
            uint32_t from = UINT32_MAX;
            bsp_get_tag(&status, &from);
            int fits = from < p && status <= caplog * sizeof(entry) && status % sizeof(entry) == 0;
            SPMD_CHECK(fits);
            bsp_move(fits ? (void *)logs[run][from] : NULL, fits ? status : 0);
            if (fits)
                nlog[run][from] = status / sizeof(entry);
        }
    }
    free(log.e);
}

/* ---- the sequential replay ---- */

typedef struct cellacc {
    unsigned n;         /* update requests */
    uint64_t combined;  /* ⊕ of their values (reduce, fetch, combining write) */
    uint64_t first;     /* priority: the lowest pid's earliest */
    uint64_t common;
    int common_differs;
} cellacc;

static uint64_t ans_value(const entry *e, unsigned w) /* and its bytes beyond w untouched */
{
    uint64_t v = 0;
    memcpy(&v, e->ans, 8);
    int clean = 1;
    for (unsigned i = w; i < 8; i++)
        clean &= e->ans[i] == 0xAA;
    CHECK(clean);
    return mask(v, w);
}

static int cell_index(unsigned g, uint64_t cell)
{
    int base = 0;
    for (unsigned k = 0; k < g; k++)
        base += (int)segdef[k].cells;
    return base + (int)cell;
}

static void replay(void)
{
    enum { TOTAL = 48 + 40 + 33 + 29 + 20 };
    static uint64_t before[NS + 2][TOTAL];
    /* the snapshots: pid 0's reads with the snapshot flag */
    for (size_t i = 0; i < nlog[0][0]; i++) {
        const entry *e = &logs[0][0][i];
        if (e->snapshot)
            before[e->step][cell_index(e->seg, e->cell)] = ans_value(e, segdef[e->seg].width);
    }
    for (int c = 0; c < TOTAL; c++)
        CHECK_EQ_U64(before[1][c], 0); /* segments start at 0 */
    int bad_reads = 0, bad_cells = 0, bad_fetch = 0;
    for (unsigned s = 1; s <= NS; s++) {
        static cellacc acc[TOTAL];
        memset(acc, 0, sizeof acc);
        for (unsigned q = 0; q < P; q++) /* pid order, then issue order */
            for (size_t i = 0; i < nlog[0][q]; i++) {
                const entry *e = &logs[0][q][i];
                if (e->step != s)
                    continue;
                int c = cell_index(e->seg, e->cell);
                unsigned w = segdef[e->seg].width;
                if (e->sp == SP_READ) {
                    bad_reads += ans_value(e, w) != before[s][c];
                    continue;
                }
                cellacc *a = &acc[c];
                if (a->n == 0) {
                    a->first = a->common = e->value;
                    a->combined = e->value;
                } else {
                    a->combined = apply(e->op, a->combined, e->value);
                    a->common_differs |= e->value != a->common;
                }
                a->n++;
            }
        for (unsigned g = 0; g < NSEG; g++)
            for (uint64_t cell = 0; cell < segdef[g].cells; cell++) {
                int c = cell_index(g, cell);
                unsigned op, sp = species(s, g, cell, &op);
                const cellacc *a = &acc[c];
                uint64_t b = before[s][c], after = before[s + 1][c], expect = b;
                if (a->n) {
                    switch (sp) {
                    case SP_PRIO: expect = a->first; break;
                    case SP_COMMON: CHECK(!a->common_differs); expect = a->common; break;
                    case SP_REDUCE: case SP_FETCH: expect = apply(op, b, a->combined); break;
                    case SP_CWRITE: expect = a->combined; break;
                    case SP_ARB: { /* one of the written values */
                        int found = 0;
                        for (unsigned q = 0; q < P; q++)
                            for (size_t i = 0; i < nlog[0][q]; i++) {
                                const entry *e = &logs[0][q][i];
                                found |= e->step == s && e->sp == SP_ARB &&
                                         cell_index(e->seg, e->cell) == c && e->value == after;
                            }
                        CHECK(found);
                        expect = after;
                        break;
                    }
                    default: break;
                    }
                }
                if (expect != after) {
                    bad_cells++;
                    fprintf(stderr, "P=%u superstep %u segment %u cell %llu (species %u, %s): "
                            "%llx, expected %llx\n", P, s, g, (unsigned long long)cell, sp,
                            opname[op], (unsigned long long)after, (unsigned long long)expect);
                }
                if (sp != SP_FETCH || !a->n)
                    continue;
                /* fetch-and-op: the answers are prefixes of some order */
                entry *f[2 * MAXP];
                unsigned nf = 0;
                for (unsigned q = 0; q < P; q++)
                    for (size_t i = 0; i < nlog[0][q]; i++) {
                        entry *e = &logs[0][q][i];
                        if (e->step == s && e->sp == SP_FETCH && cell_index(e->seg, e->cell) == c)
                            f[nf++] = e;
                    }
                if (cancellative(op)) {
                    uint64_t cur = b;
                    for (unsigned k = 0; k < nf; k++) { /* the next one answers cur */
                        unsigned m = k;
                        while (m < nf && ans_value(f[m], 8) != cur)
                            m++;
                        if (m == nf) {
                            bad_fetch++;
                            fprintf(stderr, "P=%u superstep %u segment %u cell %llu: fetch(%s) "
                                    "answers are no prefixes of an order (before %llx):", P, s, g,
                                    (unsigned long long)cell, opname[op], (unsigned long long)b);
                            for (unsigned x = 0; x < nf; x++)
                                fprintf(stderr, " %llx->%llx", (unsigned long long)f[x]->value,
                                        (unsigned long long)ans_value(f[x], 8));
                            fprintf(stderr, "\n");
                            break;
                        }
                        entry *t = f[m];
                        f[m] = f[k];
                        f[k] = t;
                        cur = apply(op, cur, t->value);
                    }
                } else {
                    int first = 0;
                    for (unsigned k = 0; k < nf; k++) {
                        uint64_t x = ans_value(f[k], 8);
                        first |= x == b;
                        bad_fetch += apply(op, b, x) != x || apply(op, x, after) != after;
                    }
                    bad_fetch += !first;
                    if (!first)
                        fprintf(stderr, "P=%u superstep %u segment %u cell %llu: fetch(%s): no "
                                "answer is the value before\n", P, s, g, (unsigned long long)cell,
                                opname[op]);
                }
            }
    }
    CHECK(bad_reads == 0);
    CHECK(bad_cells == 0);
    CHECK(bad_fetch == 0);
    if (bad_reads || bad_fetch)
        fprintf(stderr, "P=%u: %d reads, %d fetch answers wrong\n", P, bad_reads, bad_fetch);
}

/* ---- part 2: allocation cycles ---- */

static uint64_t end_read; /* pid 0's read served by bsp_end */

/* Part 2. */
static void cycles(void)
{
    const unsigned p = bsp_nprocs(), pid = bsp_pid(), next = (pid + 1) % p;
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    bsp_shm_t a = bsp_shm_alloc(6, 8, BSP_SHM_HASHED);
    uint64_t area[2] = {0, 0};
    bsp_push_reg(area, sizeof area);
    bsp_sync();
    uint64_t one = 1, count = 0;
    for (unsigned r = 0; r < 12; r++) {
        const uint64_t cells = 5 + r;
        const unsigned w = 1 + r % 8;
        bsp_shm_t c = bsp_shm_alloc(cells, w, (bspram_layout)(r % 3));
        SPMD_CHECK((c & UINT32_MAX) == 2 + r && c >> 32 == a >> 32);
        bsp_shm_reduce(a, r % 6, sum, &one);
        bsp_sync();
        /* c is live: everyone writes (priority) and reads the zeros before */
        uint64_t v = mask(UINT64_C(0x0102030405060708) * (pid + 1), w);
        bsp_shm_write(c, pid % cells, BSP_SHM_PRIORITY, &v);
        unsigned char zeros[17][8];
        memset(zeros, 0xAA, sizeof zeros);
        for (uint64_t i = 0; i < cells; i++)
            bsp_shm_read(c, i, zeros[i]);
        bsp_shm_read(a, r % 6, &count);
        /* a read answer into a registered area that the previous process
         * puts into in the same superstep: the answer is written last */
        uint64_t junk = 99;
        bsp_put(next, &junk, area, 0, sizeof junk);
        bsp_shm_read(a, r % 6, &area[0]);
        bsp_sync();
        int ok = 1;
        for (uint64_t i = 0; i < cells; i++) {
            uint64_t x = 0;
            memcpy(&x, zeros[i], w);
            ok &= x == 0;
            for (unsigned b = w; b < 8; b++)
                ok &= zeros[i][b] == 0xAA;
        }
        SPMD_CHECK(ok);
        SPMD_CHECK(count == (r / 6 + 1) * p);
        SPMD_CHECK(area[0] == count);
        /* the winners, read in the superstep of the free (still served) */
        uint64_t got[17];
        for (uint64_t i = 0; i < cells; i++) {
            got[i] = 0;
            bsp_shm_read(c, i, &got[i]);
        }
        bsp_shm_free(c);
        bsp_sync();
        for (uint64_t i = 0; i < cells; i++) {
            uint64_t expect = i < p ? mask(UINT64_C(0x0102030405060708) * (i + 1), w) : 0;
            SPMD_CHECK(got[i] == expect);
        }
    }
    /* bsp_end is a last sync: it serves this read (and the free) too */
    if (pid == 0)
        bsp_shm_read(a, 0, &end_read);
    bsp_shm_free(a);
    bsp_pop_reg(area);
}

enum { REQUESTS, CYCLES };
static int part; /* main's: what the next section runs */

/* One SPMD function for both parts: over MPI the other ranks run bsp_init's
 * first function in every section. */
static void spmd(void)
{
    bsp_begin(P);
    if (spmd_int_from_pid0(&part) == REQUESTS)
        requests();
    else
        cycles();
    bsp_end();
}

int main(int argc, char **argv)
{
    static const unsigned ps[] = {1, 2, 3, 8, 64};
    caplog = (NS + 1) * (48 + 40 + 33 + 29 + 20) * 4;
    for (int r = 0; r < 2; r++)
        for (unsigned q = 0; q < MAXP; q++)
            logs[r][q] = malloc(caplog * sizeof(entry));
    bsp_init(spmd, argc, argv);
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        P = ps[k];
        part = REQUESTS;
        for (run = 0; run < 2; run++) {
            memset(nlog[run], 0, sizeof nlog[run]);
            spmd();
            CHECK_SPMD("requests");
        }
        replay();
        int same = 1;
        for (unsigned q = 0; q < P; q++)
            same &= nlog[0][q] == nlog[1][q] &&
                    memcmp(logs[0][q], logs[1][q], nlog[0][q] * sizeof(entry)) == 0;
        CHECK(same); /* the same answers in both runs */
        part = CYCLES;
        end_read = 0;
        spmd();
        CHECK_SPMD("allocation cycles");
        CHECK_EQ_U64(end_read, 2 * P); /* cell 0: rounds 0 and 6 added 1 per process */
        printf("P=%u done\n", P);
        fflush(stdout);
    }
    for (int r = 0; r < 2; r++)
        for (unsigned q = 0; q < MAXP; q++)
            free(logs[r][q]);
    return check_report("test_bsp_shm");
}
