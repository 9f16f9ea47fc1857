/* bspram probe: measure the BSP parameters g and l of this machine the
 * textbook way — Bisseling, "Parallel Scientific Computation" (2nd ed.,
 * 2020), §1.6, program bspbench: for h = 0..H, time supersteps in which
 * every process puts h single words (8 bytes) to other processes (an
 * h-relation), fit t(h) = l + g·h by least squares; and measure the
 * computing rate r of a DAXPY to express g and l in flops. The result is
 * printed and saved (bsp/params.h says where) for predicting costs. */
#include <bsp.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/clock.h"
#include "base/input.h"
#include "bsp/params.h"
#include "tools/commands.h"
#include "tools/format.h"

#define PROBE_MAX_P 65536u          /* BSPlib's largest P */
#define PROBE_MAX_H 1048576u        /* -H and -s: h up to 2^20 words */
#define PROBE_MAX_ITERS 1000000u    /* -n */

static struct {
    unsigned p, hmax, step, iters;
    double *t; /* t[k]: seconds per superstep at h = k·step (pid 0 writes) */
} probe;

static void spmd(void)
{
    bsp_begin(probe.p);
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    const unsigned H = probe.hmax;
    /* H ≤ PROBE_MAX_H, so H + 1 neither wraps nor overflows the sizes. */
    double *dest = bspram_tool_calloc((size_t)H + 1, sizeof *dest, "bspram probe (put destination)");
    double *src = bspram_tool_realloc(NULL, ((size_t)H + 1) * sizeof *src, "bspram probe (put source)");
    for (unsigned i = 0; i <= H; i++)
        src[i] = (double)(s + i);
    bsp_push_reg(dest, (H + 1) * sizeof *dest);
    bsp_sync();
    for (unsigned i = 0; i < 100; i++) /* warm up: threads settle, buffers grow */
        bsp_sync();
    /* Each h is timed REPS times over iters/REPS supersteps and the median
     * kept: on a shared machine a descheduled thread can stretch a round
     * tenfold, and one such round must not tilt the fit. */
    enum { REPS = 5 };
    const unsigned per = probe.iters / REPS ? probe.iters / REPS : 1;
    for (unsigned k = 0; k * probe.step <= H; k++) {
        const unsigned h = k * probe.step;
        double rounds[REPS];
        for (unsigned rep = 0; rep < REPS; rep++) {
            bsp_sync();
            double t0 = bsp_time();
            for (unsigned it = 0; it < per; it++) {
                /* word i to process (s+1+i) mod p, as bspbench: every process
                 * sends h and receives h words — a full h-relation */
                for (unsigned i = 0; i < h; i++)
                    bsp_put((s + 1 + i) % p, &src[i], dest, (size_t)i * sizeof *dest,
                            sizeof *dest);
                bsp_sync();
            }
            rounds[rep] = (bsp_time() - t0) / per;
        }
        if (s == 0) {
            for (unsigned a = 1; a < REPS; a++) /* insertion sort of 5 */
                for (unsigned b = a; b > 0 && rounds[b] < rounds[b - 1]; b--) {
                    double x = rounds[b];
                    rounds[b] = rounds[b - 1];
                    rounds[b - 1] = x;
                }
            probe.t[k] = rounds[REPS / 2];
        }
    }
    bsp_pop_reg(dest);
    bsp_sync();
    free(src);
    free(dest);
    bsp_end();
}

static double seconds(void) { return bspram__clock(); }

/* r in flop per ns: DAXPY y += a·x on vectors that fit in cache, as
 * bspbench measures r (2 flops per element). */
static double daxpy_rate(void)
{
    enum { N = 1024 };
    static double x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = 1.0 + i * 1e-6, y[i] = 0;
    double best = 0, a = 1.0 / 3;
    for (int rep = 0; rep < 5; rep++) {
        const int iters = 20000;
        double t0 = seconds();
        for (int it = 0; it < iters; it++) {
            for (int i = 0; i < N; i++)
                y[i] += a * x[i];
            __asm__ __volatile__("" : : "r"(y) : "memory"); /* keep every pass */
        }
        double rate = 2.0 * N * iters / ((seconds() - t0) * 1e9);
        if (rate > best)
            best = rate;
        a = -a; /* keep y bounded */
    }
    return best;
}

/* The settings the command line sets (options below), with their defaults. */
typedef struct probe_settings {
    uint64_t p, max_h, step, supersteps;
    int no_save, verbose;
    const char *format;
} probe_settings;

/* --p: BSPlib's limit; --max-h and --step: h-relations of up to 2^20 words
 * (8 MiB buffers per process); --supersteps: per h. The short letters are
 * those of earlier versions. */
static const bspram_option options[] = {
    {.name = "p", .letter = 'p', .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(probe_settings, p),
     .value = "P", .help = "processes, in [1, 65536] (default: the number of cores)", .min = 1,
     .max = PROBE_MAX_P},
    {.name = "max-h", .letter = 'H', .kind = BSPRAM_OPT_WHOLE,
     .offset = offsetof(probe_settings, max_h), .value = "H",
     .help = "the largest h, in [1, 1048576] (default 256)", .min = 1, .max = PROBE_MAX_H},
    {.name = "step", .letter = 's', .kind = BSPRAM_OPT_WHOLE,
     .offset = offsetof(probe_settings, step), .value = "S",
     .help = "h = 0, S, 2S, ..., H; S in [1, 1048576] (default 16)", .min = 1, .max = PROBE_MAX_H},
    {.name = "supersteps", .letter = 'n', .kind = BSPRAM_OPT_WHOLE,
     .offset = offsetof(probe_settings, supersteps), .value = "N",
     .help = "supersteps timed per h, in [1, 1000000] (default 200;\nthe median of 5 rounds)",
     .min = 1, .max = PROBE_MAX_ITERS},
    {.name = "no-save", .kind = BSPRAM_OPT_FLAG, .offset = offsetof(probe_settings, no_save),
     .help = "measure and print, but save nothing"},
    {.name = "verbose", .letter = 'v', .kind = BSPRAM_OPT_FLAG,
     .offset = offsetof(probe_settings, verbose),
     .help = "print the time of every h too (JSON: always, as \"times\")"},
    BSPRAM_FORMAT_OPTION(probe_settings, format),
    {.name = NULL}};

static int run_probe(int argc, char **argv);

const bspram_command bspram_cmd_probe = {
    .name = "probe", .summary = "measure g and l (BSPlib h-relations, least squares) and save them",
    .run = run_probe, .usage = "[options]",
    .about = "Measures g (ns per 8-byte put) and l (ns per sync) with P processes by\n"
    "h-relations of single-word puts, h = 0, S, ..., H, each timed over N\n"
    "supersteps, and a least-squares fit t(h) = l + g*h; and the DAXPY rate r.\n"
    "Saves them to $BSPRAM_PARAMS, else $XDG_CONFIG_HOME/bspram/params, else\n"
    "~/.config/bspram/params; programs load them with bspram_params_load\n"
    "(bsp/params.h). CSV columns (JSON: an object of the same fields, the times of\n"
    "every h and the file saved):\n"
    "  p,max_h,step,supersteps,r_flops_per_ns,g_ns_per_word,g_flops_per_word,\n"
    "  g_ns_per_byte,l_ns,l_flops", .options = options};

/* Where the parameters go (bsp/params.h) into path: 0, or 1 after one line
 * if there is no such place, or something there that bspram_params_save
 * refuses — a directory, a FIFO, a device. */
static int save_place(char *path, size_t len)
{
    struct stat st;
    if (bspram_params_path(path, len) != 0) {
        fprintf(stderr, "bspram probe: cannot save the parameters: no place for them (set "
                        "BSPRAM_PARAMS, XDG_CONFIG_HOME or HOME, or give --no-save)\n");
        return 1;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(stderr, "bspram probe: cannot save the parameters to %s: not a regular file (%s); "
                        "give --no-save, or BSPRAM_PARAMS naming a file\n", path,
                bspram__base_file_kind(st.st_mode));
        return 1;
    }
    return 0;
}

/* The figures in the format asked: text, CSV or JSON (format.h). */
static void print_result(bspram_format format, const bspram_params *pr, int verbose, const char *saved)
{
    const unsigned K = probe.hmax / probe.step + 1;
    if (format == BSPRAM_FORMAT_CSV) {
        printf("p,max_h,step,supersteps,r_flops_per_ns,g_ns_per_word,g_flops_per_word,g_ns_per_byte,"
               "l_ns,l_flops\n%u,%u,%u,%u,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", probe.p, probe.hmax,
               probe.step, probe.iters, pr->flops_per_ns, pr->g_ns_per_word, pr->g_flops_per_word,
               pr->g_ns_per_byte, pr->l_ns, pr->l_flops);
        return;
    }
    if (format == BSPRAM_FORMAT_JSON) {
        printf("{\"p\": %u, \"max_h\": %u, \"step\": %u, \"supersteps\": %u", probe.p, probe.hmax,
               probe.step, probe.iters);
        const char *names[] = {"r_flops_per_ns", "g_ns_per_word", "g_flops_per_word", "g_ns_per_byte",
                               "l_ns", "l_flops"};
        const double values[] = {pr->flops_per_ns, pr->g_ns_per_word, pr->g_flops_per_word,
                                 pr->g_ns_per_byte, pr->l_ns, pr->l_flops};
        for (int i = 0; i < 6; i++) {
            printf(", \"%s\": ", names[i]);
            bspram_json_number(values[i]);
        }
        printf(", \"times\": [");
        for (unsigned k = 0; k < K; k++)
            printf("%s{\"h\": %u, \"ns\": %.1f}", k ? ", " : "", k * probe.step, probe.t[k] * 1e9);
        printf("], \"saved\": ");
        if (saved)
            bspram_json_string(saved);
        else
            printf("null");
        printf("}\n");
        return;
    }
    for (unsigned k = 0; verbose && k < K; k++)
        printf("  h = %4u: %10.1f ns per superstep\n", k * probe.step, probe.t[k] * 1e9);
    printf("bspram probe: P = %u, h = 0..%u step %u, %u supersteps each\n", probe.p, probe.hmax,
           probe.step, probe.iters);
    printf("  r = %8.1f Mflop/s (DAXPY)\n", pr->flops_per_ns * 1e3);
    printf("  g = %8.2f ns per word  = %8.1f flop   (%.3f ns per byte of router h-relation)\n",
           pr->g_ns_per_word, pr->g_flops_per_word, pr->g_ns_per_byte);
    printf("  l = %8.1f ns per sync  = %8.1f flop\n", pr->l_ns, pr->l_flops);
    if (saved)
        printf("saved to %s\n", saved);
}

static int run_probe(int argc, char **argv)
{
    probe_settings o = {.p = bsp_nprocs(), .max_h = 256, .step = 16, .supersteps = 200,
                        .format = "text"};
    int rc = bspram_options_parse(&bspram_cmd_probe, argc, argv, &o, NULL);
    if (rc)
        return rc == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : rc;
    probe.p = (unsigned)o.p;
    probe.hmax = (unsigned)o.max_h;
    probe.step = (unsigned)o.step;
    probe.iters = (unsigned)o.supersteps;
    const int save = !o.no_save, verbose = o.verbose;
    const bspram_format format = bspram_format_of(o.format);
    if (probe.hmax < probe.step) /* the numbers are >= 1 (the options' ranges) */
        return bspram_tool_usage("probe", "--max-h %u is below --step %u", probe.hmax, probe.step);
    char place[4096];
    if (save && save_place(place, sizeof place)) /* before the work, not after it */
        return BSPRAM_TOOL_FAILED;
    const unsigned K = probe.hmax / probe.step + 1;
    probe.t = bspram_tool_calloc(K, sizeof *probe.t, "bspram probe (timings)");

    double r = daxpy_rate();
    bsp_init(spmd, argc, argv);
    spmd();

    /* least squares t = l + g·h over the K points */
    double sh = 0, st = 0, shh = 0, sht = 0;
    for (unsigned k = 0; k < K; k++) {
        double h = (double)(k * probe.step), t = probe.t[k] * 1e9;
        sh += h, st += t, shh += h * h, sht += h * t;
    }
    double g = (K * sht - sh * st) / (K * shh - sh * sh);
    double l = (st - g * sh) / K;

    bspram_params pr = {0};
    pr.p = probe.p;
    pr.g_ns_per_word = g;
    pr.l_ns = l;
    pr.bytes_per_put = 16; /* a put of n bytes is one router message of 8 + n (bsp.h) */
    pr.g_ns_per_byte = g / pr.bytes_per_put;
    pr.flops_per_ns = r;
    pr.g_flops_per_word = g * r;
    pr.l_flops = l * r;
    /* Saved before the figures are printed, so that JSON can say where;
     * what fails is one line on stderr, the figures printed all the same. */
    char path[4096];
    const char *saved = NULL;
    rc = BSPRAM_TOOL_OK;
    if (save && !(g >= 0 && l >= 0 && isfinite(g) && isfinite(l) && isfinite(r))) {
        /* A noisy machine can tilt the fit below zero; a negative cost
         * would make every prediction wrong, so nothing is saved. */
        fprintf(stderr, "bspram probe: the fit gave g = %.3g ns, l = %.3g ns; g and l must be "
                        "finite and >= 0, not saved (retry on a quieter machine, or with larger "
                        "--supersteps or --max-h)\n", g, l);
        rc = BSPRAM_TOOL_FAILED;
    } else if (save && bspram_params_save(&pr) != 0) {
        /* The values were checked above: what failed is the file (a FIFO
         * or a device is refused, never waited on). */
        int e = errno;
        if (!save_place(path, sizeof path))
            fprintf(stderr, "bspram probe: cannot save the parameters to %s: %s\n", path, strerror(e));
        rc = BSPRAM_TOOL_FAILED;
    } else if (save) {
        bspram_params_path(path, sizeof path);
        saved = path;
    }
    print_result(format, &pr, verbose, saved);
    free(probe.t);
    return rc;
}
