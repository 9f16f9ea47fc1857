/* The bounds and the decision rule of `bspram pram check` (growth.h;
 * docs/course.md says what the rule can and cannot show). */
#include "tools/growth.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

static const char *const names[BSPRAM_BOUND_COUNT] = {"1", "log n", "log^2 n", "sqrt n", "n",
                                                      "n log n", "n log^2 n", "n^2", "n^2 log n"};
/* The names without spaces, and the short forms. */
static const struct {
    const char *text;
    bspram_bound b;
} spellings[] = {{"1", BSPRAM_BOUND_1},        {"logn", BSPRAM_BOUND_LOG},    {"log", BSPRAM_BOUND_LOG},
                 {"log^2n", BSPRAM_BOUND_LOG2}, {"log^2", BSPRAM_BOUND_LOG2},  {"sqrtn", BSPRAM_BOUND_SQRT},
                 {"sqrt", BSPRAM_BOUND_SQRT},   {"n", BSPRAM_BOUND_N},         {"nlogn", BSPRAM_BOUND_NLOG},
                 {"nlog^2n", BSPRAM_BOUND_NLOG2}, {"n^2", BSPRAM_BOUND_N2},  {"n^2logn", BSPRAM_BOUND_N2LOG}};

const char *bspram_bound_name(bspram_bound b)
{
    return (unsigned)b < BSPRAM_BOUND_COUNT ? names[b] : NULL;
}

int bspram_bound_parse(const char *text)
{
    char t[64];
    size_t k = 0;
    for (const char *s = text; *s; s++) {
        if (*s == ' ' || *s == '\t' || *s == '*')
            continue;
        if (k + 1 >= sizeof t)
            return -1;
        t[k++] = (char)tolower((unsigned char)*s);
    }
    t[k] = 0;
    /* O(…) around it */
    char *in = t;
    if (k >= 3 && t[0] == 'o' && t[1] == '(' && t[k - 1] == ')') {
        t[k - 1] = 0;
        in = t + 2;
    }
    char bare[64];
    k = 0;
    for (const char *s = in; *s; s++)
        if (*s != '(' && *s != ')')
            bare[k++] = *s;
    bare[k] = 0;
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++)
        if (!strcmp(bare, spellings[i].text))
            return (int)spellings[i].b;
    return -1;
}

double bspram_bound_f(bspram_bound b, double n)
{
    const double lg = log2(n);
    switch (b) {
    case BSPRAM_BOUND_1: return 1;
    case BSPRAM_BOUND_LOG: return lg;
    case BSPRAM_BOUND_LOG2: return lg * lg;
    case BSPRAM_BOUND_SQRT: return sqrt(n);
    case BSPRAM_BOUND_N: return n;
    case BSPRAM_BOUND_NLOG: return n * lg;
    case BSPRAM_BOUND_NLOG2: return n * lg * lg;
    case BSPRAM_BOUND_N2: return n * n;
    default: return n * n * lg;
    }
}

bspram_growth bspram_growth_judge(bspram_bound b, const double *n, const double *y, size_t k)
{
    bspram_growth g;
    memset(&g, 0, sizeof g);
    /* Least squares over the sweep: c = cov(f, y) / var(f), d = ȳ − c·f̄. */
    double fm = 0, ym = 0;
    for (size_t i = 0; i < k; i++) {
        fm += bspram_bound_f(b, n[i]);
        ym += y[i];
    }
    fm /= (double)k;
    ym /= (double)k;
    double sfy = 0, sff = 0;
    for (size_t i = 0; i < k; i++) {
        const double df = bspram_bound_f(b, n[i]) - fm;
        sfy += df * (y[i] - ym);
        sff += df * df;
    }
    if (sff > 0) {
        g.c = sfy / sff;
        g.d = ym - g.c * fm;
    } else { /* the bound 1: one constant */
        g.c = ym;
        g.d = 0;
    }
    /* The growth between the two largest sizes. */
    g.from = n[k - 2];
    g.to = n[k - 1];
    g.y_from = y[k - 2];
    g.y_to = y[k - 1];
    g.bound_growth = bspram_bound_f(b, g.to) / bspram_bound_f(b, g.from);
    g.allowed = g.bound_growth * (1 + BSPRAM_GROWTH_TOLERANCE);
    if (g.y_from > 0) {
        g.growth = g.y_to / g.y_from;
        g.met = g.growth <= g.allowed;
    } else {
        g.growth = g.y_to > 0 ? INFINITY : 0;
        g.met = g.y_to <= 0;
    }
    return g;
}

double bspram_growth_fit(const bspram_growth *g, bspram_bound b, double n)
{
    return g->c * bspram_bound_f(b, n) + g->d;
}
