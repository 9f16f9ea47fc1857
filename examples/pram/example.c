/* The frame of the PRAM examples (example.h): making the PRAM, the inputs'
 * randomness, and the example programs' main. */
#include "examples/pram/example.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/number.h"
#include "hash/random.h"

bspram_pram *pram_example_create(const pram_example_params *prm, uint64_t vps, unsigned registers,
                                 bool report, uint64_t degree, pram_example_result *res)
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
    else
        c.combine.degree_hint = degree;
    c.registers = registers;
    c.report = report;
    res->vps = vps;
    res->p = c.p;
    res->trace_path = prm->trace_path;
    return bspram_pram_create(&c);
}

void pram_example_finish(bspram_pram *P, pram_example_result *res)
{
    res->stats = bspram_pram_stats_of(P);
    res->trace_errno = 0;
    if (res->trace_path && bspram_pram_write_trace(P, res->trace_path))
        res->trace_errno = errno ? errno : EIO;
    bspram_pram_destroy(P);
}

double pram_example_clock(void) { return bspram__clock(); }

uint64_t pram_example_random(uint64_t seed, uint64_t i, uint64_t stream, uint64_t bound)
{
    return bspram_random_below(bound, seed, i, stream, 0x5052414dU /* "PRAM" */);
}

uint64_t pram_example_pow2(uint64_t x)
{
    uint64_t m = 1;
    while (m < x)
        m <<= 1;
    return m;
}

unsigned pram_example_log2(uint64_t pow2)
{
    unsigned l = 0;
    while ((UINT64_C(1) << l) < pow2)
        l++;
    return l;
}

uint64_t *pram_example_words(uint64_t count, const char *what)
{
    uint64_t *w = calloc(count ? count : 1, sizeof *w);
    if (!w) {
        fprintf(stderr, "pram example: out of memory for %s (%" PRIu64 " words)\n", what, count);
        exit(1);
    }
    return w;
}

uint64_t pram_example_vps(const pram_example *ex, uint64_t n) { return ex->vps ? ex->vps(n) : n; }

void pram_example_models_text(const pram_example *ex, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned m = 0; m <= BSPRAM_CRCW_COMBINING && o < len; m++)
        if (ex->models & PRAM_MODEL_BIT(m))
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
                                  bspram_pram_model_name((bspram_pram_model)m));
}

int pram_example_check(const pram_example *ex, const pram_example_params *prm, char *err, size_t len)
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

static int usage_error(const pram_example *ex, const char *what, const char *text, uint64_t min, uint64_t max)
{
    fprintf(stderr, "pram_%s: %s '%s': not a whole number in [%" PRIu64 ", %" PRIu64 "]\n", ex->name, what,
            text, min, max);
    fprintf(stderr, "usage: pram_%s [n] [seed] [p] [threads]   (n: %s)\n", ex->name, ex->n_means);
    return 2;
}

int pram_example_main(int argc, char **argv, const pram_example *ex)
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
    if (argc > 1 && bspram_parse_u64(argv[1], ex->min_n, ex->max_n, &prm.n))
        return usage_error(ex, "n", argv[1], ex->min_n, ex->max_n);
    if (argc > 2 && bspram_parse_u64(argv[2], 0, UINT64_MAX, &prm.seed))
        return usage_error(ex, "seed", argv[2], 0, UINT64_MAX);
    if (argc > 3) {
        if (bspram_parse_u64(argv[3], 1, UINT64_C(1) << 31, &x))
            return usage_error(ex, "p", argv[3], 1, UINT64_C(1) << 31);
        prm.p = x;
    }
    if (argc > 4) {
        if (bspram_parse_u64(argv[4], 1, 1024, &x))
            return usage_error(ex, "threads", argv[4], 1, 1024);
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
