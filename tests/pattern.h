/* Random message patterns and their sequential reference, shared by the
 * router and machine tests. The pattern is a pure function of (seed, p,
 * superstep, component), computed independently of the router. */
#ifndef BSPRAM_TESTS_PATTERN_H
#define BSPRAM_TESTS_PATTERN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"

typedef struct pattern {
    uint64_t seed, p;
    uint64_t max_per_component; /* messages per component: uniform in [0, max] */
    uint64_t max_len;           /* payload length: uniform in [0, max_len] */
    int fan_in;                 /* every message goes to component 0 */
} pattern;

static inline uint64_t pattern_count(const pattern *pt, uint64_t s, uint64_t src)
{
    return bspram_random_below(pt->max_per_component + 1, pt->seed, s, src, 0x636f756e74ULL);
}
static inline uint64_t pattern_dst(const pattern *pt, uint64_t s, uint64_t src, uint64_t j)
{
    return pt->fan_in ? 0 : bspram_random_below(pt->p, pt->seed, s, src, 2 * j + 1);
}
static inline uint64_t pattern_len(const pattern *pt, uint64_t s, uint64_t src, uint64_t j)
{
    return bspram_random_below(pt->max_len + 1, pt->seed, s, src, 2 * j + 2);
}
static inline unsigned char pattern_byte(uint64_t s, uint64_t src, uint64_t j, uint64_t i)
{
    return (unsigned char)(src * 131 + s * 71 + j * 29 + i * 7 + (i >> 8));
}

/* Fill buf (len bytes) with the payload of message (s, src, j). */
static inline void pattern_fill(unsigned char *buf, uint64_t len, uint64_t s, uint64_t src, uint64_t j)
{
    for (uint64_t i = 0; i < len; i++)
        buf[i] = pattern_byte(s, src, j, i);
}

/* Component pid sends its messages of superstep s. */
static inline void pattern_send(bspram_component *c, const pattern *pt, uint64_t s, uint64_t pid)
{
    uint64_t k = pattern_count(pt, s, pid);
    for (uint64_t j = 0; j < k; j++) {
        uint64_t len = pattern_len(pt, s, pid, j);
        unsigned char *buf = bspram_send_buffer(c, pattern_dst(pt, s, pid, j), len);
        pattern_fill(buf, len, s, pid, j);
    }
}

/* The expected superstep: messages bucketed by destination in (src, j)
 * order, and the statistics computed here, not by the router. */
typedef struct expected_msg {
    uint64_t src, j, len;
} expected_msg;

typedef struct expected {
    uint64_t *start;       /* [p+1] into msgs, by destination */
    expected_msg *msgs;
    uint64_t messages, bytes, q, r, h_bytes, max_message;
} expected;

static inline void expected_build(expected *e, const pattern *pt, uint64_t s)
{
    uint64_t p = pt->p;
    uint64_t *cnt = calloc(p + 1, sizeof *cnt);
    uint64_t *bin = calloc(p, sizeof *bin), *bout = calloc(p, sizeof *bout);
    memset(e, 0, sizeof *e);
    for (uint64_t src = 0; src < p; src++) {
        uint64_t k = pattern_count(pt, s, src);
        if (k > e->q) e->q = k;
        for (uint64_t j = 0; j < k; j++) {
            uint64_t d = pattern_dst(pt, s, src, j), len = pattern_len(pt, s, src, j);
            cnt[d + 1]++;
            bin[d] += len;
            bout[src] += len;
            e->messages++;
            e->bytes += len;
            if (len > e->max_message) e->max_message = len;
        }
    }
    for (uint64_t d = 0; d < p; d++) {
        if (cnt[d + 1] > e->r) e->r = cnt[d + 1];
        if (bin[d] > e->h_bytes) e->h_bytes = bin[d];
        if (bout[d] > e->h_bytes) e->h_bytes = bout[d];
        cnt[d + 1] += cnt[d];
    }
    e->start = malloc((p + 1) * sizeof *e->start);
    memcpy(e->start, cnt, (p + 1) * sizeof *cnt);
    e->msgs = malloc((e->messages ? e->messages : 1) * sizeof *e->msgs);
    for (uint64_t src = 0; src < p; src++) {
        uint64_t k = pattern_count(pt, s, src);
        for (uint64_t j = 0; j < k; j++) {
            uint64_t d = pattern_dst(pt, s, src, j);
            e->msgs[cnt[d]++] = (expected_msg){src, j, pattern_len(pt, s, src, j)};
        }
    }
    free(cnt);
    free(bin);
    free(bout);
}

static inline void expected_free(expected *e)
{
    free(e->start);
    free(e->msgs);
}

/* Does the inbox of dst equal the expectation (order, sources, lengths,
 * bytes)? */
static inline int inbox_matches(const expected *e, uint64_t s, uint64_t dst,
                                const bspram_message *in, size_t n)
{
    if (n != e->start[dst + 1] - e->start[dst])
        return 0;
    for (size_t i = 0; i < n; i++) {
        const expected_msg *x = &e->msgs[e->start[dst] + i];
        if (in[i].src != x->src || in[i].len != x->len || in[i].dst != dst)
            return 0;
        const unsigned char *b = in[i].data;
        for (uint64_t k = 0; k < x->len; k++)
            if (b[k] != pattern_byte(s, x->src, x->j, k))
                return 0;
    }
    return 1;
}

#endif
