/* The cost models (models/model.h): defaults, names, checks, the models
 * priced from a superstep's record alone (BSP, Bruck's k ports, the switch),
 * and the price of a log. The pattern-based models are in bus.c and
 * network.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "models/model_internal.h"

static const char *const NAMES[BSPRAM_MODELS] = {"bsp",  "kport",     "bus",   "shared-memory",
                                                 "ring", "torus", "hypercube", "switch"};

const char *bspram_model_name(bspram_model_kind kind)
{
    return (unsigned)kind < BSPRAM_MODELS ? NAMES[kind] : "unknown";
}

int bspram_model_parse(const char *name)
{
    BSPRAM_NONNULL(name);
    for (int k = 0; k < BSPRAM_MODELS; k++)
        if (!strcmp(name, NAMES[k]))
            return k;
    return -1;
}

bspram_model bspram_model_default(bspram_model_kind kind)
{
    /* Bruck et al. 1997, §3.5: the IBM SP-1's β ≈ 29 µs and 8.5 MB/s. */
    const double startup = 29e-6, per_byte = 0.12e-6;
    return (bspram_model){.kind = kind, .startup = startup, .per_byte = per_byte, .ports = 1,
                          .k_star = 4, .g = per_byte, .l = startup, .per_work = 1e-9};
}

static int bad_number(double x) { return !isfinite(x) || x < 0; }

/* call: the public function that was given m (its name opens the line). */
static void check_model(const char *call, const bspram_model *m, uint64_t p)
{
    const struct { const char *name; double value; } number[] = {
        {"startup", m->startup}, {"per_byte", m->per_byte}, {"g", m->g},
        {"l", m->l},             {"per_work", m->per_work}};
    char bad[96] = "";
    for (size_t i = 0; i < sizeof number / sizeof number[0] && !bad[0]; i++)
        if (bad_number(number[i].value))
            snprintf(bad, sizeof bad, "%s must be finite and ≥ 0, not %g", number[i].name,
                     number[i].value);
    const char *why = (unsigned)m->kind >= BSPRAM_MODELS ? "unknown kind"
                      : bad[0]         ? bad
                      : m->ports == 0  ? "ports must be at least 1"
                      : m->k_star == 0 ? "k_star must be at least 1"
                      : p == 0         ? "p must be at least 1"
                                       : NULL;
    if (why)
        bspram__base_fatal("%s(model=%s, p=%llu, startup=%g, per_byte=%g, ports=%u, k_star=%u): %s", call,
                     bspram_model_name(m->kind), (unsigned long long)p, m->startup, m->per_byte,
                     m->ports, m->k_star, why);
}

void bspram__models_work_init(model_work *w, size_t size)
{
    w->size = size;
    w->sum = bspram__base_calloc(size ? size : 1, sizeof *w->sum, "bspram_model_price");
    w->sum2 = bspram__base_calloc(size ? size : 1, sizeof *w->sum2, "bspram_model_price");
    w->mark = bspram__base_calloc(size ? size : 1, 1, "bspram_model_price");
    w->touched = bspram__base_calloc(size ? size : 1, sizeof *w->touched, "bspram_model_price");
    w->n_touched = 0;
}

void bspram__models_work_free(model_work *w)
{
    free(w->sum);
    free(w->sum2);
    free(w->mark);
    free(w->touched);
}

double bspram__models_work_max(model_work *w, int second, double *total)
{
    const double *s = second ? w->sum2 : w->sum;
    double most = 0, all = 0;
    for (size_t k = 0; k < w->n_touched; k++) {
        double x = s[w->touched[k]];
        all += x;
        if (x > most)
            most = x;
    }
    if (total)
        *total = all;
    return most;
}

void bspram__models_work_clear(model_work *w)
{
    for (size_t k = 0; k < w->n_touched; k++) {
        uint32_t i = w->touched[k];
        w->sum[i] = w->sum2[i] = 0;
        w->mark[i] = 0;
    }
    w->n_touched = 0;
}

static size_t work_size(const char *call, const bspram_model *m, uint64_t p)
{
    if (p > UINT32_MAX / 32) /* the workspace indexes links with 32 bits */
        bspram__base_fatal("%s(model=%s, p=%llu): p is above %u", call, bspram_model_name(m->kind),
                     (unsigned long long)p, UINT32_MAX / 32);
    switch (m->kind) {
    case BSPRAM_MODEL_BUS:
    case BSPRAM_MODEL_SHARED_MEMORY: return (size_t)p;
    case BSPRAM_MODEL_RING:
    case BSPRAM_MODEL_TORUS:
    case BSPRAM_MODEL_HYPERCUBE: return bspram__models_network_links(m, p);
    default: return 0;
    }
}

static void check_flows(const bspram_model *m, uint64_t p, const bspram_flow *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (f[i].src >= p || f[i].dst >= p)
            bspram__base_fatal("bspram_model_superstep(model=%s, p=%llu): flow %zu goes from %llu to "
                         "%llu, outside [0, %llu)", bspram_model_name(m->kind),
                         (unsigned long long)p, i, (unsigned long long)f[i].src,
                         (unsigned long long)f[i].dst, (unsigned long long)p);
}

static double price_superstep(const bspram_model *m, uint64_t p, const bspram_record *rec,
                              const bspram_flow *flows, size_t n_flows, int kept, unsigned *flags,
                              model_work *w)
{
    *flags = 0;
    uint64_t most = rec->q > rec->r ? rec->q : rec->r;
    switch (m->kind) {
    case BSPRAM_MODEL_BSP:
        return (double)rec->work * m->per_work + m->g * (double)rec->h_bytes + m->l;
    case BSPRAM_MODEL_KPORT: /* Bruck §2: rounds of β + τ·(largest message) */
        if (!rec->messages)
            return 0;
        if (most > m->ports)
            *flags |= BSPRAM_MODEL_OVER_PORTS;
        return (double)((most + m->ports - 1) / m->ports) *
               (m->startup + m->per_byte * (double)rec->max_message);
    case BSPRAM_MODEL_SWITCH: /* Saad & Schultz §2 (F): one permutation per setting */
        if (!rec->messages)
            return 0;
        return (double)most * m->startup + (double)rec->h_bytes * m->per_byte;
    default:
        break;
    }
    if (!rec->messages)
        return 0;
    if (!kept) {
        *flags |= BSPRAM_MODEL_NO_PATTERN;
        return 0;
    }
    check_flows(m, p, flows, n_flows);
    if (m->kind == BSPRAM_MODEL_BUS || m->kind == BSPRAM_MODEL_SHARED_MEMORY)
        return bspram__models_bus(m, p, flows, n_flows, w);
    return bspram__models_network(m, p, flows, n_flows, w, flags);
}

double bspram_model_superstep(const bspram_model *m, uint64_t p, const bspram_record *rec,
                              const bspram_flow *flows, size_t n_flows, int kept, unsigned *flags)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(rec);
    if (n_flows > 0) /* no flows: NULL is fine */
        BSPRAM_NONNULL(flows);
    check_model("bspram_model_superstep", m, p);
    model_work w;
    bspram__models_work_init(&w, work_size("bspram_model_superstep", m, p));
    unsigned f;
    double t = price_superstep(m, p, rec, flows, n_flows, kept, &f, &w);
    bspram__models_work_free(&w);
    if (flags)
        *flags = f;
    return t;
}

bspram_model_total bspram_model_price(const bspram_model *m, uint64_t p,
                                      const bspram_record *records, size_t n,
                                      const bspram_pattern *pattern)
{
    BSPRAM_NONNULL(m);
    if (n > 0) /* no records: NULL is fine */
        BSPRAM_NONNULL(records);
    check_model("bspram_model_price", m, p);
    model_work w;
    bspram__models_work_init(&w, work_size("bspram_model_price", m, p));
    bspram_model_total t = {0};
    for (size_t i = 0; i < n; i++) {
        const bspram_flow *f;
        size_t nf;
        int kept = bspram_pattern_get(pattern, i, &f, &nf);
        unsigned flags;
        t.seconds += price_superstep(m, p, &records[i], f, nf, kept, &flags, &w);
        t.supersteps++;
        t.flagged += flags != 0;
        t.flags |= flags;
    }
    bspram__models_work_free(&w);
    return t;
}
