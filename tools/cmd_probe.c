/* bspram probe: measure the BSP parameters g and l of this machine the
 * textbook way — Bisseling, "Parallel Scientific Computation" (2nd ed.,
 * 2020), §1.6, program bspbench: for h = 0..H, time supersteps in which
 * every process puts h single words (8 bytes) to other processes (an
 * h-relation), fit t(h) = l + g·h by least squares; and measure the
 * computing rate r of a DAXPY to express g and l in flops. The result is
 * printed and saved (bsp/params.h says where) for predicting costs. */
#include <bsp.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/clock.h"
#include "base/input.h"
#include "bsp/params.h"
#include "tools/commands.h"

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

static void usage(FILE *f)
{
    fprintf(f, "usage: bspram probe [--p P] [--max-h H] [--step S] [--supersteps N] [--no-save]\n"
               "                    [--verbose]\n"
               "  Measures g (ns per 8-byte put) and l (ns per sync) with P processes\n"
               "  (default: the number of cores) by h-relations of single-word puts,\n"
               "  h = 0, S, ..., H (default 0..256 step 16), each timed over N\n"
               "  supersteps (default 200; median of 5 rounds), and a least-squares fit t(h) = l + g*h.\n"
               "  --verbose prints the time of every h. Saves them to $BSPRAM_PARAMS, else\n"
               "  $XDG_CONFIG_HOME/bspram/params, else ~/.config/bspram/params; programs\n"
               "  load them with bspram_params_load (bsp/params.h).\n");
}

/* A numeric option in [1, max], or one line on stderr and −1. */
static int option_number(const char *option, const char *text, unsigned max, unsigned *out)
{
    uint64_t x;
    if (bspram_tool_number("probe", option, text, 1, max, &x))
        return -1;
    *out = (unsigned)x;
    return 0;
}

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

int bspram_cmd_probe(int argc, char **argv)
{
    /* Long options, as every command has them; the short ones of earlier
     * versions (-p -H -s -n -v -h) still work. */
    static const struct option longopts[] = {
        {"p", required_argument, NULL, 'p'},          {"max-h", required_argument, NULL, 'H'},
        {"step", required_argument, NULL, 's'},       {"supersteps", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},             {"no-save", no_argument, NULL, 'N'},
        {"verbose", no_argument, NULL, 'v'},          {0, 0, 0, 0}};
    probe.p = bsp_nprocs();
    probe.hmax = 256;
    probe.step = 16;
    probe.iters = 200;
    int save = 1, verbose = 0, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:H:s:n:hv", longopts, NULL)) != -1) {
        switch (c) {
        /* --p: BSPlib's limit; --max-h and --step: h-relations of up to 2^20
         * words (8 MiB buffers per process); --supersteps: per h. */
        case 'p': if (option_number("--p", optarg, PROBE_MAX_P, &probe.p)) return 2; break;
        case 'H': if (option_number("--max-h", optarg, PROBE_MAX_H, &probe.hmax)) return 2; break;
        case 's': if (option_number("--step", optarg, PROBE_MAX_H, &probe.step)) return 2; break;
        case 'n': if (option_number("--supersteps", optarg, PROBE_MAX_ITERS, &probe.iters)) return 2; break;
        case 'N': save = 0; break;
        case 'v': verbose = 1; break;
        case 'h': usage(stdout); return 0;
        default: return bspram_tool_bad_option("probe", c, argv);
        }
    }
    if (optind < argc) { /* getopt moves such words to the end: never ignore them */
        bspram_tool_error("probe", "unexpected argument '%s' (every value follows its option, "
                                   "e.g. --p 4); see bspram probe --help", argv[optind]);
        return 2;
    }
    if (probe.hmax < probe.step) { /* the numbers are >= 1 (option_number) */
        fprintf(stderr, "bspram probe: --max-h %u is below --step %u\n", probe.hmax, probe.step);
        return 2;
    }
    char place[4096];
    if (save && save_place(place, sizeof place)) /* before the work, not after it */
        return 1;
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
        if (verbose)
            printf("  h = %4u: %10.1f ns per superstep\n", k * probe.step, t);
    }
    double g = (K * sht - sh * st) / (K * shh - sh * sh);
    double l = (st - g * sh) / K;
    free(probe.t);

    bspram_params pr = {0};
    pr.p = probe.p;
    pr.g_ns_per_word = g;
    pr.l_ns = l;
    pr.bytes_per_put = 16; /* a put of n bytes is one router message of 8 + n (bsp.h) */
    pr.g_ns_per_byte = g / pr.bytes_per_put;
    pr.flops_per_ns = r;
    pr.g_flops_per_word = g * r;
    pr.l_flops = l * r;
    printf("bspram probe: P = %u, h = 0..%u step %u, %u supersteps each\n", probe.p, probe.hmax,
           probe.step, probe.iters);
    printf("  r = %8.1f Mflop/s (DAXPY)\n", r * 1e3);
    printf("  g = %8.2f ns per word  = %8.1f flop   (%.3f ns per byte of router h-relation)\n",
           g, pr.g_flops_per_word, pr.g_ns_per_byte);
    printf("  l = %8.1f ns per sync  = %8.1f flop\n", l, pr.l_flops);
    if (save && !(g >= 0 && l >= 0 && isfinite(g) && isfinite(l) && isfinite(r))) {
        /* A noisy machine can tilt the fit below zero; a negative cost
         * would make every prediction wrong, so nothing is saved. */
        fprintf(stderr, "bspram probe: the fit gave g = %.3g ns, l = %.3g ns; g and l must be "
                        "finite and >= 0, not saved (retry on a quieter machine, or with larger "
                        "--supersteps or --max-h)\n", g, l);
        return 1;
    }
    if (save) {
        char path[4096];
        if (bspram_params_save(&pr) != 0) {
            /* The values were checked above: what failed is the file (a
             * FIFO or a device is refused, never waited on). */
            int e = errno;
            if (!save_place(path, sizeof path))
                fprintf(stderr, "bspram probe: cannot save the parameters to %s: %s\n", path,
                        strerror(e));
            return 1;
        }
        bspram_params_path(path, sizeof path);
        printf("saved to %s\n", path);
    }
    return 0;
}
