/* bspram table: Valiant's degree-vs-performance tables (§4, Tables 1–3) on
 * the real combining engine. See docs/combining.md. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "combine/experiment.h"
#include "combine/valiant.h"
#include "tools/commands.h"
#include "tools/gnuplot.h"
#include "tools/table_args.h"

#define MAX_ITEMS BSPRAM_TABLE_MAX_ITEMS

/* The basis column: the canonical spelling of a fixed basis (8x8x8x8, 4096),
 * or the strategy's name and the basis it chose (auto:32x16x8,
 * adaptive:32x16x8) — never a comma, a quote or a space. */
static void basis_column(const bspram_table_entry *e, char *buf, size_t len)
{
    if (e->strategy == BSPRAM_STRATEGY_FIXED)
        snprintf(buf, len, "%s", e->basis_text);
    else
        snprintf(buf, len, "%s:%s",
                 e->strategy == BSPRAM_STRATEGY_ADAPTIVE  ? "adaptive"
                 : e->strategy == BSPRAM_STRATEGY_OBSERVE ? "observe"
                                                          : "auto",
                 e->chosen);
}

/* Room for basis_column: the longer prefix, the longest basis (with NUL). */
#define BASIS_COLUMN_MAX (sizeof "adaptive:" + BSPRAM_BASIS_TEXT_MAX)

/* Every phase factor of the entry, separated by sep, straight to stdout (up
 * to BSPRAM_MAX_PHASES of them: no buffer to cut them short). Returns the
 * number of characters printed. */
static int print_phases(const bspram_table_entry *e, double base, char sep)
{
    int n = 0;
    for (unsigned i = 1; i <= e->phases; i++) {
        if (i > 1)
            n += printf("%c", sep);
        n += printf("%.3f", e->phase_charge[i] / base);
    }
    return n;
}

static void paper_phase_list(const bspram_table_row *r, char sep, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < 4 && r->paper_phase[i] > 0 && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%.2f", i ? (char[]){sep, 0} : "", r->paper_phase[i]);
}

static int plot(const char *path, const bspram_table_config *cfg, const bspram_table_entry *E,
                const bspram_table_row *R, size_t n, double base, int paper)
{
    FILE *g = bspram_tool_gnuplot_open("table", "--output", path, 900, 640);
    if (!g)
        return 1;
    /* What the factors count, when not the router's charges (--schedule, --router). */
    static const char *const counted[3] = {"", " in cycles, bulk-synchronous", " in cycles, asynchronous"};
    const char *machine = cfg->router == BSPRAM_ROUTER_SSTAR ? ", S*PRAM" : "";
    if (paper)
        fprintf(g, "set title \"Valiant 1992, Table %d: performance factor%s%s against degree\\n", paper,
                counted[cfg->schedule], machine);
    else
        fprintf(g, "set title \"Performance factor%s%s against degree\\n", counted[cfg->schedule], machine);
    fprintf(g, "p = %" PRIu64 ", v = %" PRIu64 ", %" PRIu64 " runs, seed %" PRIu64
               " (bars: one standard deviation over the runs)\"\n",
            cfg->p, cfg->v, cfg->runs, cfg->seed);
    fprintf(g, "set logscale x 2\nset xlabel 'degree'\nset ylabel 'performance factor'\n"
               "set key outside below center horizontal\nset grid\n");
    /* The spans of the factors with their error bars and the paper's values
     * (a log y axis past a decade), and of the degrees: the ranges are
     * padded so that no bar or point is cut at an edge. */
    double lo = INFINITY, hi = 0, lo_pos = INFINITY;
    uint64_t dlo = UINT64_MAX, dhi = 0;
    for (size_t i = 0; i < n; i++) {
        double f = E[i].total / base, sd = E[i].factor_sd;
        dlo = E[i].degree < dlo ? E[i].degree : dlo;
        dhi = E[i].degree > dhi ? E[i].degree : dhi;
        lo = fmin(lo, f - sd), hi = fmax(hi, f + sd), lo_pos = fmin(lo_pos, f > 0 ? f : INFINITY);
        if (f - sd > 0)
            lo_pos = fmin(lo_pos, f - sd);
        if (R[i].paper > 0) {
            lo = fmin(lo, R[i].paper), hi = fmax(hi, R[i].paper);
            lo_pos = fmin(lo_pos, R[i].paper);
        }
    }
    if (n) {
        fprintf(g, "set xrange [%g:%g]\n", (double)dlo / 1.6, (double)dhi * 1.6);
        if (lo_pos < INFINITY && hi > 10 * lo_pos)
            fprintf(g, "set logscale y\nset yrange [%g:%g]\n", lo_pos / 1.3, hi * 1.3);
        else if (hi > lo) /* Table 2's basis names above the points: more room on top */
            fprintf(g, "set yrange [%g:%g]\n", lo - 0.08 * (hi - lo), hi + (paper == 2 ? 0.2 : 0.08) * (hi - lo));
        else
            fprintf(g, "set yrange [%g:%g]\n", lo > 0 ? lo / 2 : lo - 1, hi > 0 ? hi * 1.5 : hi + 1);
    }
    /* One line per basis spelling, in order of first appearance. */
    const char *names[MAX_ITEMS];
    size_t nn = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < nn && strcmp(names[k], E[i].basis_text))
            k++;
        if (k == nn)
            names[nn++] = E[i].basis_text;
    }
    /* Valiant's values, where given, in a colour of their own (black, dashed,
     * open points) with their own legend entries. In Table 2 every row has
     * its own basis: there one line joins all its rows, and each point is
     * named by its basis. */
    int has_paper = 0;
    for (size_t i = 0; i < n; i++)
        has_paper |= R[i].paper > 0;
    int one_paper_line = paper == 2;
    /* Room below for the degree's label and the key, a line per entry at
     * most (a narrow key stacks them). */
    fprintf(g, "set bmargin %zu\n", 4 + (one_paper_line ? 2 : nn * (has_paper ? 2 : 1)));
    fprintf(g, "plot ");
    for (size_t k = 0; k < (one_paper_line ? 1 : nn); k++)
        fprintf(g, "%s'-' using 1:2:3 with yerrorlines lc %zu pt 7 title 'bspram, %s%s'", k ? ", " : "",
                k + 1, one_paper_line ? "the basis of each degree" : "basis ",
                one_paper_line ? "" : names[k]);
    if (has_paper && !one_paper_line)
        for (size_t k = 0; k < nn; k++)
            fprintf(g, ", '-' using 1:2 with linespoints lc rgb '#000000' dt 2 pt %zu title "
                       "'Valiant 1992, Table %d, basis %s'", 4 + 2 * k, paper, names[k]);
    if (has_paper && one_paper_line)
        fprintf(g, ", '-' using 1:2 with linespoints lc rgb '#000000' dt 2 pt 6 title 'Valiant 1992, Table 2'");
    if (one_paper_line)
        fprintf(g, ", '-' using 1:2:3 with labels offset 0,1.3 font ',8' notitle");
    fprintf(g, "\n");
    if (one_paper_line) { /* all rows as one series */
        for (size_t i = 0; i < n; i++)
            fprintf(g, "%" PRIu64 " %.4f %.4f\n", E[i].degree, E[i].total / base, E[i].factor_sd);
        fprintf(g, "e\n");
        if (has_paper) {
            for (size_t i = 0; i < n; i++)
                if (R[i].paper > 0)
                    fprintf(g, "%" PRIu64 " %.4f\n", E[i].degree, R[i].paper);
            fprintf(g, "e\n");
        }
        for (size_t i = 0; i < n; i++) /* the basis above each point */
            fprintf(g, "%" PRIu64 " %.4f \"%s\"\n", E[i].degree, E[i].total / base + E[i].factor_sd,
                    E[i].basis_text);
        fprintf(g, "e\n");
    } else {
        for (size_t k = 0; k < nn; k++) {
            for (size_t i = 0; i < n; i++)
                if (!strcmp(E[i].basis_text, names[k]))
                    fprintf(g, "%" PRIu64 " %.4f %.4f\n", E[i].degree, E[i].total / base, E[i].factor_sd);
            fprintf(g, "e\n");
        }
        for (size_t k = 0; has_paper && k < nn; k++) {
            for (size_t i = 0; i < n; i++)
                if (!strcmp(E[i].basis_text, names[k]) && R[i].paper > 0)
                    fprintf(g, "%" PRIu64 " %.4f\n", E[i].degree, R[i].paper);
            fprintf(g, "e\n");
        }
    }
    return bspram_tool_gnuplot_close("table", "--output", path, g);
}

/* A progress line on stderr when it is a terminal (never in a pipe or a
 * file): runs done, all runs and the time left at the pace so far,
 * rewritten in place and erased at the end. */
typedef struct progress {
    double start, last;
    uint64_t entries;
    size_t table, tables; /* the table running (from 1) of how many */
} progress;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void show_progress(uint64_t done, uint64_t runs, void *ctx)
{
    progress *pr = ctx;
    double t = now();
    if (done > 1 && done < runs && t - pr->last < 0.2) /* a few updates a second at most */
        return;
    pr->last = t;
    if (done == runs) {
        fprintf(stderr, "\r\033[K");
        return;
    }
    double left = (t - pr->start) / (double)done * (double)(runs - done);
    char which[48] = "";
    if (pr->tables > 1)
        snprintf(which, sizeof which, " of table %zu of %zu", pr->table, pr->tables);
    fprintf(stderr, "\rbspram table: run %" PRIu64 " of %" PRIu64 " (%" PRIu64
                    " batches each)%s, about %.0f s left\033[K",
            done, runs, pr->entries + 1, which, left);
}

/* What the text and Markdown formats print above a table. */
static const char *table_title(unsigned table)
{
    static const char *const titles[4] = {"", " (Valiant's Table 1)", " (Valiant's Table 2)",
                                          " (Valiant's Table 3)"};
    return table < 4 ? titles[table] : "";
}

static const char *const schedule_suffix[3] = {"", ":cycles-sync", ":async"};

int bspram_table_command(int argc, char **argv)
{
    bspram_table_args a;
    int parsed = bspram_table_parse(argc, argv, &a);
    if (parsed)
        return parsed == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : parsed;
    uint64_t p = a.p, v = a.v, runs = a.runs, seed = a.seed;
    const int paper = a.papers > 0; /* Valiant's values beside ours */
    const char *format = a.format, *plot_path = a.plot_path;
    bspram_spread spread = a.spread;
    bspram_table_entry *E = a.E;
    bspram_table_row *R = a.R;
    int rc;
    if (plot_path && bspram_rank() == 0 &&
        (rc = bspram_tool_gnuplot_check("table", "--output", plot_path, NULL, bspram_ranks() > 1)) != 0) {
        bspram_table_args_free(&a);
        return rc;
    }
    bspram_table_config cfg = {.p = p, .v = v, .runs = runs, .seed = seed, .threads = a.threads,
                               .spread = spread, .hash = a.hash, .schedule = a.schedule,
                               .router = a.router};
    progress pr = {now(), now(), 0, 0, a.papers > 1 ? a.papers : 1};
    if (bspram_rank() == 0 && isatty(STDERR_FILENO)) {
        cfg.progress = show_progress;
        cfg.progress_ctx = &pr;
    }

    char bcol[BASIS_COLUMN_MAX], pph[128];
    int csv = !strcmp(format, "csv"), md = !strcmp(format, "md"), json = !strcmp(format, "json");
    /* What tells one table's rows from another's, on every row of every
     * format (rows of several tables can be concatenated): the table's name
     * (paper:N or custom) and its p, v, seed, spread, hash and runs. */
    const char *spread_name = spread == BSPRAM_SPREAD_RANDOM ? "random" : "source";
    const char *hash_name = a.hash == BSPRAM_HASH_TABULATION ? "tabulation" : "xxh3";
    const int printer = bspram_rank() == 0; /* over MPI every rank has the table: rank 0 prints it */
    if (printer && csv)
        printf("table,p,v,seed,spread,hash,runs,basis,degree,baseline,factor,factor_sd,phase_factors%s\n",
               paper ? ",paper_factor,paper_phase_factors,rel_diff" : "");
    else if (printer && json)
        printf("[");
    /* Each table in turn (--paper 1..3), with its own baseline: its rows are
     * those it has alone. */
    double base = 0;
    size_t printed = 0;
    for (size_t first = 0, t = 0; first < a.n; t++) {
        size_t last = first;
        while (last < a.n && R[last].table == R[first].table)
            last++;
        const unsigned table = R[first].table;
        /* Another schedule counts cycles, not charges: the table's name says
         * so on every row (custom:async, paper:1:cycles-sync), and the
         * S*PRAM's (custom:async:sstar). */
        char name[48];
        snprintf(name, sizeof name, "%s%s%s", bspram_table_name(table), schedule_suffix[a.schedule],
                 a.router == BSPRAM_ROUTER_SSTAR ? ":sstar" : "");
        const int namew = strlen(name) > 7 ? (int)strlen(name) : 7; /* the text format's first column */
        pr.table = t + 1;
        pr.entries = last - first;
        pr.start = pr.last = now();
        bspram_table_run(&cfg, E + first, last - first, &base);
        if (!printer) {
            first = last;
            continue;
        }
        if (md)
            printf("%stable %s%s: p = %" PRIu64 ", v = %" PRIu64 ", runs = %" PRIu64 ", seed = %" PRIu64
                   ", spread = %s, hash = %s\n\n| table | basis | degree | baseline | factor | sd | phase factors |%s\n"
                   "|---|---|---:|---:|---:|---:|---|%s\n",
                   t ? "\n" : "", name, table_title(table), p, v, runs, seed, spread_name, hash_name,
                   paper ? " paper | paper phases | rel. diff |" : "", paper ? "---:|---|---:|" : "");
        else if (!csv && !json)
            printf("%s# table %s%s: p = %" PRIu64 ", v = %" PRIu64 ", runs = %" PRIu64 ", seed = %" PRIu64
                   ", spread = %s, hash = %s, baseline (one-phase degree-1 %s) = %.2f;\n"
                   "# sd: the standard deviation over the runs of a run's factor\n"
                   "%-*s %-22s %7s %8s %7s %s%s\n", t ? "\n" : "", name, table_title(table), p, v, runs,
                   seed, spread_name, hash_name, a.schedule ? "cycles" : "charge", base, namew, "table", "basis",
                   "degree", "factor", "sd",
                   "phase factors", paper ? "  | paper  rel.diff  paper phases" : "");
        for (size_t i = first; i < last; i++, printed++) {
            basis_column(&E[i], bcol, sizeof bcol);
            double f = E[i].total / base, sd = E[i].factor_sd;
            double rel = R[i].paper > 0 ? (f - R[i].paper) / R[i].paper : 0;
            paper_phase_list(&R[i], ';', pph, sizeof pph);
            if (csv) {
                printf("%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%s,%" PRIu64 ",%s,%" PRIu64
                       ",%.3f,%.3f,%.4f,",
                       name, p, v, seed, spread_name, hash_name, runs, bcol, E[i].degree, base, f, sd);
                print_phases(&E[i], base, ';');
                if (paper)
                    printf(",%.2f,%s,%.4f", R[i].paper, pph, rel);
                printf("\n");
            } else if (md) {
                printf("| %s | %s | %" PRIu64 " | %.2f | %.3f | %.3f | ", name, bcol, E[i].degree, base,
                       f, sd);
                print_phases(&E[i], base, ' ');
                printf(" |");
                if (paper)
                    printf(" %.2f | %s | %+.1f%% |", R[i].paper, pph, 100 * rel);
                printf("\n");
            } else if (json) {
                printf("%s\n  {\"table\": \"%s\", \"p\": %" PRIu64 ", \"v\": %" PRIu64 ", \"seed\": %" PRIu64
                       ", \"spread\": \"%s\", \"hash\": \"%s\", \"runs\": %" PRIu64
                       ", \"basis\": \"%s\", \"degree\": %" PRIu64
                       ", \"baseline\": %.4f, \"factor\": %.4f, \"factor_sd\": %.4f, \"phase_factors\": [",
                       printed ? "," : "", name, p, v, seed, spread_name, hash_name, runs, bcol,
                       E[i].degree, base, f, sd);
                print_phases(&E[i], base, ',');
                printf("]");
                if (paper) {
                    paper_phase_list(&R[i], ',', pph, sizeof pph);
                    printf(", \"paper_factor\": %.2f, \"paper_phase_factors\": [%s], \"rel_diff\": %.4f",
                           R[i].paper, pph, rel);
                }
                printf("}");
            } else {
                printf("%-*s %-22s %7" PRIu64 " %8.3f %7.3f ", namew, name, bcol, E[i].degree, f, sd);
                int k = print_phases(&E[i], base, ' ');
                printf("%*s", k < 28 ? 28 - k : 0, "");
                if (paper)
                    printf(" | %5.2f  %+6.1f%%  %s", R[i].paper, 100 * rel, pph);
                printf("\n");
            }
        }
        fflush(stdout); /* a table as soon as it is done */
        first = last;
    }
    if (!printer) {
        bspram_table_args_free(&a);
        return 0;
    }
    if (json)
        printf("\n]\n");
    fflush(stdout);
    /* --output plots one table (table_args.c refuses more). */
    rc = plot_path ? plot(plot_path, &cfg, E, R, a.n, base, a.papers ? (int)a.paper[0] : 0) : 0;
    bspram_table_args_free(&a);
    return rc;
}
