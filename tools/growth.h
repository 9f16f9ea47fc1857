/* The bounds `bspram pram check` judges a sweep against, and its decision
 * rule (docs/course.md, "The rule"): fit c·f(n) + d to the measured values
 * by least squares, printed so that the constants can be read, and decide
 * by the growth between the two largest sizes — the measured ratio
 * y(n_k) / y(n_{k−1}) may exceed the bound's f(n_k) / f(n_{k−1}) by at
 * most BSPRAM_GROWTH_TOLERANCE. */
#ifndef BSPRAM_TOOLS_GROWTH_H
#define BSPRAM_TOOLS_GROWTH_H

#include <stdbool.h>
#include <stddef.h>

/* The bounds, slowest growing first. */
typedef enum bspram_bound {
    BSPRAM_BOUND_1,
    BSPRAM_BOUND_LOG,     /* log n (base 2) */
    BSPRAM_BOUND_LOG2,    /* log^2 n */
    BSPRAM_BOUND_SQRT,    /* sqrt n */
    BSPRAM_BOUND_N,
    BSPRAM_BOUND_NLOG,    /* n log n */
    BSPRAM_BOUND_NLOG2,   /* n log^2 n (sorting networks) */
    BSPRAM_BOUND_N2,      /* n^2 */
    BSPRAM_BOUND_N2LOG,   /* n^2 log n */
    BSPRAM_BOUND_COUNT
} bspram_bound;

/* The growth a bound's ratio may be exceeded by: 10 % (docs/course.md says
 * why: more than the lower-order terms of a right program's counts give,
 * less than a factor of log n between sizes 4 times apart). */
#define BSPRAM_GROWTH_TOLERANCE 0.10

/* "1", "log n", "log^2 n", "sqrt n", "n", "n log n", "n log^2 n", "n^2",
 * "n^2 log n". */
const char *bspram_bound_name(bspram_bound b);

/* The bound a text names: the names above in any case, with or without
 * spaces, parentheses or '*' ("nlogn", "n*log(n)"), in O( ) or not
 * ("O(n log n)"), "log", "log^2" and "sqrt" without their n; −1 if none. */
int bspram_bound_parse(const char *text);

/* f(n): log is log2; n ≥ 2, so that every f is positive. */
double bspram_bound_f(bspram_bound b, double n);

/* What the rule found for one quantity over a sweep of k ≥ 2 sizes n[0] <
 * … < n[k−1] with values y[]. */
typedef struct bspram_growth {
    double c, d;            /* the least-squares fit y ≈ c·f(n) + d (for the bound 1: c the mean, d 0) */
    double from, to;        /* the two largest sizes */
    double y_from, y_to;    /* their values */
    double growth;          /* y_to / y_from (0 when both are 0) */
    double bound_growth;    /* f(to) / f(from) */
    double allowed;         /* bound_growth · (1 + BSPRAM_GROWTH_TOLERANCE) */
    bool met;               /* growth ≤ allowed (y_from = 0 < y_to: not met) */
} bspram_growth;

bspram_growth bspram_growth_judge(bspram_bound b, const double *n, const double *y, size_t k);

/* The fit's value at n. */
double bspram_growth_fit(const bspram_growth *g, bspram_bound b, double n);

#endif
