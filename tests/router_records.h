/* The sequential reference of a superstep's records for the router's tests
 * (test_router_channel, test_router_release): every component posts the
 * same number of actions, each `count` messages of `len` bytes to `dst`
 * (a run of n records of s bytes is n messages of s bytes), and the log's
 * record of superstep s must count them: messages, bytes, q and r (the
 * most any component sent and received), the charge max(q, r), h in bytes
 * and the largest message. Also the actions' type and their bytes. */
#ifndef BSPRAM_TESTS_ROUTER_RECORDS_H
#define BSPRAM_TESTS_ROUTER_RECORDS_H

#include <stdlib.h>

#include "check.h"
#include "router/router.h"

/* One action of a component: a message of `len` bytes, or a run of `count`
 * records of `size` bytes, to dst (`late`: a run filled after the
 * component's other actions). */
typedef struct action {
    uint64_t dst, len, count;
    uint32_t size;
    int run, late;
} action;

/* Byte b of the k-th record (or message) of action j of src in superstep s. */
static inline unsigned char byte_of(uint64_t s, uint64_t src, unsigned j, uint64_t k, uint64_t b)
{
    return (unsigned char)(s * 131 + src * 31 + j * 7 + k * 3 + b);
}

/* Action j of component src in superstep s, as the test posted it. */
typedef action router_action_fn(uint64_t p, uint64_t s, uint64_t src, unsigned j, uint64_t seed);

static inline void check_router_records(const bspram_log *log, uint64_t p, uint64_t supersteps, unsigned actions,
                                        uint64_t seed, router_action_fn *action_of)
{
    for (uint64_t s = 0; s < supersteps && s < log->n; s++) {
        uint64_t messages = 0, bytes = 0, q = 0, h = 0, largest = 0;
        uint64_t *rin = calloc(p, sizeof *rin), *bin = calloc(p, sizeof *bin);
        for (uint64_t src = 0; src < p; src++) {
            uint64_t qs = 0, bs = 0;
            for (unsigned j = 0; j < actions; j++) {
                const action a = action_of(p, s, src, j, seed);
                const uint64_t cnt = a.run ? a.count : 1, len = a.run ? a.size : a.len;
                qs += cnt;
                bs += cnt * len;
                rin[a.dst] += cnt;
                bin[a.dst] += cnt * len;
                largest = len > largest ? len : largest;
            }
            messages += qs;
            bytes += bs;
            q = qs > q ? qs : q;
            h = bs > h ? bs : h;
        }
        uint64_t rmax = 0;
        for (uint64_t d = 0; d < p; d++) {
            rmax = rin[d] > rmax ? rin[d] : rmax;
            h = bin[d] > h ? bin[d] : h;
        }
        const bspram_record *rec = &log->records[s];
        CHECK_EQ_U64(rec->messages, messages);
        CHECK_EQ_U64(rec->bytes, bytes);
        CHECK_EQ_U64(rec->q, q);
        CHECK_EQ_U64(rec->r, rmax);
        CHECK_EQ_U64(rec->charge, q > rmax ? q : rmax);
        CHECK_EQ_U64(rec->h_bytes, h);
        CHECK_EQ_U64(rec->max_message, largest);
        free(rin);
        free(bin);
    }
}

#endif
