/* The bytes the two collective benchmarks write before a checked call and
 * check after it: bench_coll.c (bspram's bsp_coll.h) and mpi_coll.c (plain
 * Open MPI), so that both check the same thing. Each (operation, size) is
 * checked once against this sequential reference before it is timed.
 * Header-only: the two programs link different libraries. */
#ifndef BSPRAM_BENCH_COLL_PATTERN_H
#define BSPRAM_BENCH_COLL_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* The operations, in bsp_coll_op's order (bench_coll.c asserts it). */
enum { PATTERN_BROADCAST, PATTERN_SCATTER, PATTERN_GATHER, PATTERN_ALLGATHER, PATTERN_ALLTOALL,
       PATTERN_REDUCE, PATTERN_ALLREDUCE, PATTERN_SCAN, PATTERN_OPS };

/* The operations on b/8 int64 words (SUM) rather than b bytes. */
static inline int pattern_on_words(int op)
{
    return op == PATTERN_ALLREDUCE || op == PATTERN_REDUCE || op == PATTERN_SCAN;
}

/* Byte k of the block rank s sends to rank d. */
static inline unsigned char pattern_byte(unsigned s, unsigned d, size_t k)
{
    return (unsigned char)(s * 37u + d * 11u + (unsigned)k * 3u + 5u);
}

/* Rank s of p fills its buffers for operation op on blocks of b bytes
 * (root 0). recv starts as the complement of what must land where a call
 * could leave a byte alone, so an unwritten byte fails the check. */
static inline void pattern_fill(int op, unsigned s, unsigned p, size_t b, unsigned char *send,
                                unsigned char *recv)
{
    if (op == PATTERN_ALLTOALL) {
        for (unsigned d = 0; d < p; d++)
            for (size_t k = 0; k < b; k++)
                send[d * b + k] = pattern_byte(s, d, k);
    } else if (op == PATTERN_ALLGATHER) {
        for (size_t k = 0; k < b; k++)
            send[k] = pattern_byte(s, 0, k);
    } else if (op == PATTERN_BROADCAST) {
        for (size_t k = 0; k < b; k++)
            recv[k] = s == 0 ? pattern_byte(0, 0, k) : 0;
    } else if (op == PATTERN_SCATTER) {
        for (unsigned d = 0; s == 0 && d < p; d++)
            for (size_t k = 0; k < b; k++)
                send[d * b + k] = pattern_byte(0, d, k);
        for (size_t k = 0; k < b; k++)
            recv[k] = (unsigned char)~pattern_byte(0, s, k);
    } else if (op == PATTERN_GATHER) {
        for (size_t k = 0; k < b; k++)
            send[k] = pattern_byte(s, 0, k);
        for (unsigned j = 0; s == 0 && j < p; j++)
            for (size_t k = 0; k < b; k++)
                recv[j * b + k] = (unsigned char)~pattern_byte(j, 0, k);
    } else {
        int64_t *w = (int64_t *)(void *)send, *r = (int64_t *)(void *)recv;
        for (size_t k = 0; k < b / 8; k++) {
            w[k] = (int64_t)s * 1000 + (int64_t)k + 1;
            r[k] = -1; /* no result is negative: an unwritten word fails */
        }
    }
}

/* 0 if rank s's recv holds what pattern_fill's inputs give (the rooted
 * operations' results only at the root, 0), else -1. */
static inline int pattern_check(int op, unsigned s, unsigned p, size_t b, const unsigned char *recv)
{
    if (op == PATTERN_ALLTOALL) {
        for (unsigned j = 0; j < p; j++)
            for (size_t k = 0; k < b; k++)
                if (recv[j * b + k] != pattern_byte(j, s, k))
                    return -1;
    } else if (op == PATTERN_ALLGATHER || (op == PATTERN_GATHER && s == 0)) {
        for (unsigned j = 0; j < p; j++)
            for (size_t k = 0; k < b; k++)
                if (recv[j * b + k] != pattern_byte(j, 0, k))
                    return -1;
    } else if (op == PATTERN_BROADCAST) {
        for (size_t k = 0; k < b; k++)
            if (recv[k] != pattern_byte(0, 0, k))
                return -1;
    } else if (op == PATTERN_SCATTER) {
        for (size_t k = 0; k < b; k++)
            if (recv[k] != pattern_byte(0, s, k))
                return -1;
    } else if (pattern_on_words(op) && (op != PATTERN_REDUCE || s == 0)) {
        /* The sum of the q operands 1000·j + k + 1, j < q: all p of them,
         * or for the inclusive scan ranks 0..s. */
        const int64_t *w = (const int64_t *)(const void *)recv;
        int64_t q = op == PATTERN_SCAN ? (int64_t)s + 1 : (int64_t)p;
        for (size_t k = 0; k < b / 8; k++)
            if (w[k] != 1000 * q * (q - 1) / 2 + q * ((int64_t)k + 1))
                return -1;
    }
    return 0;
}

#endif
