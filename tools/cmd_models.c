/* bspram models: what a run would cost on other machines (models/model.h).
 * Without a trace: Saad & Schultz's five operations run with our
 * algorithms as one BSPlib program that keeps its message pattern, each
 * priced under every model beside the paper's formula (Tables 1 and 2).
 * With a TRACE file: every machine of a trace written with
 * BSPRAM_PATTERN=1, priced under every model. */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsp.h>
#include <bsp_coll.h>

#include "models/model.h"
#include "tools/commands.h"
#include "tools/format.h"
#include "tools/trace_read.h"

#define error(...) bspram_tool_error("models", __VA_ARGS__)
#define usage_error(...) bspram_tool_usage("models", __VA_ARGS__)

enum { OP_ONE, OP_BROADCAST, OP_ALLGATHER, OP_SCATTER, OP_MULTISCATTER, OPS };
static const char *const OP_NAMES[OPS] = {"one-to-one", "broadcast", "all-to-all", "scatter",
                                          "multiscatter"};

static struct {
    unsigned P;
    size_t N;
    bspram_model models[BSPRAM_MODELS];
    bspram_model_total price[OPS][BSPRAM_MODELS];
} run;

/* The paper's time for an operation on a machine of k processors, N bytes:
 * Saad & Schultz 1986, Tables 1 and 2 (upper bounds for the best times,
 * with pipelining), except the shared memory's column, from the section
 * text (3.2), (3.15), (3.27), (3.37), (3.42) with max(1, k/k*) (the tables
 * assume k > k* and lost factors in the scan), and the hypercube's and the
 * switch's multiscatter with N/k bytes per processor (§3.5 (E), N² there is
 * a matrix's N × N). NAN where the paper has no formula (BSP, k ports). */
static double paper(int op, bspram_model_kind kind, double k, double N, const bspram_model *m)
{
    double t = m->startup, x = N * m->per_byte, L = log2(k), q = sqrt(k);
    double s = k / m->k_star > 1 ? k / m->k_star : 1;
    switch (kind) {
    case BSPRAM_MODEL_BUS:
        return op == OP_ONE || op == OP_BROADCAST ? x + t : x + k * t;
    case BSPRAM_MODEL_SHARED_MEMORY:
        return op == OP_ONE         ? 2 * (x + t)
               : op == OP_BROADCAST ? (x + t) * (1 + s)
               : op == OP_ALLGATHER ? s * (x * (k + 1) / k + 2 * t)
               : op == OP_SCATTER   ? (x + k * t) * (s + 1)
                                    : 2 * (x / k + t) * s;
    case BSPRAM_MODEL_RING:
        return op == OP_ONE || op == OP_BROADCAST ? 2 * x + k * t
               : op == OP_ALLGATHER               ? (k - 1) * (x / k + t)
               : op == OP_SCATTER                 ? x / 2 + k / 2 * t
                                                  : x / 2 + k * t;
    case BSPRAM_MODEL_TORUS:
        return op == OP_ONE         ? x / 2 + (q + 6) * t
               : op == OP_BROADCAST ? x + q * t
               : op == OP_ALLGATHER || op == OP_SCATTER ? x + 2 * q * t
                                                        : 2 * (x + q * t);
    case BSPRAM_MODEL_HYPERCUBE:
        return op == OP_ONE         ? 2 * x / L + (2 + L) * t
               : op == OP_BROADCAST ? 2 * (x + L * t)
               : op == OP_ALLGATHER ? 2 * x / L + 2 * L * t
               : op == OP_SCATTER   ? x + L * t
                                    : L * (x / k + 2 * t);
    case BSPRAM_MODEL_SWITCH:
        return op == OP_ONE           ? x + t
               : op == OP_BROADCAST   ? 4 * (x + L * t)
               : op == OP_MULTISCATTER ? L * (x / k + 2 * t)
                                      : x + L * t;
    default:
        return NAN;
    }
}

static void price_all(bspram_model_total *out)
{
    for (int k = 0; k < BSPRAM_MODELS; k++)
        out[k] = bsp_model_price(&run.models[k]);
}

static void spmd(void)
{
    bsp_begin(run.P);
    unsigned P = bsp_nprocs(), me = bsp_pid();
    size_t N = run.N, b = N / P, bb = N / ((size_t)P * P);
    unsigned char *buf = calloc(N + 1, 1), *recv = calloc(N + 1, 1);
    if (!buf || !recv)
        bsp_abort("bspram models: out of memory for %zu bytes\n", N);
    bsp_push_reg(recv, N + 1);
    bsp_model_keep_pattern(1);
    bsp_sync();
    for (int op = 0; op < OPS; op++) {
        bspram_model_total before[BSPRAM_MODELS], after[BSPRAM_MODELS];
        price_all(before);
        switch (op) {
        case OP_ONE:
            if (me == 0)
                bsp_put(P - 1, buf, recv, 0, N);
            bsp_sync();
            break;
        case OP_BROADCAST: bsp_coll_broadcast(NULL, buf, N, 0, NULL); break;
        case OP_ALLGATHER: bsp_coll_allgather(NULL, buf, recv, b, NULL); break;
        case OP_SCATTER: bsp_coll_scatter(NULL, buf, recv, b, 0, NULL); break;
        default: bsp_coll_alltoall(NULL, buf, recv, bb, NULL);
        }
        price_all(after);
        if (me == 0)
            for (int k = 0; k < BSPRAM_MODELS; k++) {
                bspram_model_total *t = &run.price[op][k];
                t->seconds = after[k].seconds - before[k].seconds;
                t->supersteps = after[k].supersteps - before[k].supersteps;
                t->flagged = after[k].flagged - before[k].flagged;
            }
    }
    bsp_pop_reg(recv);
    bsp_sync();
    free(buf);
    free(recv);
    bsp_end();
}

/* What the collectives' selection runs for op (one-to-one: a bsp_put). */
static const char *algorithm_of(int op, unsigned P, size_t N)
{
    static const bsp_coll_op coll[OPS] = {BSP_COLL_BROADCAST, BSP_COLL_BROADCAST,
                                          BSP_COLL_ALLGATHER, BSP_COLL_SCATTER, BSP_COLL_ALLTOALL};
    size_t block = op == OP_BROADCAST ? N : op == OP_MULTISCATTER ? N / ((size_t)P * P) : N / P;
    if (op == OP_ONE)
        return "put";
    return bsp_coll_algorithm_name(bsp_coll_select(coll[op], P, block, 1, -1, -1).algorithm);
}

/* The largest p the models price (models/model.c: their workspace indexes
 * links with 32 bits); a trace's p may be up to 2^32 - 1. */
#define MODELS_MAX_P (UINT32_MAX / 32)

/* Between rows of a JSON array: the separator, then the indent. */
static void json_row(size_t row) { printf("%s\n  ", row ? "," : ""); }

static int price_trace(const char *path, bspram_format format)
{
    trace t;
    if (trace_read(path, "models", &t))
        return BSPRAM_TOOL_FAILED;
    for (size_t i = 0; i < t.n; i++)
        if (t.machines[i].p > MODELS_MAX_P) {
            error("%s: machine %u has p = %" PRIu64 "; the models price p up to %u", path,
                  t.machines[i].id, t.machines[i].p, MODELS_MAX_P);
            trace_free(&t);
            return BSPRAM_TOOL_FAILED;
        }
    if (format == BSPRAM_FORMAT_CSV)
        printf("machine,p,supersteps,model,priced_seconds,flagged\n");
    else if (format == BSPRAM_FORMAT_JSON)
        printf("[");
    size_t rows = 0;
    for (size_t i = 0; i < t.n; i++) {
        trace_machine *m = &t.machines[i];
        if (format == BSPRAM_FORMAT_TEXT)
            printf("machine %u: p = %" PRIu64 ", %zu supersteps\n", m->id, m->p, m->log.n);
        for (int k = 0; k < BSPRAM_MODELS; k++) {
            bspram_model_total tot =
                bspram_model_price(&run.models[k], m->p, m->log.records, m->log.n, &m->pattern);
            const char *name = bspram_model_name((bspram_model_kind)k);
            if (format == BSPRAM_FORMAT_CSV) {
                printf("%u,%" PRIu64 ",%zu,%s,%.9g,%" PRIu64 "\n", m->id, m->p, m->log.n, name,
                       tot.seconds, tot.flagged);
            } else if (format == BSPRAM_FORMAT_JSON) {
                json_row(rows++);
                printf("{\"machine\": %u, \"p\": %" PRIu64 ", \"supersteps\": %zu, \"model\": \"%s\", "
                       "\"priced_seconds\": ", m->id, m->p, m->log.n, name);
                bspram_json_number(tot.seconds);
                printf(", \"flagged\": %" PRIu64 "}", tot.flagged);
            } else {
                printf("  %-14s %14.6f s%s\n", name, tot.seconds,
                       tot.flags & BSPRAM_MODEL_NO_PATTERN ? "  (some supersteps without their "
                                                             "pattern: priced 0)"
                       : tot.flags & BSPRAM_MODEL_NOT_APPLICABLE ? "  (p is not a power of two)"
                       : tot.flags & BSPRAM_MODEL_OVER_PORTS     ? "  (more than k messages in "
                                                                   "some supersteps)"
                                                                 : "");
            }
        }
    }
    if (format == BSPRAM_FORMAT_JSON)
        printf("\n]\n");
    trace_free(&t);
    return BSPRAM_TOOL_OK;
}

/* The settings the command line sets (options below), with their defaults. */
typedef struct models_settings {
    uint64_t p, n, ports, k_star;
    double startup, per_byte; /* < 0: the models' own */
    const char *format;
} models_settings;

static const bspram_option options[] = {
    {.name = "p", .letter = 'p', .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(models_settings, p),
     .value = "P", .help = "processes, in [2, 4096]", .min = 2, .max = 4096},
    {.name = "n", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(models_settings, n), .value = "N",
     .help = "bytes, in [1, 2^30]", .min = 1, .max = UINT64_C(1) << 30},
    {.name = "startup", .kind = BSPRAM_OPT_REAL, .offset = offsetof(models_settings, startup),
     .value = "S", .help = "seconds per message and hop (default 29e-6: IBM SP-1)"},
    {.name = "per-byte", .kind = BSPRAM_OPT_REAL, .offset = offsetof(models_settings, per_byte),
     .value = "S", .help = "seconds per byte (default 0.12e-6: 8.5 MB/s)"},
    {.name = "ports", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(models_settings, ports),
     .value = "K", .help = "the k-port model's k, in [1, 65536] (default 1)", .min = 1, .max = 65536},
    {.name = "k-star", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(models_settings, k_star),
     .value = "K", .help = "bus and shared-memory channels, in [1, 65536] (default 4)", .min = 1,
     .max = 65536},
    BSPRAM_FORMAT_OPTION(models_settings, format),
    {.name = NULL}};

static int run_models(int argc, char **argv);

const bspram_command bspram_cmd_models = {
    .name = "models",
    .summary = "price runs on other machines: BSP, k ports, bus, shared memory, ring, torus, hypercube, switch",
    .run = run_models, .usage = "--p P --n N [options]\nTRACE [options]",
    .about = "Prices recorded supersteps on other machines (models/model.h): the BSP model,\n"
    "Bruck et al.'s k-port model, and Saad & Schultz's bus, shared memory, ring,\n"
    "2-D torus, hypercube and switch.\n"
    "Without a TRACE, runs Saad & Schultz's operations on P BSPlib processes with\n"
    "N bytes of data, keeping the message pattern, and prints each one's price\n"
    "under every model beside the paper's formula (Tables 1-2; the shared-memory\n"
    "column from the section text) and their ratio:\n"
    "  one-to-one    N bytes from process 0 to process P-1 (one bsp_put)\n"
    "  broadcast     N bytes from process 0 (bsp_coll_broadcast)\n"
    "  all-to-all    N/P bytes from every process to every other (allgather)\n"
    "  scatter       N/P bytes from process 0 to each (bsp_coll_scatter)\n"
    "  multiscatter  N/P^2 bytes from every process to each (alltoall: a transpose\n"
    "                of N bytes distributed by rows)\n"
    "With a TRACE (written with BSPRAM_TRACE=FILE BSPRAM_PATTERN=1), prints every\n"
    "machine's total under every model.\n"
    "CSV columns (JSON: an array of objects of the same fields):\n"
    "  op,model,p,n_bytes,algorithm,supersteps,priced_seconds,paper_seconds,ratio,\n"
    "  flagged\n"
    "  (TRACE: machine,p,supersteps,model,priced_seconds,flagged)", .options = options,
    .operand = "TRACE", .operand_reads = 1};

static int run_models(int argc, char **argv)
{
    models_settings o = {.ports = 1, .k_star = 4, .startup = -1, .per_byte = -1, .format = "text"};
    const char *path = NULL;
    int rc = bspram_options_parse(&bspram_cmd_models, argc, argv, &o, &path);
    if (rc)
        return rc == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : rc;
    const uint64_t p = o.p, n = o.n, ports = o.ports, kstar = o.k_star;
    const double startup = o.startup, per_byte = o.per_byte;
    const bspram_format format = bspram_format_of(o.format);
    for (int k = 0; k < BSPRAM_MODELS; k++) {
        bspram_model *m = &run.models[k];
        *m = bspram_model_default((bspram_model_kind)k);
        if (startup >= 0)
            m->startup = m->l = startup;
        if (per_byte >= 0)
            m->per_byte = m->g = per_byte;
        m->ports = (unsigned)ports;
        m->k_star = (unsigned)kstar;
    }
    if (path) {
        if (p || n)
            return usage_error("a TRACE gives the machines' p: no --p or --n with it");
        return price_trace(path, format);
    }
    if (!p)
        return usage_error("--p P is required (processes, in [2, 4096]), or a TRACE");
    if (!n)
        return usage_error("--n N is required (bytes, in [1, 2^30])");
    run.P = (unsigned)p;
    run.N = (size_t)n;
    bsp_init(spmd, argc, argv);
    spmd();
    if (format == BSPRAM_FORMAT_CSV)
        printf("op,model,p,n_bytes,algorithm,supersteps,priced_seconds,paper_seconds,ratio,"
               "flagged\n");
    else if (format == BSPRAM_FORMAT_JSON)
        printf("[");
    size_t rows = 0;
    for (int op = 0; op < OPS; op++) {
        const char *alg = algorithm_of(op, run.P, run.N);
        if (format == BSPRAM_FORMAT_TEXT)
            printf("%s (%s), p = %u, N = %zu bytes\n  %-14s %10s %14s %14s %8s\n", OP_NAMES[op],
                   alg, run.P, run.N, "model", "supersteps", "priced s", "paper s", "ratio");
        for (int k = 0; k < BSPRAM_MODELS; k++) {
            const bspram_model_total *t = &run.price[op][k];
            double ref = paper(op, (bspram_model_kind)k, run.P, (double)run.N, &run.models[k]);
            const char *name = bspram_model_name((bspram_model_kind)k);
            if (format == BSPRAM_FORMAT_CSV) {
                printf("%s,%s,%u,%zu,%s,%" PRIu64 ",%.9g,", OP_NAMES[op], name, run.P, run.N, alg,
                       t->supersteps, t->seconds);
                if (isnan(ref))
                    printf(",,%" PRIu64 "\n", t->flagged);
                else
                    printf("%.9g,%.4g,%" PRIu64 "\n", ref, t->seconds / ref, t->flagged);
            } else if (format == BSPRAM_FORMAT_JSON) { /* no formula: null */
                json_row(rows++);
                printf("{\"op\": \"%s\", \"model\": \"%s\", \"p\": %u, \"n_bytes\": %zu, \"algorithm\": \"%s\", "
                       "\"supersteps\": %" PRIu64 ", \"priced_seconds\": ", OP_NAMES[op], name, run.P,
                       run.N, alg, t->supersteps);
                bspram_json_number(t->seconds);
                printf(", \"paper_seconds\": ");
                bspram_json_number(ref);
                printf(", \"ratio\": ");
                bspram_json_number(t->seconds / ref);
                printf(", \"flagged\": %" PRIu64 "}", t->flagged);
            } else if (isnan(ref)) {
                printf("  %-14s %10" PRIu64 " %14.6f %14s %8s%s\n", name, t->supersteps,
                       t->seconds, "-", "-", t->flagged ? "  (flagged)" : "");
            } else {
                printf("  %-14s %10" PRIu64 " %14.6f %14.6f %8.3f%s\n", name, t->supersteps,
                       t->seconds, ref, t->seconds / ref, t->flagged ? "  (flagged)" : "");
            }
        }
    }
    if (format == BSPRAM_FORMAT_JSON)
        printf("\n]\n");
    return BSPRAM_TOOL_OK;
}
