/* The cost models (models/model.h) on hand-made supersteps, each price
 * worked out here by hand from the model's rule: BSP w + g·h + l; Bruck's
 * k ports (rounds, the OVER_PORTS flag); the switch; the bus and the shared
 * memory with k* channels; the ring (shorter way, ties up, congestion
 * against dilation); the torus (p = 12 as 3 × 4, p = 16, row then column);
 * the hypercube (dimension order; p = 6 not applicable); messages to
 * oneself free; NO_PATTERN; the price of a log; a BSPlib program pricing
 * itself; every error path. */
#include <math.h>
#include <string.h>

#include <bsp.h>

#include "bspram.h"
#include "check.h"

/* τ = 2, 1/b = 0.5: one message of m bytes costs 2 + m/2 on a channel. */
static bspram_model model(bspram_model_kind kind)
{
    bspram_model m = bspram_model_default(kind);
    m.startup = 2;
    m.per_byte = 0.5;
    m.ports = 2;
    m.k_star = 2;
    m.g = 0.25;
    m.l = 10;
    m.per_work = 3;
    return m;
}

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * (fabs(b) + 1); }
#define NEAR(a, b) CHECK(near((a), (b)))

static double price(bspram_model_kind kind, uint64_t p, const bspram_flow *f, size_t n,
                    unsigned *flags)
{
    bspram_model m = model(kind);
    bspram_record rec = {.messages = 0};
    for (size_t i = 0; i < n; i++) {
        rec.messages += f[i].messages;
        rec.bytes += f[i].bytes;
    }
    return bspram_model_superstep(&m, p, &rec, f, n, 1, flags);
}

static void record_models(void)
{
    unsigned flags;
    bspram_model m = model(BSPRAM_MODEL_BSP);
    bspram_record r = {.work = 4, .h_bytes = 100, .messages = 3};
    NEAR(bspram_model_superstep(&m, 4, &r, NULL, 0, 0, &flags), 4 * 3 + 0.25 * 100 + 10);
    CHECK_EQ_U64(flags, 0);
    bspram_record empty = {.messages = 0};
    NEAR(bspram_model_superstep(&m, 4, &empty, NULL, 0, 0, NULL), 10); /* l for every superstep */

    m = model(BSPRAM_MODEL_KPORT); /* k = 2 */
    bspram_record k = {.messages = 5, .q = 3, .r = 5, .max_message = 40};
    NEAR(bspram_model_superstep(&m, 8, &k, NULL, 0, 0, &flags), 3 * (2 + 0.5 * 40));
    CHECK_EQ_U64(flags, BSPRAM_MODEL_OVER_PORTS);
    k.q = k.r = 2;
    NEAR(bspram_model_superstep(&m, 8, &k, NULL, 0, 0, &flags), 1 * (2 + 0.5 * 40));
    CHECK_EQ_U64(flags, 0);
    NEAR(bspram_model_superstep(&m, 8, &empty, NULL, 0, 0, &flags), 0);

    m = model(BSPRAM_MODEL_SWITCH);
    bspram_record s = {.messages = 6, .q = 3, .r = 2, .h_bytes = 80};
    NEAR(bspram_model_superstep(&m, 8, &s, NULL, 0, 0, &flags), 3 * 2 + 80 * 0.5);
}

static void bus_and_memory(void)
{
    /* 0→1: 2 messages, 10 bytes: 2·2 + 5 = 9; 0→2: 1, 4: 4; 1→3: 1, 20: 12;
     * 2→2 (itself): free. Senders 0: 13, 1: 12; all 25. Receivers 1: 9,
     * 2: 4, 3: 12. */
    bspram_flow f[] = {{0, 1, 2, 10, 6}, {0, 2, 1, 4, 4}, {1, 3, 1, 20, 20}, {2, 2, 1, 100, 100}};
    unsigned flags;
    NEAR(price(BSPRAM_MODEL_BUS, 4, f, 4, &flags), 13);              /* max(13, 25/2) */
    CHECK_EQ_U64(flags, 0);
    NEAR(price(BSPRAM_MODEL_SHARED_MEMORY, 4, f, 4, &flags), 13 + 12.5); /* + max(12, 25/2) */
    bspram_model one = model(BSPRAM_MODEL_BUS);
    one.k_star = 1;
    bspram_record rec = {.messages = 5, .bytes = 134};
    NEAR(bspram_model_superstep(&one, 4, &rec, f, 4, 1, NULL), 25); /* one channel: all of it */
}

static void ring(void)
{
    unsigned flags;
    /* 0→3 on 8: three hops up, 2 + 50 each: dilation 156. */
    bspram_flow a[] = {{0, 3, 1, 100, 100}};
    NEAR(price(BSPRAM_MODEL_RING, 8, a, 1, &flags), 3 * 52);
    /* 0→1 (5 messages, 500 bytes: 260) and 7→1 (two hops up, 52 each)
     * share the link 0→1: 312 beats the dilation 104. */
    bspram_flow b[] = {{0, 1, 5, 500, 100}, {7, 1, 1, 100, 100}};
    NEAR(price(BSPRAM_MODEL_RING, 8, b, 2, &flags), 312);
    /* A tie goes up: 0→4 (10 messages, 100 bytes: 70) crosses 2→3, which
     * 2→3 (70) uses too: 140. Going down it would meet nothing (70). */
    bspram_flow c[] = {{0, 4, 10, 100, 10}, {2, 3, 10, 100, 10}};
    NEAR(price(BSPRAM_MODEL_RING, 8, c, 2, &flags), 140);
    /* The shorter way down: 0→6 is two hops down, sharing nothing with 2→3. */
    bspram_flow d[] = {{0, 6, 10, 100, 10}, {2, 3, 10, 100, 10}};
    NEAR(price(BSPRAM_MODEL_RING, 8, d, 2, &flags), 70);
    bspram_flow self[] = {{3, 3, 4, 400, 100}};
    NEAR(price(BSPRAM_MODEL_RING, 8, self, 1, &flags), 0);
}

static void torus(void)
{
    unsigned flags;
    /* p = 12: 3 rows × 4 columns, pid = row·4 + col. 0 → 11 (row 2, col 3):
     * along the row 0 → 3 one hop down (wrapping), then the column 0 → 2 one
     * hop down: 2 hops of 2 + 4 = 6. With 0 → 3 (3 messages, 24 bytes: 18)
     * on the same first link: 24. */
    bspram_flow a[] = {{0, 11, 1, 8, 8}};
    NEAR(price(BSPRAM_MODEL_TORUS, 12, a, 1, &flags), 12);
    bspram_flow b[] = {{0, 3, 3, 24, 8}, {0, 11, 1, 8, 8}};
    NEAR(price(BSPRAM_MODEL_TORUS, 12, b, 2, &flags), 24);
    /* The column move does not share the row's links: 0 → 8 (two rows
     * down... one hop down on a ring of 3) and 0 → 1 share nothing. */
    bspram_flow c[] = {{0, 8, 3, 24, 8}, {0, 1, 3, 24, 8}};
    NEAR(price(BSPRAM_MODEL_TORUS, 12, c, 2, &flags), 18);
    /* p = 16: 4 × 4; 0 → 10 (row 2, col 2): ties go up, 2 + 2 hops. */
    bspram_flow d[] = {{0, 10, 1, 8, 8}};
    NEAR(price(BSPRAM_MODEL_TORUS, 16, d, 1, &flags), 4 * 6);
    /* …through 1 → 2 along the row: with 1 → 2 (4 messages, 32 bytes: 24). */
    bspram_flow e[] = {{0, 10, 1, 8, 8}, {1, 2, 4, 32, 8}};
    NEAR(price(BSPRAM_MODEL_TORUS, 16, e, 2, &flags), 30);
}

static void hypercube(void)
{
    unsigned flags;
    /* 1 → 6 on the 3-cube: bits 0, 1, 2 in order: 1 → 0 → 2 → 6, 3 hops of 6. */
    bspram_flow a[] = {{1, 6, 1, 8, 8}};
    NEAR(price(BSPRAM_MODEL_HYPERCUBE, 8, a, 1, &flags), 18);
    CHECK_EQ_U64(flags, 0);
    /* 0 → 2 (3 messages, 24 bytes: 18) crosses bit 1 at node 0, as 1 → 6's
     * second hop does: 24. */
    bspram_flow b[] = {{0, 2, 3, 24, 8}, {1, 6, 1, 8, 8}};
    NEAR(price(BSPRAM_MODEL_HYPERCUBE, 8, b, 2, &flags), 24);
    bspram_flow six[] = {{1, 4, 1, 8, 8}};
    NEAR(price(BSPRAM_MODEL_HYPERCUBE, 6, six, 1, &flags), 0);
    CHECK_EQ_U64(flags, BSPRAM_MODEL_NOT_APPLICABLE);
}

static void logs(void)
{
    bspram_model m = model(BSPRAM_MODEL_BUS);
    bspram_record recs[3] = {{.messages = 1, .bytes = 10}, {.messages = 2, .bytes = 8},
                             {.messages = 0}};
    bspram_pattern pat = {0};
    bspram_flow *f = bspram_pattern_append(&pat, 0, 1);
    *f = (bspram_flow){0, 1, 1, 10, 10}; /* 2 + 5 = 7 */
    /* record 1 not kept: NO_PATTERN; record 2 kept and empty */
    bspram_pattern_append(&pat, 2, 0);
    bspram_model_total t = bspram_model_price(&m, 2, recs, 3, &pat);
    NEAR(t.seconds, 7);
    CHECK_EQ_U64(t.supersteps, 3);
    CHECK_EQ_U64(t.flagged, 1);
    CHECK_EQ_U64(t.flags, BSPRAM_MODEL_NO_PATTERN);
    t = bspram_model_price(&m, 2, recs, 3, NULL);
    CHECK_EQ_U64(t.flagged, 2);
    bspram_pattern_free(&pat);

    CHECK(!strcmp(bspram_model_name(BSPRAM_MODEL_SHARED_MEMORY), "shared-memory"));
    for (int k = 0; k < BSPRAM_MODELS; k++)
        CHECK_EQ_U64((uint64_t)bspram_model_parse(bspram_model_name((bspram_model_kind)k)),
                     (uint64_t)k);
    CHECK(bspram_model_parse("mesh") == -1);
}

/* A BSPlib program pricing its own supersteps: a ring shift of 100 bytes on
 * 4 processes (puts of 8 + 100 bytes to the right neighbour). */
static double prices[BSPRAM_MODELS];
static void spmd(void)
{
    bsp_begin(4);
    static char area[4][128];
    bsp_push_reg(area[bsp_pid()], 128);
    bsp_model_keep_pattern(1);
    bsp_sync();
    char data[100] = {0};
    bsp_put((bsp_pid() + 1) % 4, data, area[bsp_pid()], 0, 100);
    bsp_sync();
    for (int k = 0; k < BSPRAM_MODELS; k++) {
        bspram_model m = model((bspram_model_kind)k);
        bspram_model_total t = bsp_model_price(&m);
        if (bsp_pid() == 0)
            prices[k] = t.seconds;
    }
    bsp_end();
}

static void bsplib(void)
{
    bsp_init(spmd, 0, NULL);
    spmd();
    /* One superstep with 4 messages of 108 bytes, one per process to its right. */
    double one = 2 + 0.5 * 108;
    NEAR(prices[BSPRAM_MODEL_RING], one);        /* neighbours on the ring */
    NEAR(prices[BSPRAM_MODEL_BUS], 2 * one);     /* 4 messages over 2 channels */
    NEAR(prices[BSPRAM_MODEL_HYPERCUBE], 2 * one); /* 1 → 2 and 3 → 0 take two hops */
    NEAR(prices[BSPRAM_MODEL_KPORT], one);
}

static void bad_model(void *arg)
{
    bspram_model m = model(BSPRAM_MODEL_RING);
    int which = *(int *)arg;
    if (which == 0)
        m.startup = -1;
    if (which == 1)
        m.ports = 0;
    if (which == 2)
        m.k_star = 0;
    if (which == 3)
        m.kind = (bspram_model_kind)42;
    if (which == 4)
        m.per_byte = NAN;
    if (which == 7)
        m.g = NAN;
    if (which == 8)
        m.l = -INFINITY;
    if (which == 9)
        m.per_work = -1;
    bspram_record r = {.messages = 1};
    bspram_flow f = {0, 9, 1, 8, 8};
    if (which >= 7) /* the whole log's call names itself */
        bspram_model_price(&m, 4, &r, 1, NULL);
    bspram_model_superstep(&m, which == 5 ? 0 : 4, &r, &f, 1, 1, NULL);
}

int main(void)
{
    static const char *const lines[] = {
        "bspram_model_superstep(model=ring, p=4, startup=-1, per_byte=0.5, ports=2, k_star=2): startup must be finite and ≥ 0",
        "ports must be at least 1",
        "k_star must be at least 1",
        "bspram_model_superstep(model=unknown, p=4,",
        "per_byte must be finite and ≥ 0",
        "p must be at least 1",
        "bspram_model_superstep(model=ring, p=4): flow 0 goes from 0 to 9, outside [0, 4)",
        /* a NaN g passed as "g, l and per_work" without the value, and under
         * the name of bspram_model_superstep when bspram_model_price was called */
        "bspram: bspram_model_price(model=ring, p=4, startup=2, per_byte=0.5, ports=2, k_star=2): g must be finite and ≥ 0, not nan",
        "bspram_model_price(model=ring, p=4, startup=2, per_byte=0.5, ports=2, k_star=2): l must be finite and ≥ 0, not -inf",
        "bspram_model_price(model=ring, p=4, startup=2, per_byte=0.5, ports=2, k_star=2): per_work must be finite and ≥ 0, not -1"};
    int cases[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    for (int i = 0; i < 10; i++)
        check_death(lines[i], bad_model, &cases[i], lines[i], 1, 10);
    record_models();
    bus_and_memory();
    ring();
    torus();
    hypercube();
    logs();
    bsplib();
    return check_report("test_models");
}
