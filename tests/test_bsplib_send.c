/* BSMP: bsp_send/bsp_hpsend, bsp_set_tagsize, bsp_qsize, bsp_get_tag,
 * bsp_move, bsp_hpmove — all-to-all by sends for every P; tags; the tag size
 * takes effect at the next sync and returns the previous one; messages are
 * readable in the next superstep only; 0-byte payloads; the status
 * conventions on an empty queue. */
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"

static unsigned P;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();

    bsp_size_t tagsize = sizeof(uint32_t);
    bsp_set_tagsize(&tagsize);
    SPMD_CHECK(tagsize == 0); /* the previous (initial) tag size */
    bsp_sync();

    /* all-to-all: to t, tag = s, payload = t+1 words of value s*t */
    for (unsigned t = 0; t < p; t++) {
        uint32_t tag = s;
        uint64_t *pay = malloc((t + 1) * sizeof *pay);
        for (unsigned i = 0; i <= t; i++)
            pay[i] = (uint64_t)s * t;
        (t % 2 ? bsp_hpsend : bsp_send)(t, &tag, pay, (t + 1) * sizeof *pay);
        free(pay);
    }
    bsp_nprocs_t packets = 99;
    bsp_size_t bytes = 99;
    bsp_qsize(&packets, &bytes);
    SPMD_CHECK(packets == 0 && bytes == 0); /* not before the sync */
    tagsize = 0;
    bsp_set_tagsize(&tagsize); /* back to 0 from the next superstep */
    SPMD_CHECK(tagsize == sizeof(uint32_t));
    bsp_sync();

    bsp_qsize(&packets, &bytes);
    SPMD_CHECK(packets == p && bytes == (size_t)p * (s + 1) * sizeof(uint64_t));
    int seen[64] = {0};
    for (unsigned i = 0; i < p; i++) {
        bsp_size_t status;
        uint32_t tag;
        bsp_get_tag(&status, &tag);
        SPMD_CHECK(tag < p && status == (s + 1) * sizeof(uint64_t));
        SPMD_CHECK(tag == i); /* queue order: by source pid */
        seen[tag % 64]++;
        if (i % 2) {
            uint64_t buf[64];
            bsp_move(buf, sizeof buf);
            for (unsigned k = 0; k <= s; k++)
                SPMD_CHECK(buf[k] == (uint64_t)tag * s);
        } else {
            void *t, *pl;
            bsp_size_t len = bsp_hpmove(&t, &pl);
            SPMD_CHECK(len == status && (uintptr_t)pl % 8 == 0);
            uint32_t tg;
            memcpy(&tg, t, sizeof tg);
            SPMD_CHECK(tg == tag);
            for (unsigned k = 0; k <= s; k++)
                SPMD_CHECK(((const uint64_t *)pl)[k] == (uint64_t)tag * s);
        }
    }
    for (unsigned i = 0; i < p && i < 64; i++)
        SPMD_CHECK(seen[i] == 1);

    /* empty queue: get_tag gives −1, hpmove returns −1 */
    bsp_size_t status = 0;
    bsp_get_tag(&status, NULL);
    SPMD_CHECK(status == (bsp_size_t)-1);
    void *t = &status, *pl = &status;
    SPMD_CHECK(bsp_hpmove(&t, &pl) == (bsp_size_t)-1 && t == &status);

    /* 0-byte payloads with tag size 0; bsp_move of a short payload copies
     * only what there is; messages do not survive the following sync */
    bsp_send((s + 1) % p, NULL, NULL, 0);
    bsp_send((s + 1) % p, NULL, "abc", 3);
    bsp_sync();
    bsp_qsize(&packets, &bytes);
    SPMD_CHECK(packets == 2 && bytes == 3);
    bsp_get_tag(&status, NULL);
    SPMD_CHECK(status == 0);
    bsp_move(NULL, 0);
    char buf[8] = "xxxxxxx";
    bsp_move(buf, sizeof buf);
    SPMD_CHECK(memcmp(buf, "abcxxxx", 7) == 0);
    bsp_send(s, NULL, "z", 1);
    bsp_sync();
    bsp_sync();
    bsp_qsize(&packets, &bytes);
    SPMD_CHECK(packets == 0 && bytes == 0);
    bsp_end();
}

int main(int argc, char **argv)
{
    return bsplib_test_every_p(argc, argv, spmd, &P, "BSMP", "test_bsplib_send");
}
