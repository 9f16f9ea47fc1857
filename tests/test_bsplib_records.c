/* Every BSPlib superstep lands in the machine's records, and BSPRAM_TRACE
 * writes them at bsp_end. Expected rows follow from the message format that
 * bsp.h documents (a put of n bytes is 8 + n bytes, a get request 32 and its
 * reply 8 + n, a send 8 + ⌈tag⌉₈ + n, an hpput of n bytes — by reference
 * from 4096 bytes on — still 8 + n), worked out by hand for P = 4. */
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsplib_check.h"

static void spmd(void)
{
    bsp_begin(4);
    const unsigned s = bsp_pid(), next = (s + 1) % 4;
    uint64_t cell = s, got = 0;
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync(); /* row 0: nothing moves */
    bsp_put(next, &cell, &cell, 0, sizeof cell);
    bsp_sync(); /* row 1: 4 puts of 16 bytes */
    bsp_get(next, &cell, 0, &got, sizeof got);
    bsp_sync(); /* rows 2, 3: 4 requests of 32 bytes, then 4 replies of 16 */
    enum { W = 1024 }; /* 8 KiB: an unbuffered hpput */
    uint64_t *src = malloc(W * sizeof *src), *dst = calloc(W, sizeof *dst);
    for (unsigned i = 0; i < W; i++)
        src[i] = 1000003u * s + i;
    bsp_push_reg(dst, W * sizeof *dst);
    bsp_sync(); /* row 4: nothing moves */
    bsp_hpput(next, src, dst, 0, W * sizeof *src);
    bsp_sync(); /* row 5: 4 hpputs counted as 8 + 8192 bytes */
    for (unsigned i = 0; i < W; i++) /* the sync has copied the sources: reuse is safe */
        src[i] = 0;
    unsigned prev = (s + 3) % 4;
    int same = 1;
    for (unsigned i = 0; i < W; i++)
        same &= dst[i] == 1000003u * prev + i;
    SPMD_CHECK(same);
    free(src);
    bsp_pop_reg(dst);
    bsp_send(0, NULL, "abc", 3);
    bsp_sync(); /* row 6: 4 sends of 11 bytes, all to pid 0 */
    free(dst); /* unregistered by that sync */
    bsp_pop_reg(&cell);
    bsp_end(); /* row 7 */
}

struct row {
    char label[32];
    unsigned long long messages, bytes, q, r, charge, h_bytes, max_message;
};

int main(int argc, char **argv)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/bspram_test_records_%d.csv", (int)getpid());
    setenv("BSPRAM_TRACE", path, 1);
    bsp_init(spmd, argc, argv);
    spmd();
    CHECK_SPMD("records");

    static const struct row expect[] = {
        {"bsp_sync", 0, 0, 0, 0, 0, 0, 0},
        {"bsp_sync", 4, 64, 1, 1, 1, 16, 16},
        {"bsp_sync", 4, 128, 1, 1, 1, 32, 32},
        {"bsp_sync:get", 4, 64, 1, 1, 1, 16, 16},
        {"bsp_sync", 0, 0, 0, 0, 0, 0, 0},
        {"bsp_sync", 4, 4 * 8200, 1, 1, 1, 8200, 8200},
        {"bsp_sync", 4, 44, 1, 4, 4, 44, 11},
        {"bsp_end", 0, 0, 0, 0, 0, 0, 0},
    };
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return check_report("test_bsplib_records");
    char line[512];
    CHECK(fgets(line, sizeof line, f) != NULL);
    static const char header[] = "machine,superstep,label,messages,bytes,q,r,charge,h_bytes,max_message,";
    CHECK(strncmp(line, header, sizeof header - 1) == 0);
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        struct row got;
        unsigned machine;
        unsigned long long step, work;
        double seconds, exchange_seconds;
        int k = sscanf(line, "%u,%llu,%31[^,],%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%lf,%lf",
                       &machine, &step, got.label, &got.messages, &got.bytes, &got.q, &got.r,
                       &got.charge, &got.h_bytes, &got.max_message, &work, &seconds,
                       &exchange_seconds);
        CHECK_EQ_U64(k, 13);
        CHECK(n < sizeof expect / sizeof expect[0]);
        if (k != 13 || n >= sizeof expect / sizeof expect[0])
            break;
        /* The exchange is part of its superstep: 0 <= exchange_seconds <= seconds. */
        CHECK(exchange_seconds >= 0 && exchange_seconds <= seconds);
        const struct row *e = &expect[n];
        CHECK_EQ_U64(step, n);
        CHECK(strcmp(got.label, e->label) == 0);
        CHECK_EQ_U64(got.messages, e->messages);
        CHECK_EQ_U64(got.bytes, e->bytes);
        CHECK_EQ_U64(got.q, e->q);
        CHECK_EQ_U64(got.r, e->r);
        CHECK_EQ_U64(got.charge, e->charge);
        CHECK_EQ_U64(got.h_bytes, e->h_bytes);
        CHECK_EQ_U64(got.max_message, e->max_message);
        n++;
    }
    CHECK_EQ_U64(n, sizeof expect / sizeof expect[0]);
    fclose(f);
    unlink(path);
    return check_report("test_bsplib_records");
}
