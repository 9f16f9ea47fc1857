/* bspram coll: run one collective (coll/bsp_coll.h) on P BSPlib processes,
 * check it against a sequential computation of the same result, and print
 * its measured rounds (C1) and data (C2) from the router's records beside
 * the algorithm's formula and the lower bounds of Bruck et al. (1997) §2. */
#include <inttypes.h>
#include <stddef.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsp.h>
#include <bsp_coll.h>

#include "base/output.h"
#include "combine/combine.h"
#include "tools/coll_tune.h"
#include "tools/commands.h"
#include "tools/format.h"

#define usage_error(...) bspram_tool_usage("coll", __VA_ARGS__)

/* ---- the run (globals: the SPMD function of a BSP section takes none) ---- */

static struct {
    int op, exclusive;
    unsigned p, root, opid;
    size_t block;
    bsp_coll_options opt;
    uint64_t reps;
    atomic_int wrong;
    bsp_coll_cost cost;
    double seconds;
} run;

static unsigned char pattern(unsigned rank, size_t i)
{
    uint64_t x = (uint64_t)rank * 0x9E3779B97F4A7C15u + i * 0xBF58476D1CE4E5B9u;
    return (unsigned char)(x >> 56 ^ x >> 29 ^ x);
}

static uint64_t operand(unsigned rank, size_t i)
{
    if (run.opid >= 14) /* f64: small integers, so every bracketing is exact */
    {
        double d = (double)((rank * 7 + i * 3) % 13) + 1.0;
        uint64_t w;
        memcpy(&w, &d, 8);
        return w;
    }
    return (uint64_t)pattern(rank, i) * 0x10001u + rank;
}

static void check(int ok)
{
    if (!ok)
        atomic_store(&run.wrong, 1);
}

/* One call with the sizes of run; send and recv as the operation needs. */
static void call(void *send, void *recv, void *buf)
{
    const bsp_coll_options *o = &run.opt;
    size_t b = run.block, count = b / 8;
    switch (run.op) {
    case BSP_COLL_BROADCAST: bsp_coll_broadcast(NULL, buf, b, run.root, o); break;
    case BSP_COLL_SCATTER: bsp_coll_scatter(NULL, send, recv, b, run.root, o); break;
    case BSP_COLL_GATHER: bsp_coll_gather(NULL, send, recv, b, run.root, o); break;
    case BSP_COLL_ALLGATHER: bsp_coll_allgather(NULL, send, recv, b, o); break;
    case BSP_COLL_ALLTOALL: bsp_coll_alltoall(NULL, send, recv, b, o); break;
    case BSP_COLL_REDUCE: bsp_coll_reduce(NULL, send, recv, count, run.opid, run.root, o); break;
    case BSP_COLL_ALLREDUCE: bsp_coll_allreduce(NULL, send, recv, count, run.opid, o); break;
    default:
        if (run.exclusive)
            bsp_coll_exscan(NULL, send, recv, count, run.opid, o);
        else
            bsp_coll_scan(NULL, send, recv, count, run.opid, o);
    }
}

/* The result rank `me` must hold, checked against the sequential definition. */
static void verify(unsigned me, const unsigned char *recv, const unsigned char *buf)
{
    unsigned n = run.p;
    size_t b = run.block;
    switch (run.op) {
    case BSP_COLL_BROADCAST:
        for (size_t i = 0; i < b; i++)
            check(buf[i] == pattern(run.root, i));
        return;
    case BSP_COLL_SCATTER:
        for (size_t i = 0; i < b; i++)
            check(recv[i] == pattern(run.root, (size_t)me * b + i));
        return;
    case BSP_COLL_GATHER:
        if (me == run.root)
            for (unsigned r = 0; r < n; r++)
                for (size_t i = 0; i < b; i++)
                    check(recv[(size_t)r * b + i] == pattern(r, i));
        return;
    case BSP_COLL_ALLGATHER:
        for (unsigned r = 0; r < n; r++)
            for (size_t i = 0; i < b; i++)
                check(recv[(size_t)r * b + i] == pattern(r, i));
        return;
    case BSP_COLL_ALLTOALL:
        for (unsigned r = 0; r < n; r++)
            for (size_t i = 0; i < b; i++)
                check(recv[(size_t)r * b + i] == pattern(r, (size_t)me * b + i));
        return;
    default: {
        if (run.op == BSP_COLL_REDUCE && me != run.root)
            return;
        unsigned last = run.op == BSP_COLL_SCAN ? me : n - 1;
        for (size_t i = 0; i < b / 8; i++) {
            uint64_t acc = bspram_op_identity(run.opid), got;
            unsigned upto = run.exclusive ? last : last + 1;
            for (unsigned r = 0; r < upto; r++)
                acc = bspram_op_apply(run.opid, acc, operand(r, i));
            memcpy(&got, recv + 8 * i, 8);
            check(got == acc);
        }
    }
    }
}

static void spmd(void)
{
    bsp_begin(run.p);
    unsigned me = bsp_pid(), n = bsp_nprocs();
    size_t b = run.block, whole = (size_t)n * b;
    unsigned char *send = malloc(whole + 8), *recv = malloc(whole + 8), *buf = malloc(b + 8);
    if (!send || !recv || !buf)
        bsp_abort("bspram coll: out of memory for blocks of %zu bytes on %u processes\n", b, n);
    if (run.op >= BSP_COLL_REDUCE)
        for (size_t i = 0; i < b / 8; i++) {
            uint64_t w = operand(me, i);
            memcpy(send + 8 * i, &w, 8);
        }
    else
        for (size_t i = 0; i < whole; i++)
            send[i] = pattern(me, i);
    memcpy(buf, send, b);
    call(send, recv, buf);
    run.cost = bsp_coll_last_cost(); /* the same on every process */
    verify(me, recv, buf);
    bsp_sync();
    double t0 = bsp_time();
    for (uint64_t r = 0; r < run.reps; r++)
        call(send, recv, buf);
    bsp_sync();
    if (me == 0)
        run.seconds = (bsp_time() - t0) / (double)run.reps;
    free(send);
    free(recv);
    free(buf);
    bsp_end();
}

/* Bruck §2's lower bounds: C1 ≥ ⌈log_{k+1} n⌉ for every operation that
 * spreads data from one to all or all to one; C2 ≥ ⌈b(n−1)/k⌉ for allgather
 * and alltoall. */
static uint64_t ceil_log(uint64_t n, uint64_t base)
{
    uint64_t d = 0;
    for (uint64_t span = 1; span < n; d++)
        span = span > n / base ? n : span * base;
    return d;
}

/* The settings the command line sets (options below), with their defaults. */
typedef struct coll_settings {
    const char *op, *algorithm, *format, *operation, *tradeoff, *ops, *sizes, *export;
    uint64_t p, radix, ports, block, root, reps, rounds;
    int tune;
} coll_settings;

/* The names --op takes: the library's operations, and exscan (scan's
 * exclusive form). */
static const char *op_name(size_t i)
{
    return i < BSP_COLL_SCAN + 1 ? bsp_coll_op_name((bsp_coll_op)i) : i == BSP_COLL_SCAN + 1 ? "exscan" : NULL;
}

static const char *algorithm_name(size_t i)
{
    const char *name = bsp_coll_algorithm_name((bsp_coll_algorithm)i);
    return strcmp(name, "unknown") ? name : NULL;
}

static const bspram_option options[] = {
    {.name = "op", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(coll_settings, op), .value = "OP",
     .help = "broadcast, scatter, gather, allgather, alltoall, reduce,\nallreduce, scan, exscan",
     .names = op_name},
    {.name = "p", .letter = 'p', .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(coll_settings, p),
     .value = "N", .help = "processes, in [1, 65536] (more than cores is fine)", .min = 1,
     .max = 65536},
    {.name = "algorithm", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(coll_settings, algorithm),
     .value = "A",
     .help = "auto (default: the selection's pick), bruck, direct, ring,\nbinomial, scatter-allgather, "
     "doubling, dissemination,\nexchange (alltoall on 2^d processes, cube neighbours only),\nrabenseifner (reduce and allreduce of long operands)",
     .names = algorithm_name},
    {.name = "radix", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(coll_settings, radix),
     .value = "R", .help = "alltoall with bruck: 2 <= R <= N (default 2)", .min = 2, .max = 65536},
    {.name = "ports", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(coll_settings, ports),
     .value = "K", .help = "k >= 1 ports (default 1; direct: N - 1)", .min = 1, .max = 65536},
    {.name = "block", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(coll_settings, block),
     .value = "BYTES",
     .help = "bytes per block (broadcast: the buffer; reductions: the\noperand, a multiple of 8), default 8",
     .min = 0, .max = UINT64_C(1) << 32},
    {.name = "root", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(coll_settings, root),
     .value = "R",
     .help = "the root of broadcast, scatter, gather, reduce (default 0;\nrefused for the others, which have none)",
     .min = 0, .max = 65535},
    {.name = "operation", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(coll_settings, operation),
     .value = "O",
     .help = "reductions: sum, prod, min, max, and, or, xor with :i64, :u64\nor :f64 (default sum:i64)"},
    {.name = "reps", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(coll_settings, reps),
     .value = "N", .help = "calls timed after the checked one, in [1, 10^7] (default 100)",
     .min = 1, .max = 10000000},
    {.name = "tradeoff", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(coll_settings, tradeoff),
     .help = "c1 (default) or c2, for Bruck's concatenation (allgather\n"
     "bruck, allreduce dissemination, broadcast scatter-allgather)\n"
     "where it cannot have both optimal (Bruck 4.2: b >= 3, k >= 3,\n"
     "(k+1)^d - k < N < (k+1)^d, d = ceil(log_{k+1} N)): c1 keeps\n"
     "C1 = d, C2 at most b - 1 above ceil(b(N-1)/k); c2 takes\n"
     "C2 = ceil(b(N-1)/k) in at most one round more", .choices = "c1|c2"},
    {.name = "tune", .kind = BSPRAM_OPT_FLAG, .offset = offsetof(coll_settings, tune),
     .help = "time every algorithm of each operation at each size and\nprint the choice (with --ops, --sizes, --rounds, --export)"},
    {.name = "ops", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(coll_settings, ops), .value = "LIST",
     .help = "--tune: operations, comma-separated (default: all eight but exscan)"},
    {.name = "sizes", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(coll_settings, sizes), .value = "LIST",
     .help = "--tune: block sizes in bytes, comma-separated, increasing,\nmultiples of 8 (default 8,64,512,4096,32768,262144)"},
    {.name = "rounds", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(coll_settings, rounds), .value = "N",
     .help = "--tune: rounds alternating the algorithms, in [1, 101]\n(default 5; each one's least time is kept)", .min = 1,
     .max = 101},
    {.name = "export", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(coll_settings, export),
     .help = "--tune: write the choices to FILE as MPICH's collective-selection\nJSON or Open MPI's coll/tuned dynamic rules",
     .choices = "mpich-json|ompi-rules"},
    BSPRAM_FORMAT_OPTION(coll_settings, format),
    {.name = NULL}};

static int run_coll(int argc, char **argv);

const bspram_command bspram_cmd_coll = {
    .name = "coll",
    .summary = "run a collective (Bruck, Saad-Schultz) on BSPlib processes, checked, with its measured C1 and C2",
    .run = run_coll, .usage = "--op OP --p N [options]\n--tune --p N [--ops LIST] [--sizes LIST] [--export mpich-json|ompi-rules FILE]",
    .operand = "FILE",
    .about = "Runs one collective on N BSPlib processes (coll/bsp_coll.h), checks the result\n"
    "against a sequential computation, and prints its rounds C1 and data C2 as the\n"
    "router's records measured them (C2: the sum over the rounds of the largest\n"
    "message's data), beside the algorithm's formula and the lower bounds.\n"
    "CSV columns (JSON: an object of the same fields):\n"
    "  op,algorithm,p,radix,ports,block,c1,c2,seconds,verified,supersteps,h_bytes,\n"
    "  predicted_c1,predicted_c2\n"
    "seconds: wall time per call. Exit status 3 if the result differs from the\n"
    "reference.\n"
    "With --tune it times every algorithm of each operation at each size instead\n"
    "(each one's least time per call over the rounds) and prints, per operation\n"
    "and size, the choice and the selection's pick. Algorithms within 5 % of the\n"
    "fastest are a tie (tied: the others, '+'-separated, '-' for none), which\n"
    "fewest rounds, then least data, then a fixed order break, the same in every\n"
    "run; CSV columns: op,p,block,algorithm,seconds,runner_up,runner_up_seconds,\n"
    "selected,selected_seconds,tied. --export writes the choices to FILE.", .options = options};

/* --tune: the operations and sizes asked for, timed, printed, exported. */
static int run_tune(const coll_settings *o, const char *file)
{
    bsp_coll_op ops[BSP_COLL_SCAN + 1];
    size_t n_ops = 0, sizes[COLL_TUNE_MAX_SIZES], n_sizes = 0;
    char buf[256];
    if ((o->ops && bspram_tool_list_check("coll", "--ops", o->ops)) ||
        (o->sizes && bspram_tool_list_check("coll", "--sizes", o->sizes)))
        return BSPRAM_TOOL_USAGE;
    snprintf(buf, sizeof buf, "%s", o->ops ? o->ops : "broadcast,scatter,gather,allgather,alltoall,reduce,allreduce,scan");
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int op = bsp_coll_op_parse(w);
        if (op < 0)
            return usage_error("--ops '%s': unknown operation; valid: broadcast, scatter, gather, allgather, "
                               "alltoall, reduce, allreduce, scan", w);
        for (size_t i = 0; i < n_ops; i++)
            if (ops[i] == (bsp_coll_op)op)
                return usage_error("--ops: %s named twice", w);
        ops[n_ops++] = (bsp_coll_op)op;
    }
    if (!n_ops)
        return usage_error("--ops '%s': no operation", o->ops);
    snprintf(buf, sizeof buf, "%s", o->sizes ? o->sizes : "8,64,512,4096,32768,262144");
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        uint64_t b;
        if (n_sizes == COLL_TUNE_MAX_SIZES)
            return usage_error("--sizes: at most %d sizes", COLL_TUNE_MAX_SIZES);
        if (bspram_tool_number("coll", "--sizes", w, 8, (UINT64_C(1) << 32) / o->p, &b) < 0)
            return BSPRAM_TOOL_USAGE;
        if (b % 8 || (n_sizes && b <= sizes[n_sizes - 1]))
            return usage_error("--sizes '%s': %" PRIu64 " is not a multiple of 8 above the size before it", o->sizes,
                               b);
        sizes[n_sizes++] = (size_t)b;
    }
    if (!n_sizes)
        return usage_error("--sizes '%s': no size", o->sizes);
    if (o->export && !file)
        return usage_error("--export %s needs the FILE to write", o->export);
    if (!o->export && file)
        return usage_error("'%s': a FILE only with --export", file);
    if (o->export) { /* before the tuning: a FIFO or a directory found after it would block or fail */
        char option[64], why[4400];
        snprintf(option, sizeof option, "--export %s", o->export);
        if (bspram_tool_output_problem(option, file, NULL, NULL, why, sizeof why) ||
            bspram_tool_output_dir_problem(option, file, why, sizeof why))
            return bspram_tool_error("coll", "%s", why);
    }
    coll_tune_row *rows = bspram_tool_calloc(n_ops * n_sizes, sizeof *rows, "bspram coll --tune");
    coll_tune_run((unsigned)o->p, ops, n_ops, sizes, n_sizes, (unsigned)(o->rounds ? o->rounds : 5),
                  (unsigned)o->reps, rows);
    const bspram_format format = bspram_format_of(o->format);
    if (format == BSPRAM_FORMAT_CSV)
        printf("op,p,block,algorithm,seconds,runner_up,runner_up_seconds,selected,selected_seconds,tied\n");
    else if (format == BSPRAM_FORMAT_JSON)
        printf("[");
    else
        printf("%-10s %8s  %-18s %10s  %-18s %10s  %-18s %10s  %s\n", "operation", "block", "choice", "us",
               "runner-up", "us", "selection's pick", "us", "tied with the choice");
    for (size_t i = 0; i < n_ops * n_sizes; i++) {
        const coll_tune_row *r = &rows[i];
        unsigned sel = 0;
        while (sel < r->n_algs && r->alg[sel] != r->selected)
            sel++;
        const char *second = r->n_algs > 1 ? bsp_coll_algorithm_name(r->alg[1]) : "-";
        const double second_s = r->n_algs > 1 ? r->seconds[1] : 0, sel_s = sel < r->n_algs ? r->seconds[sel] : 0;
        const char *op = bsp_coll_op_name(r->op), *best = bsp_coll_algorithm_name(r->alg[0]),
                   *picked = bsp_coll_algorithm_name(r->selected);
        /* The others within COLL_TUNE_TIE of the fastest: '+'-separated
         * (a JSON array), "-" (empty) when the choice stands alone. */
        char tied[COLL_TUNE_ALGS * 24] = "", tied_json[COLL_TUNE_ALGS * 24] = "[";
        for (unsigned a = 1; a < r->n_tied; a++) {
            const char *name = bsp_coll_algorithm_name(r->alg[a]);
            snprintf(tied + strlen(tied), sizeof tied - strlen(tied), "%s%s", a > 1 ? "+" : "", name);
            snprintf(tied_json + strlen(tied_json), sizeof tied_json - strlen(tied_json), "%s\"%s\"",
                     a > 1 ? ", " : "", name);
        }
        strcat(tied_json, "]");
        if (!*tied)
            strcpy(tied, "-");
        if (format == BSPRAM_FORMAT_CSV)
            printf("%s,%" PRIu64 ",%zu,%s,%.9f,%s,%.9f,%s,%.9f,%s\n", op, o->p, r->block, best, r->seconds[0], second,
                   second_s, picked, sel_s, tied);
        else if (format == BSPRAM_FORMAT_JSON)
            printf("%s{\"op\": \"%s\", \"p\": %" PRIu64 ", \"block\": %zu, \"algorithm\": \"%s\", \"seconds\": %.9f, "
                   "\"runner_up\": \"%s\", \"runner_up_seconds\": %.9f, \"selected\": \"%s\", "
                   "\"selected_seconds\": %.9f, \"tied\": %s}",
                   i ? ",\n " : "", op, o->p, r->block, best, r->seconds[0], second, second_s, picked, sel_s,
                   tied_json);
        else
            printf("%-10s %8zu  %-18s %10.3f  %-18s %10.3f  %-18s %10.3f  %s\n", op, r->block, best,
                   r->seconds[0] * 1e6, second, second_s * 1e6, picked, sel_s * 1e6, tied);
    }
    if (format == BSPRAM_FORMAT_JSON)
        printf("]\n");
    int rc = BSPRAM_TOOL_OK;
    if (o->export) {
        /* A new file renamed over FILE once whole; a FIFO that no process
         * reads refused at once (base/output.h). */
        bspram_output out;
        int ok = bspram__base_output_open(&out, file) == 0;
        if (ok && coll_export(out.f, o->export, (unsigned)o->p, rows, n_ops, n_sizes) < 0) {
            bspram__base_output_abandon(&out);
            ok = 0;
        } else if (ok) {
            ok = bspram__base_output_close(&out) == 0;
        }
        if (!ok)
            rc = bspram_tool_error("coll", "--export %s: cannot write '%s': %s", o->export, file, strerror(errno));
    }
    free(rows);
    return rc;
}

static int run_coll(int argc, char **argv)
{
    coll_settings o = {.algorithm = "auto", .format = "text", .operation = "sum:i64", .tradeoff = "c1",
                       .block = 8, .root = UINT64_MAX, .reps = 100};
    const char *file = NULL;
    int rc = bspram_options_parse(&bspram_cmd_coll, argc, argv, &o, &file);
    if (rc)
        return rc == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : rc;
    if (o.tune) {
        if (!o.p)
            return usage_error("--p N is required (processes, in [1, 65536])");
        if (o.op || o.radix || o.ports || o.root != UINT64_MAX || o.block != 8 || strcmp(o.algorithm, "auto") ||
            strcmp(o.operation, "sum:i64") || strcmp(o.tradeoff, "c1"))
            return usage_error("--tune times every algorithm of --ops at --sizes: --op, --algorithm, --radix, "
                               "--ports, --block, --root, --operation and --tradeoff do not apply");
        return run_tune(&o, file);
    }
    if (file) /* the only word coll takes: the FILE of --tune --export */
        return usage_error("unexpected argument '%s' (a FILE goes only after --tune --export; bspram coll "
                           "--help lists the options)", file);
    if (o.ops || o.sizes || o.rounds || o.export)
        return usage_error("%s: --ops, --sizes, --rounds and --export go with --tune",
                           o.ops ? "--ops" : o.sizes ? "--sizes" : o.rounds ? "--rounds" : "--export");
    const char *op = o.op, *alg = o.algorithm, *operation = o.operation;
    uint64_t p = o.p, radix = o.radix, ports = o.ports, block = o.block, reps = o.reps;
    const int have_root = o.root != UINT64_MAX;
    const uint64_t root = have_root ? o.root : 0;
    if (!op)
        return usage_error("--op OP is required; valid: broadcast, scatter, gather, allgather, "
                     "alltoall, reduce, allreduce, scan, exscan");
    run.exclusive = !strcmp(op, "exscan");
    run.op = run.exclusive ? BSP_COLL_SCAN : bsp_coll_op_parse(op);
    if (run.op < 0)
        return usage_error("--op '%s': unknown operation; valid: broadcast, scatter, gather, allgather, "
                     "alltoall, reduce, allreduce, scan, exscan", op);
    if (!p)
        return usage_error("--p N is required (processes, in [1, 65536])");
    int a = bsp_coll_algorithm_parse(alg);
    if (a < 0)
        return usage_error("--algorithm '%s': unknown algorithm; valid: auto, bruck, direct, ring, "
                     "binomial, scatter-allgather, doubling, dissemination, exchange, rabenseifner", alg);
    if (radix > p)
        return usage_error("--radix %" PRIu64 ": above --p %" PRIu64 " (2 <= R <= N)", radix, p);
    int rooted = run.op == BSP_COLL_BROADCAST || run.op == BSP_COLL_SCATTER ||
                 run.op == BSP_COLL_GATHER || run.op == BSP_COLL_REDUCE;
    if (have_root && !rooted) /* it was once accepted, and meant nothing */
        return usage_error("--root: %s has no root (only broadcast, scatter, gather and reduce take one)", op);
    if (root >= p && rooted)
        return usage_error("--root %" PRIu64 ": not a process of --p %" PRIu64, root, p);
    int reduces = run.op >= BSP_COLL_REDUCE;
    if (reduces && block % 8)
        return usage_error("--block %" PRIu64 ": a reduction's operand is whole 64-bit words (a "
                     "multiple of 8 bytes)", block);
    int opid = bspram_op_parse(operation);
    if (opid < 0)
        return usage_error("--operation '%s': unknown; valid: sum, prod, min, max, and, or, xor, each "
                     "with :i64, :u64 or :f64", operation);
    if (!reduces && block > (UINT64_C(1) << 32) / p)
        return usage_error("--block %" PRIu64 ": N * block above 4 GiB", block);
    const bspram_format format = bspram_format_of(o.format);
    const int c2 = !strcmp(o.tradeoff, "c2");

    run.p = (unsigned)p;
    run.root = (unsigned)root;
    run.block = (size_t)block;
    run.opid = (unsigned)opid;
    run.reps = reps;
    run.opt = (bsp_coll_options){.algorithm = (bsp_coll_algorithm)a, .radix = (unsigned)radix,
                                 .ports = (unsigned)ports,
                                 .tradeoff = c2 ? BSP_COLL_OPTIMAL_C2 : BSP_COLL_OPTIMAL_C1};
    /* What the library will run: the selection's pick for auto; the same
     * checks as the call, so a bad combination gives its one line here. */
    bsp_coll_choice pred;
    if (a == BSP_COLL_AUTO) {
        if (radix)
            return usage_error("--radix needs --algorithm bruck (alltoall)");
        pred = bsp_coll_select((bsp_coll_op)run.op, (bsp_pid_t)p, (bsp_size_t)block,
                               (unsigned)ports, -1, -1);
        run.opt.algorithm = pred.algorithm;
        run.opt.radix = pred.algorithm == BSP_COLL_BRUCK ? pred.radix : 0; /* direct: r = n, implied */
        run.opt.ports = pred.ports;
    }
    bsp_init(spmd, argc, argv);
    spmd();
    if (a != BSP_COLL_AUTO || c2) /* the selection's formula is the C1-optimal one */
        pred = bsp_coll_predict((bsp_coll_op)run.op, (bsp_pid_t)p, (bsp_size_t)block, &run.opt);
    int verified = !atomic_load(&run.wrong);
    const char *algname = bsp_coll_algorithm_name(pred.algorithm);
    uint64_t k = pred.ports ? pred.ports : 1;
    if (format == BSPRAM_FORMAT_JSON) {
        printf("{\"op\": \"%s\", \"algorithm\": \"%s\", \"p\": %" PRIu64 ", \"radix\": %u, \"ports\": %" PRIu64
               ", \"block\": %" PRIu64 ", \"c1\": %" PRIu64 ", \"c2\": %" PRIu64 ", \"seconds\": %.9f, "
               "\"verified\": %s, \"supersteps\": %" PRIu64 ", \"h_bytes\": %" PRIu64
               ", \"predicted_c1\": %" PRIu64 ", \"predicted_c2\": %" PRIu64 "}\n",
               op, algname, p, pred.radix, k, block, run.cost.c1, run.cost.c2, run.seconds,
               verified ? "true" : "false", run.cost.supersteps, run.cost.h_bytes, pred.c1, pred.c2);
    } else if (format == BSPRAM_FORMAT_CSV) {
        printf("op,algorithm,p,radix,ports,block,c1,c2,seconds,verified,supersteps,h_bytes,"
               "predicted_c1,predicted_c2\n");
        printf("%s,%s,%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.9f,%d,%" PRIu64
               ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
               op, algname, p, pred.radix, k, block, run.cost.c1, run.cost.c2, run.seconds, verified,
               run.cost.supersteps, run.cost.h_bytes, pred.c1, pred.c2);
    } else {
        printf("%s of %" PRIu64 " bytes on %" PRIu64 " processes: algorithm %s", op, block, p,
               algname);
        if (pred.radix)
            printf(", radix %u", pred.radix);
        printf(", %" PRIu64 " port%s%s\n", k, k > 1 ? "s" : "", c2 ? ", C2-optimal tradeoff" : "");
        printf("  result      %s\n", verified ? "verified against the sequential reference"
                                              : "DIFFERS from the sequential reference");
        printf("  %-10s %12s %12s %12s\n", "", "measured", "formula", "lower bound");
        uint64_t lb1 = p > 1 ? ceil_log(p, k + 1) : 0;
        printf("  %-10s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "C1 rounds", run.cost.c1,
               pred.c1, lb1);
        if (run.op == BSP_COLL_ALLGATHER || run.op == BSP_COLL_ALLTOALL)
            printf("  %-10s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "C2 bytes", run.cost.c2,
                   pred.c2, (block * (p - 1) + k - 1) / k);
        else
            printf("  %-10s %12" PRIu64 " %12" PRIu64 " %12s\n", "C2 bytes", run.cost.c2, pred.c2,
                   "-");
        printf("  supersteps %" PRIu64 ", sum of h %" PRIu64 " bytes, %.3f us per call (%" PRIu64
               " calls)\n",
               run.cost.supersteps, run.cost.h_bytes, run.seconds * 1e6, reps);
    }
    return verified ? BSPRAM_TOOL_OK : BSPRAM_TOOL_WRONG;
}
