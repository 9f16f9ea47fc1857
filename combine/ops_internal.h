/* Inline definitions of the built-in operations, shared by ops.c and the
 * engine's inner loop (a switch the branch predictor learns per batch). */
#ifndef BSPRAM_COMBINE_OPS_INTERNAL_H
#define BSPRAM_COMBINE_OPS_INTERNAL_H

#include <stdint.h>
#include <string.h>

static inline double op_f(uint64_t x)
{
    double d;
    memcpy(&d, &x, sizeof d);
    return d;
}

static inline uint64_t op_w(double d)
{
    uint64_t x;
    memcpy(&x, &d, sizeof x);
    return x;
}

static inline uint64_t op_identity(unsigned op)
{
    switch (op) {
    case 0: case 5: case 6: case 7: case 10: case 12: case 13: return 0; /* sum, or, xor; max u64 */
    case 1: case 8: return 1;                                            /* prod */
    case 2: return (uint64_t)INT64_MAX;                                  /* min i64 */
    case 3: return (uint64_t)INT64_MIN;                                  /* max i64 */
    case 4: case 11: return ~UINT64_C(0);                                /* and */
    case 9: return UINT64_MAX;                                           /* min u64 */
    case 14: return op_w(0.0);
    case 15: return op_w(1.0);
    case 16: return op_w(__builtin_inf());
    case 17: return op_w(-__builtin_inf());
    case 18: return op_w(1.0);                                           /* logical and */
    case 19: case 20: return op_w(0.0);                                  /* logical or, xor */
    default: return 0;
    }
}

static inline uint64_t op_apply_builtin(unsigned op, uint64_t a, uint64_t b)
{
    switch (op) {
    case 0: case 7: return a + b;                  /* wraps mod 2^64, as int64 in two's complement */
    case 1: case 8: return a * b;
    case 2: return (int64_t)a < (int64_t)b ? a : b;
    case 3: return (int64_t)a > (int64_t)b ? a : b;
    case 4: case 11: return a & b;
    case 5: case 12: return a | b;
    case 6: case 13: return a ^ b;
    case 9: return a < b ? a : b;
    case 10: return a > b ? a : b;
    case 14: return op_w(op_f(a) + op_f(b));
    case 15: return op_w(op_f(a) * op_f(b));
    case 16: return op_f(a) <= op_f(b) ? a : b;
    case 17: return op_f(a) >= op_f(b) ? a : b;
    case 18: return op_w((op_f(a) != 0.0 && op_f(b) != 0.0) ? 1.0 : 0.0);
    case 19: return op_w((op_f(a) != 0.0 || op_f(b) != 0.0) ? 1.0 : 0.0);
    case 20: return op_w(((op_f(a) != 0.0) != (op_f(b) != 0.0)) ? 1.0 : 0.0);
    default: return a;
    }
}

#endif
