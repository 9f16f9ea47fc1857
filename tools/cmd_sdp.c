/* bspram sdp: one stable dimension permutation (coll/bsp_sdp.h) on the
 * Boolean cube of 2^n BSPlib processes, checked against a sequential
 * reference, with its rounds (C1) and data (C2) from the router's records
 * beside Ho & Johnsson's counts and the lower bounds of their Theorem 1. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsp.h>
#include <bsp_coll.h>
#include <bsp_sdp.h>

#include "tools/commands.h"

#define error(...) bspram_tool_error("sdp", __VA_ARGS__)

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bspram sdp --dims n --perm PERM --elems K [--alg A] [--ports 1|n]\n"
            "                  [--bytes B] [--alloc cyclic|consecutive] [--reps R]\n"
            "                  [--format text|csv]\n"
            "Runs one stable dimension permutation (Ho & Johnsson 1988) on the n-cube of\n"
            "2^n BSPlib processes (coll/bsp_sdp.h), checks it against a sequential\n"
            "reference, and prints its rounds C1 and data C2 as the router's records\n"
            "measured them, beside the paper's counts and the lower bounds of Theorem 1.\n"
            "The permutation acts on the n logic dimensions allocated to the processor\n"
            "(real dimensions); each process holds K elements of B bytes.\n"
            "  --dims n     cube dimension, in [0, 16] (2^n processes)\n"
            "  --perm PERM  shuffle, unshuffle, k-shuffle=K, bitrev, transpose (n even)\n"
            "  --elems K    elements per process, a power of two in [1, 2^24]\n"
            "  --alg A      A1, A1a, A2, A3, A5 (n ports only) or auto (default: the\n"
            "               least C1·l + C2·g)\n"
            "  --ports P    1 (default) or n (n ports: A2 and A5), given as the letter n\n"
            "               or as the value of --dims\n"
            "  --bytes B    bytes per element, in [0, 4096] (default 8)\n"
            "  --alloc A    cyclic (default: the low logic dimensions on the processor) or\n"
            "               consecutive (the high ones)\n"
            "  --reps R     calls timed after the checked one, in [1, 10^6] (default 10)\n"
            "  --format F   text (default) or csv; CSV columns:\n"
            "               perm,alg,ports,dims,elems,bytes,K,c1,c2,seconds,verified,\n"
            "               predicted_c1,predicted_c2,lower_c1,lower_c2\n"
            "K is the bytes per process; seconds the wall time per call. Exit status: 0 if\n"
            "verified, 3 if the result differs from the reference, 1 on a bad option.\n");
}

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

int bspram_cmd_sdp(int argc, char **argv)
{
    const char *perm = NULL, *alg = "auto", *alloc = "cyclic", *format = "text";
    uint64_t dims = UINT64_MAX, elems = 0, bytes = 8, ports = 1, reps = 10;
    int ports_n = 0; /* --ports n: the cube's dimension, known once --dims is read */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        static const char *const known[] = {"--dims",  "--perm",  "--elems", "--alg",   "--ports",
                                            "--bytes", "--alloc", "--reps",  "--format"};
        int ok = 0;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            ok |= !strcmp(a, known[k]);
        if (!ok)
            return error("unknown option '%s'; see bspram sdp --help", a);
        if (i + 1 >= argc)
            return error("option %s needs a value; see bspram sdp --help", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--perm"))
            perm = v;
        else if (!strcmp(a, "--alg"))
            alg = v;
        else if (!strcmp(a, "--alloc"))
            alloc = v;
        else if (!strcmp(a, "--format"))
            format = v;
        else if (!strcmp(a, "--ports") && !strcmp(v, "n"))
            ports_n = 1;
        else if (!strcmp(a, "--dims") ? bspram_tool_number("sdp", a, v, 0, 16, &dims)
                 : !strcmp(a, "--elems") ? bspram_tool_number("sdp", a, v, 1, 1u << 24, &elems)
                 : !strcmp(a, "--bytes") ? bspram_tool_number("sdp", a, v, 0, 4096, &bytes)
                 : !strcmp(a, "--ports") ? (ports_n = 0, bspram_tool_number("sdp", a, v, 1, 16, &ports))
                                         : bspram_tool_number("sdp", a, v, 1, 1000000, &reps))
            return 1;
    }
    if (dims == UINT64_MAX)
        return error("--dims n is required (the cube's dimension, in [0, 16])");
    if (ports_n)
        ports = dims ? dims : 1;
    if (!perm)
        return error("--perm PERM is required; valid: shuffle, unshuffle, k-shuffle=K, bitrev, "
                     "transpose");
    if (!elems)
        return error("--elems K is required (elements per process, a power of two)");
    if (elems & (elems - 1))
        return error("--elems %" PRIu64 ": not a power of two", elems);
    if (elems * bytes > (UINT64_C(1) << 28))
        return error("--elems %" PRIu64 " --bytes %" PRIu64 ": more than 256 MiB per process",
                     elems, bytes);
    int a = bsp_sdp_algorithm_parse(alg);
    if (a < 0)
        return error("--alg '%s': unknown algorithm; valid: A1, A1a, A2, A3, A5, auto", alg);
    if (ports != 1 && ports != dims)
        return error("--ports %" PRIu64 ": must be 1 or n = %" PRIu64, ports, dims);
    if (ports > 1 && a != BSP_SDP_A2 && a != BSP_SDP_A5 && a != BSP_SDP_AUTO)
        return error("--ports %" PRIu64 ": algorithm %s has one port only (n ports: A2, A5)",
                     ports, bsp_sdp_algorithm_name((bsp_sdp_algorithm)a));
    if (ports == 1 && a == BSP_SDP_A5 && dims > 1)
        return error("--alg A5: needs --ports %" PRIu64 " (n ports)", dims);
    int csv = !strcmp(format, "csv");
    if (!csv && strcmp(format, "text"))
        return error("--format '%s': unknown format; valid: text, csv", format);
    unsigned n = (unsigned)dims, s = 0;
    while ((UINT64_C(1) << s) < elems)
        s++;
    unsigned m = n + s, first;
    if (!strcmp(alloc, "cyclic")) {
        run.layout = bsp_sdp_cyclic(n, m, (bsp_size_t)bytes);
        first = 0;
    } else if (!strcmp(alloc, "consecutive")) {
        run.layout = bsp_sdp_consecutive(n, m, (bsp_size_t)bytes);
        first = m - n;
    } else {
        return error("--alloc '%s': unknown allocation; valid: cyclic, consecutive", alloc);
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
            return error("--perm transpose: needs an even --dims (a 2^(n/2) x 2^(n/2) block "
                         "matrix), not %u", n);
        run.perm = bsp_sdp_transpose(m, first, n);
    } else if (!strncmp(perm, "k-shuffle=", 10)) {
        uint64_t kk;
        if (bspram_tool_number("sdp", "--perm k-shuffle=", perm + 10, 0, 64, &kk))
            return 1;
        k = (int)kk;
        run.perm = bsp_sdp_shuffle(m, first, n, k);
    } else {
        return error("--perm '%s': unknown permutation; valid: shuffle, unshuffle, k-shuffle=K, "
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
    if (csv) {
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
    return verified ? 0 : 3;
}
