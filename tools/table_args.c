/* The option parsing of `bspram table` (table_args.h), apart from the run so
 * that it can be exercised (fuzz/fuzz_table_options.c) without running an
 * experiment. */
#include "tools/table_args.h"

#include <inttypes.h>
#include <omp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "bsp/machine.h"
#include "combine/valiant.h"
#include "tools/commands.h"

#define MAX_ITEMS BSPRAM_TABLE_MAX_ITEMS
#define MAX_ROWS (MAX_ITEMS * 16) /* bases × degrees */

static const uint64_t paper_degrees[13] = {4096, 2048, 1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1};
static const double paper_t1[13] = {82, 53, 35, 20, 13, 8.1, 5.3, 3.7, 2.6, 1.9, 1.5, 1.2, 1.0};
static const double paper_t3a[13] = {3.4, 3.0, 2.8, 2.8, 3.0, 3.2, 3.4, 3.6, 3.8, 4.0, 4.1, 4.1, 4.1};
static const double paper_t3b[13] = {3.4, 3.1, 3.0, 3.1, 3.3, 3.3, 3.3, 3.4, 3.4, 3.4, 3.3, 3.2, 3.0};
int bspram_table_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bspram_tool_verror("table", fmt, ap); /* control characters escaped: one line */
    va_end(ap);
    return BSPRAM_TOOL_USAGE;
}

/* Any whole number (base/number.h: the whole string, digits only — " -1"
 * is not 2^64 - 1); the callers check the ranges. */
static int parse_u64(const char *s, uint64_t *out) { return bspram__base_parse_u64(s, 0, UINT64_MAX, out); }

const char *bspram_table_name(unsigned table)
{
    static const char *const names[4] = {"custom", "paper:1", "paper:2", "paper:3"};
    return table < 4 ? names[table] : "?";
}

/* One --paper value: tables N, lists N,M and ranges N..M (1..3, 1,3, 3..1
 * is refused), appended to paper[0..*np) in the order given; a table named
 * twice (here or in an earlier --paper) is refused. 0, or
 * BSPRAM_TOOL_USAGE after the line. */
static int add_papers(const char *text, unsigned *paper, size_t *np)
{
    if (bspram_tool_list_check("table", "--paper", text))
        return BSPRAM_TOOL_USAGE;
    for (const char *tok = text;;) {
        const char *comma = strchr(tok, ',');
        size_t len = comma ? (size_t)(comma - tok) : strlen(tok);
        char item[16], *dots;
        uint64_t lo, hi;
        if (len >= sizeof item)
            len = sizeof item - 1; /* too long to be 1..3: refused below */
        memcpy(item, tok, len);
        item[len] = 0;
        if ((dots = strstr(item, "..")) != NULL) {
            *dots = 0;
            if (bspram__base_parse_u64(item, 1, 3, &lo) || bspram__base_parse_u64(dots + 2, 1, 3, &hi) || lo > hi)
                return bspram_table_error("--paper '%s': Valiant's tables are 1, 2 and 3; write N, a list "
                                          "N,M or a range N..M (N <= M), e.g. 1..3", text);
        } else if (bspram__base_parse_u64(item, 1, 3, &lo)) {
            return bspram_table_error("--paper '%s': Valiant's tables are 1, 2 and 3; write N, a list "
                                      "N,M or a range N..M (N <= M), e.g. 1..3", text);
        } else {
            hi = lo;
        }
        for (uint64_t t = lo; t <= hi; t++) {
            for (size_t k = 0; k < *np; k++)
                if (paper[k] == t)
                    return bspram_table_error("--paper '%s': Table %" PRIu64 " is named twice", text, t);
            paper[(*np)++] = (unsigned)t; /* at most 3: each once */
        }
        if (!comma)
            return 0;
        tok = comma + 1;
    }
}

static int set_basis(bspram_table_entry *e, uint64_t p, const char *text, char *err, size_t len)
{
    memset(e, 0, sizeof *e);
    snprintf(e->basis_text, sizeof e->basis_text, "%s", text);
    if (!strcmp(text, "auto")) {
        e->strategy = BSPRAM_STRATEGY_AUTO;
        e->degree_hint = BSPRAM_TABLE_HINT_DEGREE;
        return 0;
    }
    if (!strncmp(text, "auto:", 5)) {
        /* Digits only (no sign, no spaces), and a degree a pattern can have:
         * 0 (none) to p. A larger hint was once taken, and UINT64_MAX —
         * BSPRAM_TABLE_HINT_DEGREE — silently meant plain 'auto'. */
        const char *d = text + 5;
        e->strategy = BSPRAM_STRATEGY_AUTO;
        if (!*d || strspn(d, "0123456789") != strlen(d) || parse_u64(d, &e->degree_hint)) {
            snprintf(err, len, "cannot read the degree hint in '%.40s'; write auto:D with D in "
                               "[0, p = %" PRIu64 "]", text, p);
            return -1;
        }
        if (e->degree_hint > p) {
            snprintf(err, len, "degree hint %" PRIu64 " is above p = %" PRIu64 "; a degree is at "
                               "most p (0 = no hint)", e->degree_hint, p);
            return -1;
        }
        /* Canonical spelling, as for fixed bases: auto:016 is auto:16. */
        snprintf(e->basis_text, sizeof e->basis_text, "auto:%" PRIu64, e->degree_hint);
        return 0;
    }
    if (!strcmp(text, "adaptive")) {
        e->strategy = BSPRAM_STRATEGY_ADAPTIVE;
        return 0;
    }
    if (!strcmp(text, "observe")) {
        e->strategy = BSPRAM_STRATEGY_OBSERVE;
        return 0;
    }
    e->strategy = BSPRAM_STRATEGY_FIXED;
    if (bspram_basis_parse(&e->basis, p, text, err, len))
        return -1;
    /* The parser also takes 8,8,8,8: spell every fixed basis the canonical
     * way (8x8x8x8), so that the CSV columns, the plot's lines and the
     * messages never see a comma or the user's spacing. */
    bspram_basis_format(&e->basis, e->basis_text, sizeof e->basis_text);
    return 0;
}

/* The settings the command line sets (options below), with their defaults. */
typedef struct table_settings {
    uint64_t p, v, runs, seed, threads; /* p, v, runs: 0 until given */
    const char *degrees, *format, *output, *spread, *hash, *schedule, *router;
    const char *bases[MAX_ITEMS];
    size_t nbases;
    unsigned paper[3]; /* Valiant's tables to run, in the order given */
    size_t papers;
} table_settings;

static int take_basis(void *settings, const char *value)
{
    table_settings *t = settings;
    if (t->nbases >= MAX_ITEMS)
        return bspram_table_error("more than %d --basis options", MAX_ITEMS);
    t->bases[t->nbases++] = value;
    return 0;
}

static int take_paper(void *settings, const char *value)
{
    table_settings *t = settings;
    return add_papers(value, t->paper, &t->papers);
}

static const bspram_option options[] = {
    {.name = "p", .letter = 'p', .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(table_settings, p),
     .value = "P", .help = "components, in [1, 2^31]", .min = 1, .max = UINT64_C(1) << 31},
    {.name = "v", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(table_settings, v), .value = "V",
     .help = "the address space, a positive multiple of P", .min = 1, .max = UINT64_MAX},
    {.name = "degrees", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(table_settings, degrees),
     .value = "d1,d2,...", .help = "the degrees, each in [1, P], at most 256"},
    {.name = "basis", .kind = BSPRAM_OPT_EACH, .offset = 0, .value = "B",
     .help = "a basis, again for more (at most 256): 8x8x8x8 (product P;\n'4096' alone is one phase), "
     "'auto' (chosen from P and each\nrow's degree), 'auto:D' (chosen with degree hint D in\n"
     "[0, P], 0 = none), 'adaptive' or 'observe' (no degree\nknowledge; observe measures the degree first)", .take = take_basis},
    {.name = "paper", .kind = BSPRAM_OPT_EACH, .offset = 0, .value = "N",
     .help = "Valiant's Table N (1, 2, 3), a list 1,3 or a range 1..3, or\n"
     "--paper again: each table in turn; fixes P = 4096, V = 131072,\nthe degrees and the bases",
     .take = take_paper},
    {.name = "schedule", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(table_settings, schedule),
     .help = "what a factor counts: sync (default; the router's charges),\ncycles-sync or async (cycles of the simple router, the\nbulk-synchronous or the asynchronous algorithm)",
     .choices = "sync|cycles-sync|async"},
    {.name = "router", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(table_settings, router),
     .help = "the machine of the cycle schedules: simple (default; every\ncomponent sends and receives one message a cycle) or sstar\n(the S*PRAM: only a lone message to a component gets through)",
     .choices = "simple|sstar"},
    {.name = "spread", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(table_settings, spread),
     .help = "random (default) or source", .choices = "random|source"},
    {.name = "runs", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(table_settings, runs),
     .value = "R", .help = "runs per row, in [1, 10^6] (default 100; 500 with --paper)", .min = 1,
     .max = BSPRAM_TABLE_MAX_RUNS},
    {.name = "seed", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(table_settings, seed),
     .value = "S", .help = "the seed (default 1)", .min = 0, .max = UINT64_MAX},
    {.name = "threads", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(table_settings, threads),
     .value = "T", .help = "threads, in [1, 1024] (default OpenMP's, at most 1024)", .min = 1,
     .max = 1024},
    {.name = "hash", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(table_settings, hash),
     .help = "the hash family (default xxh3)", .choices = "xxh3|tabulation"},
    {.name = "format", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(table_settings, format),
     .value = "F",
     .help = "text (the default), csv, md or json (the fields of the text,\nfor programs)",
     .choices = "text|csv|md|json"},
    {.name = "output", .letter = 'o', .kind = BSPRAM_OPT_FILE,
     .offset = offsetof(table_settings, output), .value = "FILE",
     .help = "plot the factor against the degree there, by gnuplot: SVG,\nor PNG for a name ending in .png "
     "(one table)"},
    {.name = NULL}};

const bspram_command bspram_cmd_table = {
    .name = "table",
    .summary = "Valiant's degree-vs-performance tables on the combining engine (--paper 1..3)",
    .run = bspram_table_command,
    .usage = "--p P --v V --degrees d1,d2,... --basis B [--basis B2 ...] [options]\n"
    "--paper N [options]",
    .about = "Runs the combining engine on patterns of the given degrees, for every basis, and\n"
    "prints each row's performance factor: the mean total charge over the mean charge\n"
    "of a one-phase degree-1 pattern on the same address space in the same run, with\n"
    "its standard deviation over the runs. --paper N reproduces Valiant's Table N\n"
    "(1992), his values beside ours. Every row names its table: a first column\n"
    "'table', paper:N or custom. CSV columns (JSON: an array of objects of the same\n"
    "fields):\n"
    "  table,p,v,seed,spread,hash,runs,basis,degree,baseline,factor,factor_sd,\n"
    "  phase_factors (with --paper: paper_factor,paper_phase_factors,rel_diff)", .options = options};

/* The rows of the tables the settings ask for, into *out; 0, or an exit
 * status after one line. */
static int make_rows(const table_settings *o, bspram_table_args *out)
{
    uint64_t p = o->p, v = o->v, runs = o->runs;
    const int have_p = p != 0, have_v = v != 0, have_runs = runs != 0;
    const char *degrees_text = o->degrees, *plot_path = o->output;
    const size_t papers = o->papers, nbases = o->nbases;
    const char *const *bases = o->bases;
    const bspram_spread spread = !strcmp(o->spread, "source") ? BSPRAM_SPREAD_SOURCE : BSPRAM_SPREAD_RANDOM;
    const bspram_hash_kind hash = (bspram_hash_kind)bspram_hash_kind_parse(o->hash);
    const bspram_schedule schedule = !strcmp(o->schedule, "async")         ? BSPRAM_SCHEDULE_ASYNC
                                     : !strcmp(o->schedule, "cycles-sync") ? BSPRAM_SCHEDULE_CYCLES_SYNC
                                                                           : BSPRAM_SCHEDULE_SYNC;
    const bspram_router_model router = !strcmp(o->router, "sstar") ? BSPRAM_ROUTER_SSTAR : BSPRAM_ROUTER_SIMPLE;
    if (router == BSPRAM_ROUTER_SSTAR && schedule == BSPRAM_SCHEDULE_SYNC)
        return bspram_table_error("--router sstar counts cycles: give --schedule cycles-sync or async");
    if (plot_path && papers > 1)
        return bspram_table_error("--output draws one table, not %zu: give one --paper N with --output", papers);

    bspram_table_entry *E = NULL;
    bspram_table_row *R = NULL;
    size_t n = 0;
    char err[200];
    int rc;
    if (papers) {
        if (nbases || degrees_text || (have_p && p != 4096) || (have_v && v != 131072))
            return bspram_table_error("--paper fixes p = 4096, v = 131072, the degrees and the bases");
        p = 4096;
        v = 131072; /* Table 3's caption says p = 2^17: a typo, see papers/NOTES.md */
        if (!have_runs)
            runs = 500;
        E = calloc(26 * papers, sizeof *E);
        R = calloc(26 * papers, sizeof *R);
        if (!E || !R)
            goto oom;
        for (size_t t = 0; t < papers; t++) {
            const unsigned table = o->paper[t];
            size_t first = n;
            if (table == 2) {
                for (size_t i = 0; i < BSPRAM_VALIANT_TABLE2_ROWS; i++, n++) {
                    set_basis(&E[n], p, bspram_valiant_table2[i].basis, err, sizeof err);
                    E[n].degree = bspram_valiant_table2[i].degree;
                    R[n].paper = bspram_valiant_table2[i].total;
                    memcpy(R[n].paper_phase, bspram_valiant_table2[i].phase, sizeof R[n].paper_phase);
                }
            } else {
                const char *bs[2] = {table == 1 ? "4096" : "32x8x4x4", BSPRAM_VALIANT_COMPROMISE};
                for (int b = 0; b < (table == 1 ? 1 : 2); b++)
                    for (size_t i = 0; i < 13; i++, n++) {
                        set_basis(&E[n], p, bs[b], err, sizeof err);
                        E[n].degree = paper_degrees[i];
                        R[n].paper = table == 1 ? paper_t1[i] : b == 0 ? paper_t3a[i] : paper_t3b[i];
                    }
            }
            for (size_t i = first; i < n; i++)
                R[i].table = table;
        }
    } else {
        if (!have_p || !have_v || !degrees_text || !nbases)
            return bspram_table_error("--p, --v, --degrees and --basis are required (or --paper N); see --help");
        if (!have_runs)
            runs = 100;
        if (p == 0 || p > (UINT64_C(1) << 31))
            return bspram_table_error("--p %" PRIu64 ": must be in [1, 2147483648]", p);
        if (v == 0 || v % p)
            return bspram_table_error("--v %" PRIu64 ": must be a positive multiple of p = %" PRIu64, v, p);
        /* Any length: the list is read in place, token by token (no copy,
         * nothing truncated). Error messages quote the token, not the list. */
        uint64_t degs[MAX_ITEMS];
        size_t nd = 0;
        if (bspram_tool_list_check("table", "--degrees", degrees_text))
            return BSPRAM_TOOL_USAGE;
        for (const char *tok = degrees_text;;) {
            const char *comma = strchr(tok, ',');
            size_t len = comma ? (size_t)(comma - tok) : strlen(tok);
            char one[32];
            if (len) {
                if (nd >= MAX_ITEMS)
                    return bspram_table_error("--degrees: more than %d degrees", MAX_ITEMS);
                if (len >= sizeof one)
                    return bspram_table_error("--degrees: '%.*s...' is not a degree", 20, tok);
                memcpy(one, tok, len);
                one[len] = 0;
                if (parse_u64(one, &degs[nd]))
                    return bspram_table_error("--degrees: '%s' is not a degree", one);
                if (bspram_pattern_check(p, v, degs[nd], err, sizeof err))
                    return bspram_table_error("--degrees: %s", err);
                nd++;
            }
            if (!comma)
                break;
            tok = comma + 1;
        }
        if (!nd)
            return bspram_table_error("--degrees '%s': no degree given", degrees_text);
        if (nbases * nd > MAX_ROWS)
            return bspram_table_error("%zu bases x %zu degrees = %zu rows; at most %d rows per table",
                                      nbases, nd, nbases * nd, MAX_ROWS);
        E = calloc(nbases * nd, sizeof *E);
        R = calloc(nbases * nd, sizeof *R);
        if (!E || !R)
            goto oom;
        for (size_t b = 0; b < nbases; b++) {
            if (set_basis(&E[n], p, bases[b], err, sizeof err)) {
                rc = bspram_table_error("--basis %s: %s", bases[b], err);
                goto out;
            }
            for (size_t d = 0; d < nd; d++, n++) {
                E[n] = E[b * nd];
                E[n].degree = degs[d];
                R[n].paper = 0;
            }
        }
    }
    if (runs == 0) {
        rc = bspram_table_error("--runs 0: at least one run is needed");
        goto out;
    }
    *out = (bspram_table_args){.p = p, .v = v, .runs = runs, .seed = o->seed, .papers = papers,
                               .threads = (int)o->threads, .spread = spread, .hash = hash,
                               .schedule = schedule, .router = router, .format = o->format, .plot_path = plot_path, .E = E, .R = R, .n = n};
    memcpy(out->paper, o->paper, papers * sizeof *o->paper);
    return 0;
oom:
    rc = bspram_tool_error("table", "out of memory for the table's rows");
out:
    free(E);
    free(R);
    return rc;
}

int bspram_table_parse(int argc, char **argv, bspram_table_args *out)
{
    /* The default threads are OpenMP's on every MPI rank (one rank without
     * MPI), capped at --threads' maximum (OMP_NUM_THREADS=70000 must not ask
     * for a team of 70000). */
    long all = (long)omp_get_max_threads() * bspram_ranks();
    table_settings *o = calloc(1, sizeof *o); /* 2 KiB of bases: not on the stack */
    if (!o)
        return bspram_tool_error("table", "out of memory for the options");
    o->seed = 1;
    o->threads = all < 1024 ? (uint64_t)all : 1024;
    o->format = "text";
    o->spread = "random";
    o->schedule = "sync";
    o->router = "simple";
    o->hash = "xxh3";
    int rc = bspram_options_parse(&bspram_cmd_table, argc, argv, o, NULL);
    if (!rc)
        rc = make_rows(o, out);
    free(o);
    return rc;
}

void bspram_table_args_free(bspram_table_args *a)
{
    free(a->E);
    free(a->R);
    a->E = NULL;
    a->R = NULL;
    a->n = 0;
}
