/* A sequential PRAM for the tests: one array of m cells and the rules of
 * pram/pram.h applied one request at a time, in VP order. The arbitrary
 * rule is the engine's exact one (combine.h): of the writes to a cell, the
 * request with the least bspram_random2(seed, component, request index)
 * wins (ties by least value), where a request's index counts the requests
 * its component issued before it in the batch — VPs of a component in
 * increasing order, each VP's slots in order, NONE slots issuing nothing. */
#ifndef BSPRAM_TESTS_PRAM_REF_H
#define BSPRAM_TESTS_PRAM_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "combine/combine.h"
#include "hash/random.h"
#include "pram/pram.h"

typedef struct ref {
    uint64_t n, p, per, m;
    bspram_pram_model model;
    unsigned op;            /* combining write's operation */
    uint64_t seed;
    uint64_t *mem;          /* m cells */
    /* scratch per cell for a write phase */
    uint64_t *best_key, *best_val, *acc;
    uint8_t *seen;
    bspram_user_op_fn user;  /* the user operation (id ≥ BSPRAM_BUILTIN_OPS), if any */
} ref;

static inline ref ref_make(uint64_t n, uint64_t p, uint64_t m, bspram_pram_model model, unsigned op,
                           uint64_t seed)
{
    ref r;
    memset(&r, 0, sizeof r);
    r.n = n;
    r.p = p;
    r.per = (n + p - 1) / p;
    r.m = m;
    r.model = model;
    r.op = op;
    r.seed = seed;
    r.mem = calloc(m, sizeof *r.mem);
    r.best_key = calloc(m, sizeof *r.best_key);
    r.best_val = calloc(m, sizeof *r.best_val);
    r.acc = calloc(m, sizeof *r.acc);
    r.seen = calloc(m, 1);
    return r;
}

static inline void ref_free(ref *r)
{
    free(r->mem);
    free(r->best_key);
    free(r->best_val);
    free(r->acc);
    free(r->seen);
}

static inline uint64_t ref_apply(const ref *r, unsigned op, uint64_t a, uint64_t b)
{
    if (op >= BSPRAM_BUILTIN_OPS)
        return r->user(a, b, NULL);
    return bspram_op_apply(op, a, b);
}

/* Reads: out[s] = mem[idx[s]] for the slots that are not NONE (idx: cell
 * indices, UINT64_MAX for NONE). */
static inline void ref_gather(const ref *r, uint64_t k, const uint64_t *idx, uint64_t *out)
{
    for (uint64_t s = 0; s < r->n * k; s++)
        if (idx[s] != UINT64_MAX)
            out[s] = r->mem[idx[s]];
}

/* kind: 'w' the model's write rule, 'r' reduce with op, 'f' fetch with op
 * (out gets the answers in issue order: a valid multiprefix, not
 * necessarily the engine's order — the tests check the engine's answers
 * for consistency instead). */
static inline void ref_write(ref *r, uint64_t k, const uint64_t *idx, const uint64_t *val, char kind,
                             unsigned op)
{
    memset(r->seen, 0, r->m);
    for (uint64_t c = 0; c < r->p; c++) {
        uint64_t j = 0; /* the request's index in its component */
        uint64_t v0 = c * r->per, v1 = v0 + r->per;
        if (v0 > r->n)
            v0 = r->n;
        if (v1 > r->n)
            v1 = r->n;
        for (uint64_t s = v0 * k; s < v1 * k; s++) {
            uint64_t t = idx[s];
            if (t == UINT64_MAX)
                continue;
            uint64_t x = val[s];
            if (kind == 'w') {
                switch (r->model) {
                case BSPRAM_CRCW_PRIORITY:
                    if (!r->seen[t])
                        r->best_val[t] = x; /* the least VP's, its first slot */
                    break;
                case BSPRAM_CRCW_COMBINING:
                    r->acc[t] = r->seen[t] ? ref_apply(r, r->op, r->acc[t], x) : x;
                    break;
                default: { /* arbitrary (EREW, CREW, common: one writer or equal values) */
                    uint64_t key = bspram_random2(r->seed, c, j);
                    if (!r->seen[t] || key < r->best_key[t] || (key == r->best_key[t] && x < r->best_val[t])) {
                        r->best_key[t] = key;
                        r->best_val[t] = x;
                    }
                    break;
                }
                }
            } else {
                r->acc[t] = r->seen[t] ? ref_apply(r, op, r->acc[t], x) : x;
            }
            r->seen[t] = 1;
            j++;
        }
    }
    for (uint64_t t = 0; t < r->m; t++) {
        if (!r->seen[t])
            continue;
        if (kind == 'w')
            r->mem[t] = r->model == BSPRAM_CRCW_COMBINING ? r->acc[t] : r->best_val[t];
        else
            r->mem[t] = ref_apply(r, op, r->mem[t], r->acc[t]);
    }
}

#endif
