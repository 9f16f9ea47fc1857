/* The frame of the PRAM examples (examples/pram_*.c).
 *
 * Each example file holds one PRAM algorithm as a pram_example: its name,
 * the models it is correct on, and a run function that makes the input from
 * a seed, runs the algorithm on a PRAM (pram/pram.h), runs a plain
 * sequential reference of the same computation, and compares the two. The
 * same function serves three callers, so no algorithm is written twice:
 *   - the example's own program (its main calls pram_example_main);
 *   - `bspram pram --example NAME` (tools/cmd_pram.c, through the list in
 *     examples/pram/registry.c);
 *   - the benchmark bench/bench_pram.c (wall time beside the sequential code).
 *
 * The frame is this header alone: its functions are static inline, and it
 * uses only the installed package's public headers (pram/pram.h,
 * hash/random.h, of the engine API), the C library and OpenMP's clock. So an example is one
 * file that builds by itself against the installed package, where its
 * sources sit in share/doc/bspram/examples (beside this header, in pram/):
 *
 *   cc pram_sort.c $(pkg-config --cflags --libs bspram) -o pram_sort
 *
 * An example includes it as "pram/example.h", a path relative to the
 * examples' folder, the same in the source tree and installed.
 */
#ifndef BSPRAM_EXAMPLES_PRAM_EXAMPLE_H
#define BSPRAM_EXAMPLES_PRAM_EXAMPLE_H

#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The inputs are made with the engine's counter-based randomness
 * (hash/random.h): the frame uses the engine API. */
#ifndef BSPRAM_ENGINE_API
#define BSPRAM_ENGINE_API
#endif
#include "hash/random.h"
#include "pram/pram.h"

/* What to run: the problem size, the machine, the model. */
typedef struct pram_example_params {
    uint64_t n;              /* problem size (the example says what n counts) */
    uint64_t seed;           /* the input and the PRAM's hashing */
    uint64_t p;              /* components; 0 = the PRAM's default, min(VPs, 4096) */
    int threads;             /* 0 = the PRAM's default */
    bspram_pram_model model;
    unsigned op;             /* CRCW-combining's write rule (config.op) */
    bool has_op;             /* op given (else the PRAM's default, sum:i64) */
    bspram_combine_options combine; /* the engine's options, if has_combine */
    bool has_combine;        /* else the PRAM's default: AUTO with the example's degree hint */
    const char *trace_path;  /* write the per-step trace there (bspram_pram_write_trace); NULL: no */
    const char *html_path;   /* write the run's page there (bspram_pram_write_html); NULL: no */
} pram_example_params;

/* What a run gives. */
typedef struct pram_example_result {
    bspram_pram_stats stats; /* bspram_pram_stats_of at the end */
    uint64_t vps, p;         /* the PRAM's n (virtual processors) and p */
    bool verified;           /* the PRAM's result equals the sequential reference's */
    double pram_seconds;     /* wall time of the PRAM's steps (not its set-up) */
    double setup_seconds;    /* wall time of create, alloc and load */
    double seq_seconds;      /* wall time of the sequential reference */
    uint64_t seq_work;       /* the sequential reference's reads and writes, the
                                work-efficiency's denominator (docs/pram.md); 0: not known */
    char detail[200];        /* one phrase: the result, or what differs */
    char *report;            /* report mode: bspram_pram_report's text (malloc'd), else NULL */
    const char *trace_path;  /* prm->trace_path (set by pram_example_create) */
    int trace_errno;         /* writing the trace failed with this errno (0: written or not asked) */
    const char *html_path;   /* prm->html_path (set by pram_example_create) */
    int html_errno;          /* writing the page failed with this errno (0: written or not asked) */
} pram_example_result;

typedef struct pram_example {
    const char *name;        /* "prefix_sums": the program is pram_<name> */
    const char *title;       /* one line */
    const char *n_means;     /* what n counts, e.g. "list nodes" */
    unsigned models;         /* the models it is correct on: bits 1u << model */
    bspram_pram_model model; /* the default (the weakest it needs) */
    uint64_t min_n, max_n;   /* the sizes it takes */
    uint64_t small_n;        /* a size for quick runs (tests) */
    uint64_t (*vps)(uint64_t n); /* the PRAM's VPs for size n; NULL: n */
    void (*run)(const pram_example_params *prm, pram_example_result *res);
} pram_example;

#define PRAM_MODEL_BIT(m) (1u << (unsigned)(m))
/* Every model at least as strong as the one named. */
#define PRAM_MODELS_EREW_UP 0x3fu
#define PRAM_MODELS_CREW_UP 0x3eu
/* The concurrent-write models where equal concurrent writes give that value. */
#define PRAM_MODELS_CRCW_EQUAL \
    (PRAM_MODEL_BIT(BSPRAM_CRCW_COMMON) | PRAM_MODEL_BIT(BSPRAM_CRCW_ARBITRARY) | \
     PRAM_MODEL_BIT(BSPRAM_CRCW_PRIORITY))


/* ---- for the examples' run functions ---- */

/* `degree` of pram_example_create: the ADAPTIVE strategy instead of AUTO. */
#define PRAM_EXAMPLE_ADAPTIVE UINT64_MAX

/* A PRAM of `vps` virtual processors for these parameters (p, threads,
 * seed, model, op and the engine's options from prm; p = min(vps, 4096) if
 * prm->p is 0, min(prm->p, vps) otherwise), with `registers` registers per
 * VP and report mode as asked. Without prm->has_combine the engine runs
 * AUTO with `degree` as its hint (combine.h; at p = 4096 one phase up to
 * degree 8; 0: no hint), or ADAPTIVE if degree is PRAM_EXAMPLE_ADAPTIVE —
 * whichever costs the example least (docs/pram_examples.md, measured).
 * Records vps, p and the trace's and page's paths in res; records the run
 * step by step if a page is asked for. */
static inline bspram_pram *pram_example_create(const pram_example_params *prm, uint64_t vps,
                                               unsigned registers, bool report, uint64_t degree,
                                               pram_example_result *res)
{
    bspram_pram_config c = bspram_pram_config_default(vps, prm->model);
    if (prm->p)
        c.p = prm->p < vps ? prm->p : vps;
    if (prm->threads)
        c.threads = prm->threads;
    if (prm->has_op)
        c.op = prm->op;
    c.seed = prm->seed;
    if (prm->has_combine)
        c.combine = prm->combine;
    else if (degree == PRAM_EXAMPLE_ADAPTIVE)
        c.combine.strategy = BSPRAM_STRATEGY_ADAPTIVE;
    else
        c.combine.degree_hint = degree;
    c.registers = registers;
    c.report = report;
    res->vps = vps;
    res->p = c.p;
    res->trace_path = prm->trace_path;
    res->html_path = prm->html_path;
    bspram_pram *P = bspram_pram_create(&c);
    if (prm->html_path)
        bspram_pram_record(P, true);
    return P;
}

/* Fill res->stats from P, write the trace and the page if asked, then
 * destroy P. */
static inline void pram_example_finish(bspram_pram *P, pram_example_result *res)
{
    res->stats = bspram_pram_stats_of(P);
    res->trace_errno = 0;
    if (res->trace_path && bspram_pram_write_trace(P, res->trace_path))
        res->trace_errno = errno ? errno : EIO;
    res->html_errno = 0;
    if (res->html_path && bspram_pram_write_html(P, res->html_path))
        res->html_errno = errno ? errno : EIO;
    bspram_pram_destroy(P);
}

/* The wall clock (seconds): OpenMP's, which the package's flags bring
 * (-fopenmp) and which needs no feature macro in strict C11. */
static inline double pram_example_clock(void) { return omp_get_wtime(); }

/* A uniform value in [0, bound) from (seed, i, stream): the inputs
 * (hash/random.h: a pure function of its arguments, for any thread count). */
static inline uint64_t pram_example_random(uint64_t seed, uint64_t i, uint64_t stream, uint64_t bound)
{
    return bspram_random_below(bound, seed, i, stream, 0x5052414dU /* "PRAM" */);
}

/* The least power of two ≥ x (x ≥ 1), and its log2. */
static inline uint64_t pram_example_pow2(uint64_t x)
{
    uint64_t m = 1;
    while (m < x)
        m <<= 1;
    return m;
}

static inline unsigned pram_example_log2(uint64_t pow2)
{
    unsigned l = 0;
    while ((UINT64_C(1) << l) < pow2)
        l++;
    return l;
}

/* A checked allocation of count 64-bit words (the program ends with one line
 * naming `what` if it fails). calloc'd: all 0. */
static inline uint64_t *pram_example_words(uint64_t count, const char *what)
{
    uint64_t *w = count <= SIZE_MAX / sizeof *w ? calloc(count ? (size_t)count : 1, sizeof *w) : NULL;
    if (!w) {
        fprintf(stderr, "pram example: out of memory for %s (%" PRIu64 " words)\n", what, count);
        exit(1);
    }
    return w;
}

/* ---- for the programs, the tool and the benchmark ---- */

/* The number of VPs the example's PRAM has for size n. */
static inline uint64_t pram_example_vps(const pram_example *ex, uint64_t n) { return ex->vps ? ex->vps(n) : n; }

/* "EREW, CREW, ...": the models of the example (into buf). */
static inline void pram_example_models_text(const pram_example *ex, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned m = 0; m <= BSPRAM_CRCW_COMBINING && o < len; m++)
        if (ex->models & PRAM_MODEL_BIT(m))
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
                                  bspram_pram_model_name((bspram_pram_model)m));
}

/* Check n and the model against the example; 0, or −1 with one phrase in
 * err (e.g. "n 0 out of range [1, 65535]"). */
static inline int pram_example_check(const pram_example *ex, const pram_example_params *prm, char *err,
                                     size_t len)
{
    if (prm->n < ex->min_n || prm->n > ex->max_n) {
        snprintf(err, len, "n %" PRIu64 " out of range [%" PRIu64 ", %" PRIu64 "] (%s)", prm->n, ex->min_n,
                 ex->max_n, ex->n_means);
        return -1;
    }
    if ((unsigned)prm->model > BSPRAM_CRCW_COMBINING || !(ex->models & PRAM_MODEL_BIT(prm->model))) {
        char models[160];
        pram_example_models_text(ex, models, sizeof models);
        const char *name = bspram_pram_model_name(prm->model);
        snprintf(err, len, "%s is not a model of example %s; it runs on %s", name ? name : "?", ex->name,
                 models);
        return -1;
    }
    return 0;
}

/* A whole number in [min, max], read strictly: decimal digits only, the
 * whole string (no space, sign, hex or trailing character; "007" is 7), no
 * overflow. 0 and *out set, or −1. (The library's tools read numbers the
 * same way.) */
static inline int pram_example_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    if (!text || !*text)
        return -1;
    uint64_t x = 0;
    for (const char *s = text; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10) /* x·10 + d would wrap */
            return -1;
        x = x * 10 + d;
    }
    if (x < min || x > max)
        return -1;
    *out = x;
    return 0;
}

static inline int pram_example_usage_error(const pram_example *ex, const char *what, const char *text,
                                           uint64_t min, uint64_t max)
{
    fprintf(stderr, "pram_%s: %s '%s': not a whole number in [%" PRIu64 ", %" PRIu64 "]\n", ex->name, what,
            text, min, max);
    fprintf(stderr, "usage: pram_%s [n] [seed] [p] [threads]   (n: %s)\n", ex->name, ex->n_means);
    return 2;
}

/* The main of an example program: `pram_<name> [n] [seed] [p] [threads]`
 * (defaults: the example's small n, seed 1, the PRAM's p and T), every
 * number read strictly. Runs the example on its default model and prints
 * one line: the steps, work, charge and slowdown of bspram_pram_stats_of,
 * the detail, and "verified" or "MISMATCH" (the report first, in report
 * mode). Exit status 0 if verified, 1 on a mismatch, 2 on a bad argument. */
static inline int pram_example_main(int argc, char **argv, const pram_example *ex)
{
    pram_example_params prm = {.n = ex->small_n, .seed = 1, .model = ex->model};
    uint64_t x;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("pram_%s: %s\nusage: pram_%s [n] [seed] [p] [threads]\n"
               "  n: %s, in [%" PRIu64 ", %" PRIu64 "] (default %" PRIu64 ")\n"
               "  seed: the input and the hashing (default 1); p: components (default min(VPs, 4096));\n"
               "  threads: worker threads (default OpenMP's)\n",
               ex->name, ex->title, ex->name, ex->n_means, ex->min_n, ex->max_n, ex->small_n);
        return 0;
    }
    if (argc > 5) {
        fprintf(stderr, "pram_%s: too many arguments\nusage: pram_%s [n] [seed] [p] [threads]\n", ex->name,
                ex->name);
        return 2;
    }
    if (argc > 1 && pram_example_parse_u64(argv[1], ex->min_n, ex->max_n, &prm.n))
        return pram_example_usage_error(ex, "n", argv[1], ex->min_n, ex->max_n);
    if (argc > 2 && pram_example_parse_u64(argv[2], 0, UINT64_MAX, &prm.seed))
        return pram_example_usage_error(ex, "seed", argv[2], 0, UINT64_MAX);
    if (argc > 3) {
        if (pram_example_parse_u64(argv[3], 1, UINT64_C(1) << 31, &x))
            return pram_example_usage_error(ex, "p", argv[3], 1, UINT64_C(1) << 31);
        prm.p = x;
    }
    if (argc > 4) {
        if (pram_example_parse_u64(argv[4], 1, 1024, &x))
            return pram_example_usage_error(ex, "threads", argv[4], 1, 1024);
        prm.threads = (int)x;
    }
    pram_example_result res;
    memset(&res, 0, sizeof res);
    ex->run(&prm, &res);
    if (res.report)
        fputs(res.report, stdout);
    const bspram_pram_stats *s = &res.stats;
    printf("pram_%s n=%" PRIu64 " %s VPs=%" PRIu64 " p=%" PRIu64 ": steps %" PRIu64 ", work %" PRIu64
           ", charge %" PRIu64 ", slowdown %.3f; %s; %s (PRAM %.3f s, sequential %.3f s)\n",
           ex->name, prm.n, bspram_pram_model_name(prm.model), res.vps, res.p, s->steps, s->work, s->charge,
           s->slowdown, res.detail, res.verified ? "verified" : "MISMATCH", res.pram_seconds, res.seq_seconds);
    free(res.report);
    return res.verified ? 0 : 1;
}

/* ---- for the tool and the benchmark only ----
 * The list of all examples, defined in examples/pram/registry.c, which
 * `bspram pram` and bench_pram link with the examples compiled as a library
 * (PRAM_EXAMPLES_LIBRARY: no main). A program never refers to it. */
extern const pram_example *const pram_examples[];
extern const size_t pram_example_count;
/* The example of that name ('-' may stand for '_'); NULL if none. */
const pram_example *pram_example_find(const char *name);

#endif
