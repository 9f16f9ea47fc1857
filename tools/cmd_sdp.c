/* bspram sdp: one stable dimension permutation (coll/bsp_sdp.h) on the
 * Boolean cube of 2^n BSPlib processes, checked against a sequential
 * reference, with its rounds (C1) and data (C2) from the router's records
 * beside Ho & Johnsson's counts and the lower bounds of their Theorem 1. */
#include <inttypes.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsp.h>
#include <bsp_coll.h>
#include <bsp_sdp.h>

#include "tools/commands.h"
#include "tools/format.h"

#define usage_error(...) bspram_tool_usage("sdp", __VA_ARGS__)

static struct {
    unsigned P;
    bsp_sdp_layout layout;
    bsp_sdp_perm perm;
    bsp_sdp_options opt;
    uint64_t reps;
    atomic_int wrong;
    bsp_coll_cost cost;
    double seconds;
} run;

static unsigned char content(uint64_t w, size_t k)
{
    return (unsigned char)(w * 131 + k * 7 + (w >> 8) * 3 + 1);
}

/* The logic address of machine address a under π. */
static uint64_t logic(uint64_t a)
{
    uint64_t w = 0;
    for (unsigned i = 0; i < run.layout.m; i++)
        w |= ((a >> run.layout.pi[i]) & 1u) << i;
    return w;
}

static void spmd(void)
{
    bsp_begin(run.P);
    unsigned pid = bsp_pid(), n = 0;
    while ((1u << n) < run.P)
        n++;
    size_t count = (size_t)1 << (run.layout.m - n), e = run.layout.elem, K = count * e;
    unsigned char *src = malloc(K + 1), *dst = malloc(K + 1);
    if (!src || !dst)
        bsp_abort("bspram sdp: out of memory for %zu bytes per process\n", K);
    for (size_t l = 0; l < count; l++) {
        uint64_t w = logic(pid | (uint64_t)l << n);
        for (size_t k = 0; k < e; k++)
            src[l * e + k] = content(w, k);
    }
    bsp_sdp(&run.layout, &run.perm, src, dst, &run.opt);
    run.cost = bsp_coll_last_cost();
    /* The element at (pid, l) must be the w whose permuted address dp(w) is here. */
    for (size_t l = 0; l < count; l++) {
        uint64_t v = logic(pid | (uint64_t)l << n), w = 0;
        for (unsigned i = 0; i < run.layout.m; i++)
            w |= ((v >> run.perm.delta[i]) & 1u) << i;
        for (size_t k = 0; k < e; k++)
            if (dst[l * e + k] != content(w, k))
                atomic_store(&run.wrong, 1);
    }
    bsp_sync();
    double t0 = bsp_time();
    for (uint64_t r = 0; r < run.reps; r++)
        bsp_sdp(&run.layout, &run.perm, src, dst, &run.opt);
    bsp_sync();
    if (pid == 0)
        run.seconds = (bsp_time() - t0) / (double)run.reps;
    free(src);
    free(dst);
    bsp_end();
}

/* The settings the command line sets (options below), with their defaults. */
typedef struct sdp_settings {
    const char *perm, *algorithm, *alloc, *format, *ports;
    uint64_t dims, elems, bytes, reps;
} sdp_settings;

static const char *algorithm_name(size_t i)
{
    const char *name = bsp_sdp_algorithm_name((bsp_sdp_algorithm)i);
    return strcmp(name, "unknown") ? name : NULL;
}

static const char *perm_name(size_t i)
{
    static const char *const names[] = {"shuffle", "unshuffle", "k-shuffle=", "bitrev", "transpose"};
    return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}

static const bspram_option options[] = {
    {.name = "dims", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(sdp_settings, dims), .value = "n",
     .help = "cube dimension, in [0, 16] (2^n processes)", .min = 0, .max = 16},
    {.name = "perm", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(sdp_settings, perm),
     .value = "PERM", .help = "shuffle, unshuffle, k-shuffle=K, bitrev, transpose (n even)",
     .names = perm_name},
    {.name = "elems", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(sdp_settings, elems),
     .value = "K", .help = "elements per process, a power of two in [1, 2^24]", .min = 1,
     .max = 1u << 24},
    {.name = "algorithm", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(sdp_settings, algorithm),
     .value = "A",
     .help = "A1, A1a, A2, A3, A5 (n ports only) or auto (default: the\nleast C1*l + C2*g)",
     .names = algorithm_name},
    {.name = "ports", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(sdp_settings, ports),
     .value = "P",
     .help = "1 (default) or n (n ports: A2 and A5), given as the letter n\nor as the value of --dims"},
    {.name = "bytes", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(sdp_settings, bytes),
     .value = "B", .help = "bytes per element, in [0, 4096] (default 8)", .min = 0, .max = 4096},
    {.name = "alloc", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(sdp_settings, alloc),
     .help = "cyclic (default: the low logic dimensions on the processor) or\nconsecutive (the high ones)",
     .choices = "cyclic|consecutive"},
    {.name = "reps", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(sdp_settings, reps), .value = "R",
     .help = "calls timed after the checked one, in [1, 10^6] (default 10)", .min = 1,
     .max = 1000000},
    BSPRAM_FORMAT_OPTION(sdp_settings, format),
    {.name = NULL}};

static int run_sdp(int argc, char **argv);

const bspram_command bspram_cmd_sdp = {
    .name = "sdp",
    .summary = "run a dimension permutation (Ho-Johnsson) on the cube of BSPlib processes, checked, with its C1 and C2",
    .run = run_sdp, .usage = "--dims n --perm PERM --elems K [options]",
    .about = "Runs one stable dimension permutation (Ho & Johnsson 1988) on the n-cube of\n"
    "2^n BSPlib processes (coll/bsp_sdp.h), checks it against a sequential\n"
    "reference, and prints its rounds C1 and data C2 as the router's records\n"
    "measured them, beside the paper's counts and the lower bounds of Theorem 1.\n"
    "The permutation acts on the n logic dimensions allocated to the processor\n"
    "(real dimensions); each process holds K elements of B bytes.\n"
    "CSV columns (JSON: an object of the same fields):\n"
    "  perm,alg,ports,dims,elems,bytes,K,c1,c2,seconds,verified,predicted_c1,\n"
    "  predicted_c2,lower_c1,lower_c2\n"
    "K is the bytes per process; seconds the wall time per call. Exit status 3 if\n"
    "the result differs from the reference.", .options = options};

static int run_sdp(int argc, char **argv)
{
    sdp_settings o = {.algorithm = "auto", .alloc = "cyclic", .format = "text", .ports = "1",
                      .dims = UINT64_MAX, .bytes = 8, .reps = 10};
    int rc = bspram_options_parse(&bspram_cmd_sdp, argc, argv, &o, NULL);
    if (rc)
        return rc == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : rc;
    const char *perm = o.perm, *alg = o.algorithm, *alloc = o.alloc;
    uint64_t dims = o.dims, elems = o.elems, bytes = o.bytes, ports = 1, reps = o.reps;
    /* --ports n: the cube's dimension, known once --dims is read. */
    const int ports_n = !strcmp(o.ports, "n");
    if (!ports_n && bspram_tool_number("sdp", "--ports", o.ports, 1, 16, &ports))
        return BSPRAM_TOOL_USAGE;
    if (dims == UINT64_MAX)
        return usage_error("--dims n is required (the cube's dimension, in [0, 16])");
    if (ports_n)
        ports = dims ? dims : 1;
    if (!perm)
        return usage_error("--perm PERM is required; valid: shuffle, unshuffle, k-shuffle=K, bitrev, "
                     "transpose");
    if (!elems)
        return usage_error("--elems K is required (elements per process, a power of two)");
    if (elems & (elems - 1))
        return usage_error("--elems %" PRIu64 ": not a power of two", elems);
    if (elems * bytes > (UINT64_C(1) << 28))
        return usage_error("--elems %" PRIu64 " --bytes %" PRIu64 ": more than 256 MiB per process",
                     elems, bytes);
    int a = bsp_sdp_algorithm_parse(alg);
    if (a < 0)
        return usage_error("--algorithm '%s': unknown algorithm; valid: A1, A1a, A2, A3, A5, auto", alg);
    if (ports != 1 && ports != dims)
        return usage_error("--ports %" PRIu64 ": must be 1 or n = %" PRIu64, ports, dims);
    if (ports > 1 && a != BSP_SDP_A2 && a != BSP_SDP_A5 && a != BSP_SDP_AUTO)
        return usage_error("--ports %" PRIu64 ": algorithm %s has one port only (n ports: A2, A5)",
                     ports, bsp_sdp_algorithm_name((bsp_sdp_algorithm)a));
    if (ports == 1 && a == BSP_SDP_A5 && dims > 1)
        return usage_error("--algorithm A5: needs --ports %" PRIu64 " (n ports)", dims);
    const bspram_format format = bspram_format_of(o.format);
    unsigned n = (unsigned)dims, s = 0;
    while ((UINT64_C(1) << s) < elems)
        s++;
    unsigned m = n + s, first;
    if (!strcmp(alloc, "cyclic")) {
        run.layout = bsp_sdp_cyclic(n, m, (bsp_size_t)bytes);
        first = 0;
    } else { /* consecutive (the parser takes no other) */
        run.layout = bsp_sdp_consecutive(n, m, (bsp_size_t)bytes);
        first = m - n;
    }
    int k = 0;
    if (!strcmp(perm, "shuffle"))
        run.perm = bsp_sdp_shuffle(m, first, n, 1);
    else if (!strcmp(perm, "unshuffle"))
        run.perm = bsp_sdp_shuffle(m, first, n, -1);
    else if (!strcmp(perm, "bitrev"))
        run.perm = bsp_sdp_bit_reversal(m, first, n);
    else if (!strcmp(perm, "transpose")) {
        if (n % 2)
            return usage_error("--perm transpose: needs an even --dims (a 2^(n/2) x 2^(n/2) block "
                         "matrix), not %u", n);
        run.perm = bsp_sdp_transpose(m, first, n);
    } else if (!strncmp(perm, "k-shuffle=", 10)) {
        uint64_t kk;
        if (bspram_tool_number("sdp", "--perm k-shuffle=", perm + 10, 0, 64, &kk))
            return BSPRAM_TOOL_USAGE;
        k = (int)kk;
        run.perm = bsp_sdp_shuffle(m, first, n, k);
    } else {
        return usage_error("--perm '%s': unknown permutation; valid: shuffle, unshuffle, k-shuffle=K, "
                     "bitrev, transpose", perm);
    }
    run.P = 1u << n;
    run.reps = reps;
    run.opt = (bsp_sdp_options){.algorithm = (bsp_sdp_algorithm)a, .ports = (unsigned)ports};
    bsp_sdp_prediction pred = bsp_sdp_predict(n, &run.layout, &run.perm, &run.opt);
    run.opt.algorithm = pred.algorithm; /* what auto picks, run and reported */
    bsp_init(spmd, argc, argv);
    spmd();
    int verified = !atomic_load(&run.wrong);
    const char *name = bsp_sdp_algorithm_name(pred.algorithm);
    uint64_t K = elems * bytes;
    if (format == BSPRAM_FORMAT_JSON) {
        printf("{\"perm\": ");
        bspram_json_string(perm);
        printf(", \"alg\": \"%s\", \"ports\": %" PRIu64 ", \"dims\": %u, \"elems\": %" PRIu64
               ", \"bytes\": %" PRIu64 ", \"K\": %" PRIu64 ", \"c1\": %" PRIu64 ", \"c2\": %" PRIu64
               ", \"seconds\": %.9f, \"verified\": %s, \"predicted_c1\": %" PRIu64
               ", \"predicted_c2\": %" PRIu64 ", \"lower_c1\": %" PRIu64 ", \"lower_c2\": %" PRIu64 "}\n",
               name, ports, n, elems, bytes, K, run.cost.c1, run.cost.c2, run.seconds,
               verified ? "true" : "false", pred.c1, pred.c2, pred.c1_lower, pred.c2_lower);
    } else if (format == BSPRAM_FORMAT_CSV) {
        printf("perm,alg,ports,dims,elems,bytes,K,c1,c2,seconds,verified,predicted_c1,"
               "predicted_c2,lower_c1,lower_c2\n");
        printf("%s,%s,%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%.9f,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
               perm, name, ports, n, elems, bytes, K, run.cost.c1, run.cost.c2, run.seconds,
               verified, pred.c1, pred.c2, pred.c1_lower, pred.c2_lower);
    } else {
        bsp_sdp_cycles cy = bsp_sdp_analyze(n, &run.layout, &run.perm);
        printf("%s on the %u-cube (%u processes), %s allocation, %" PRIu64 " elements of %" PRIu64
               " bytes per process (K = %" PRIu64 " bytes): algorithm %s, %" PRIu64 " port%s\n",
               perm, n, run.P, alloc, elems, bytes, K, name, ports, ports > 1 ? "s" : "");
        printf("  cycles      %u real (order %u, %u odd)\n", cy.real_cycles, cy.real_order,
               cy.odd_real_cycles);
        printf("  result      %s\n", verified ? "verified against the sequential reference"
                                              : "DIFFERS from the sequential reference");
        printf("  %-10s %12s %12s %12s\n", "", "measured", "paper", "lower bound");
        printf("  %-10s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "C1 rounds", run.cost.c1,
               pred.c1, pred.c1_lower);
        printf("  %-10s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "C2 bytes", run.cost.c2,
               pred.c2, pred.c2_lower);
        printf("  %.3f us per call (%" PRIu64 " calls)\n", run.seconds * 1e6, reps);
    }
    return verified ? BSPRAM_TOOL_OK : BSPRAM_TOOL_WRONG;
}
