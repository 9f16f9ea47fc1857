/* bspram prof: a picture of a run from its trace (BSPRAM_TRACE), in the
 * spirit of the Oxford BSP toolset's profiler: per superstep the charge
 * max(q, r) with q and r, the bytes moved and the h-relation, and the
 * measured time beside the BSP prediction w/r + g·h + l; the supersteps'
 * labels on the axis; and, when the trace kept the message pattern
 * (BSPRAM_PATTERN) and p is small, a heat strip of the bytes each process
 * sent and received in each superstep. On stdout, per machine, the BSP cost
 * W/r + g·H + l·S (Valiant's sums, with r the rate of w) beside the
 * measured time, and the same by label. */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/environment.h"
#include "bsp/params.h"
#include "coll/gl_cache.h"
#include "tools/commands.h"
#include "tools/format.h"
#include "tools/gnuplot.h"
#include "tools/html.h"
#include "tools/prof_html.h"
#include "tools/trace_read.h"

/* The heat strip up to this many processes (one row each). */
#define PROF_STRIP_MAX_P 64
/* Tick labels on the superstep axis at most. */
#define PROF_MAX_TICKS 40
/* Points on the lines up to this many supersteps. */
#define PROF_POINTS_MAX 80
/* The picture's width, and its panels' (from 0.1 to 0.72 of it, draw()):
 * past a superstep per pixel a run is better seen on the page (--html). */
#define PROF_WIDTH 1000
#define PROF_PANEL_PIXELS 620

typedef struct prof_params {
    double g, l, rate; /* ns per byte, ns per superstep, work units per ns; < 0: unknown */
    const char *source;
    char measured[160]; /* source, when g and l are the collectives' (measured_gl) */
} prof_params;

/* Without g and l given or saved by `bspram probe`: the g and l the
 * collectives measured on this machine for this P and cached
 * (coll/gl_cache.c), under the rules by which they use them themselves
 * (coll/gl.c): not where BSPRAM_PARAMS or BSPRAM_PROBE=0 fix the figures,
 * only a line this version measured, and not one measured under load. The
 * source says so, with the day. pp is left alone otherwise. */
static void measured_gl(prof_params *pp, uint64_t p)
{
    const bspram_environment env = bspram__base_environment_read();
    coll_gl_entry e;
    if (pp->g >= 0 || env.params || env.probe_off || p < 1 || p > 65536 ||
        bspram__coll_gl_cache_peek((unsigned)p, &e) != 1 || strcmp(e.version, BSPRAM_VERSION) ||
        e.load.busy > BSPRAM__COLL_GL_LOAD_MAX)
        return;
    char day[32] = "on a day not kept";
    const time_t when = (time_t)e.when;
    struct tm tm;
    if (e.when > 0 && gmtime_r(&when, &tm))
        strftime(day, sizeof day, "on %Y-%m-%d", &tm);
    char path[4096] = "";
    bspram__coll_gl_cache_path(path, sizeof path);
    pp->g = e.g, pp->l = e.l;
    snprintf(pp->measured, sizeof pp->measured, "measured by the collectives for P = %" PRIu64 " %s",
             p, day);
    pp->source = pp->measured;
}

double bspram_tool_bsp_seconds(const bspram_record *r, double g, double l, double rate)
{
    double ns = g * (double)r->h_bytes + l;
    if (rate > 0)
        ns += (double)r->work / rate;
    return ns * 1e-9;
}

static double predicted(const prof_params *pp, const bspram_record *r)
{
    return bspram_tool_bsp_seconds(r, pp->g, pp->l, pp->rate);
}

/* The BSP cost W/r + g*H + l*S of S supersteps, in seconds; NAN without g
 * and l (w is left out without a rate). */
static double bsp_cost(const prof_params *pp, uint64_t W, uint64_t H, uint64_t S)
{
    if (pp->g < 0 || pp->l < 0)
        return NAN;
    double w_s = pp->rate > 0 ? (double)W / pp->rate * 1e-9 : 0;
    return w_s + pp->g * (double)H * 1e-9 + pp->l * (double)S * 1e-9;
}

/* Machine m's summary and its labels', in the format asked (the machine's
 * place among those printed: `index`, for JSON's commas). */
static void summary(const trace_machine *m, const prof_params *pp, bspram_format format, size_t index)
{
    const bspram_record *rec = m->log.records;
    const size_t S = m->log.n;
    uint64_t W = 0, H = 0, charge = 0;
    double measured = 0;
    for (size_t i = 0; i < S; i++) {
        W += rec[i].work;
        H += rec[i].h_bytes;
        charge += rec[i].charge;
        measured += rec[i].seconds;
    }
    if (format == BSPRAM_FORMAT_JSON) {
        printf("%s\n  {\"machine\": %u, \"p\": %" PRIu64 ", \"supersteps\": %zu, \"work\": %" PRIu64
               ", \"h_bytes\": %" PRIu64 ", \"charge\": %" PRIu64 ", \"measured_seconds\": %.9g, "
               "\"bsp_seconds\": ", index ? "," : "", m->id, m->p, S, W, H, charge, measured);
        bspram_json_number(bsp_cost(pp, W, H, S));
        printf(", \"g\": ");
        bspram_json_number(pp->g >= 0 ? pp->g : NAN);
        printf(", \"l\": ");
        bspram_json_number(pp->l >= 0 ? pp->l : NAN);
        printf(", \"rate\": ");
        bspram_json_number(pp->rate > 0 ? pp->rate : NAN);
        printf(", \"labels\": [");
    } else if (format == BSPRAM_FORMAT_TEXT) {
        printf("machine %u: p = %" PRIu64 ", S = %zu supersteps, W = %" PRIu64 ", H = %" PRIu64
               " bytes, charge sum max(q,r) = %" PRIu64 ", measured %.6g s\n",
               m->id, m->p, S, W, H, charge, measured);
        if (pp->g >= 0 && pp->l >= 0) {
            double w_s = pp->rate > 0 ? (double)W / pp->rate * 1e-9 : 0;
            double gh = pp->g * (double)H * 1e-9, ls = pp->l * (double)S * 1e-9;
            printf("  BSP cost W/r + g*H + l*S = %.6g s (W/r %.4g s + g*H %.4g s + l*S %.4g s; "
                   "g = %.4g ns per byte, l = %.4g ns%s, %s)\n",
                   w_s + gh + ls, w_s, gh, ls, pp->g, pp->l,
                   pp->rate > 0 ? "" : ", W not priced: no rate", pp->source);
        } else {
            printf("  no BSP cost: no g and l (run `bspram probe`, or give --g and --l; the "
                   "collectives' own, measured quietly for this P, count too)\n");
        }
        printf("  %-26s %10s %12s %14s %12s %12s %12s\n", "label", "supersteps", "W", "H (bytes)", "charge",
               "measured s", "BSP cost s");
    }
    /* By label, in order of first appearance. */
    char *seen = bspram_tool_calloc(S ? S : 1, 1, "bspram prof");
    for (size_t i = 0, labels = 0; i < S; i++) {
        if (seen[i])
            continue;
        uint64_t n = 0, w = 0, h = 0, c = 0;
        double t = 0;
        for (size_t j = i; j < S; j++)
            if (!seen[j] && !strcmp(rec[j].label, rec[i].label)) {
                seen[j] = 1;
                n++, w += rec[j].work, h += rec[j].h_bytes, c += rec[j].charge, t += rec[j].seconds;
            }
        if (format == BSPRAM_FORMAT_CSV) {
            printf("%u,%" PRIu64 ",", m->id, m->p);
            bspram_csv_field(rec[i].label);
            printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.9g,", n, w, h, c, t);
            double cost = bsp_cost(pp, w, h, n);
            if (!isnan(cost))
                printf("%.9g", cost);
            printf("\n");
        } else if (format == BSPRAM_FORMAT_JSON) {
            printf("%s{\"label\": ", labels++ ? ", " : "");
            bspram_json_string(rec[i].label);
            printf(", \"supersteps\": %" PRIu64 ", \"work\": %" PRIu64 ", \"h_bytes\": %" PRIu64
                   ", \"charge\": %" PRIu64 ", \"measured_seconds\": %.9g, \"bsp_seconds\": ", n, w, h,
                   c, t);
            bspram_json_number(bsp_cost(pp, w, h, n));
            printf("}");
        } else {
            double cost = bsp_cost(pp, w, h, n);
            printf("  %-26s %10" PRIu64 " %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %12.6f ",
                   rec[i].label, n, w, h, c, t);
            if (isnan(cost)) /* no g and l */
                printf("%12s\n", "-");
            else
                printf("%12.6f\n", cost);
        }
    }
    free(seen);
    if (format == BSPRAM_FORMAT_JSON)
        printf("]}");
}

/* Bytes each process sent (out) or received (in) in record i, from its flows. */
static void per_process(const trace_machine *m, size_t i, int out, uint64_t *bytes)
{
    memset(bytes, 0, (size_t)m->p * sizeof *bytes);
    const bspram_flow *f;
    size_t n;
    if (!bspram_pattern_get(&m->pattern, i, &f, &n))
        return;
    for (size_t k = 0; k < n; k++)
        bytes[out ? f[k].src : f[k].dst] += f[k].bytes;
}

/* The superstep axis of the last panel: a tick at every change of label
 * (at most PROF_MAX_TICKS, thinned evenly), named by the label and the
 * superstep, with room below for the names. */
static void ticks(FILE *g, const bspram_record *rec, size_t S)
{
    size_t changes = 0;
    for (size_t i = 0; i < S; i++)
        changes += i == 0 || strcmp(rec[i].label, rec[i - 1].label) != 0;
    size_t every = changes > PROF_MAX_TICKS ? (changes + PROF_MAX_TICKS - 1) / PROF_MAX_TICKS : 1;
    fprintf(g, "set bmargin 9\nset xlabel 'superstep (named ticks: where the label changes)'\n"
               "set format x '%%g'\nset xtics rotate by 40 right font ',8'\nset xtics add (");
    for (size_t i = 0, k = 0, first = 1; i < S; i++) {
        if (!(i == 0 || strcmp(rec[i].label, rec[i - 1].label) != 0) || k++ % every)
            continue;
        fputs(first ? "" : ", ", g);
        first = 0;
        fputc('"', g);
        for (const char *c = rec[i].label; *c; c++)
            if (*c != '"' && *c != '\\')
                fputc(*c, g);
        fprintf(g, " %zu\" %zu", i, i);
    }
    fprintf(g, ")\n");
}

/* Where panel k of n goes (0 at the top): equal heights under the title,
 * the last one taller by the room its tick names take. */
static void panel(FILE *g, int k, int n)
{
    const double unit = 0.95 / (n + 0.8);
    if (k < n - 1)
        fprintf(g, "set origin 0,%f\nset size 1,%f\n", 0.95 - (k + 1) * unit, unit);
    else
        fprintf(g, "set origin 0,0\nset size 1,%f\n", 1.8 * unit);
}

static int draw(const char *path, const trace_machine *m, const prof_params *pp)
{
    const bspram_record *rec = m->log.records;
    const size_t S = m->log.n;
    int strip = m->p <= PROF_STRIP_MAX_P && S > 0;
    for (size_t i = 0; strip && i < S; i++) {
        const bspram_flow *f;
        size_t n;
        strip = bspram_pattern_get(&m->pattern, i, &f, &n);
    }
    const int panels = 3 + 2 * strip, height = 220 * panels + 120;
    /* A point per superstep while they are apart; past PROF_POINTS_MAX they
     * would merge into solid bands: a point every few supersteps. */
    const int dense = S > PROF_POINTS_MAX;
    FILE *g = bspram_tool_gnuplot_open("prof", "--output", path, PROF_WIDTH, height);
    if (!g)
        return 1;
    fprintf(g, "set multiplot title 'machine %u: p = %" PRIu64 ", %zu supersteps' font ',14'\n",
            m->id, m->p, S);
    /* The margins at fixed places on the page, so that every panel — the
     * heat strips with their colour boxes too — has the same superstep
     * axis; the upper panels leave their tick labels to the last, so that
     * no panel's title sits on the labels of the one above. */
    fprintf(g, "set grid\nset key outside right top\nset xrange [-0.5:%f]\n"
               "set lmargin at screen 0.1\nset rmargin at screen 0.72\nset tmargin 2.5\n"
               "set bmargin 1\nset xtics out\nset format x ''\n",
            S ? (double)S - 0.5 : 0.5);
    panel(g, 0, panels);
    fprintf(g, "set ylabel 'messages'\nset title 'charge max(q, r), q and r'\n");
    char with[48]; /* dense: a point every so many supersteps (gnuplot's pointinterval) */
    snprintf(with, sizeof with, "linespoints pi %zu", dense ? S / (PROF_POINTS_MAX / 2) + 1 : 1);
    fprintf(g, "plot '-' using 1:2 with %s pt 7 ps 0.6 lw 2 title 'charge max(q,r)', "
               "'-' using 1:2 with %s pt 4 ps 0.5 title 'q (most sent)', "
               "'-' using 1:2 with %s pt 6 ps 0.5 title 'r (most received)'\n", with, with, with);
    for (int col = 0; col < 3; col++) {
        for (size_t i = 0; i < S; i++)
            fprintf(g, "%zu %" PRIu64 "\n", i, col == 0 ? rec[i].charge : col == 1 ? rec[i].q : rec[i].r);
        fprintf(g, "e\n");
    }
    panel(g, 1, panels);
    fprintf(g, "set ylabel 'bytes'\nset title 'bytes moved and the h-relation h'\n");
    fprintf(g, "plot '-' using 1:2 with %s pt 7 ps 0.5 title 'bytes (all)', "
               "'-' using 1:2 with %s pt 5 ps 0.5 title 'h (bytes)'\n", with, with);
    for (int col = 0; col < 2; col++) {
        for (size_t i = 0; i < S; i++)
            fprintf(g, "%zu %" PRIu64 "\n", i, col == 0 ? rec[i].bytes : rec[i].h_bytes);
        fprintf(g, "e\n");
    }
    int priced = pp->g >= 0 && pp->l >= 0;
    if (!strip)
        ticks(g, rec, S);
    panel(g, 2, panels);
    fprintf(g, "set logscale y\nset ylabel 'microseconds (log)'\nset title 'time: measured%s'\n",
            priced ? ", and predicted w/r + g h + l" : " (no g and l to predict with)");
    fprintf(g, "plot '-' using 1:2 with %s pt 7 ps 0.5 title 'measured'", with);
    if (priced)
        fprintf(g, ", '-' using 1:2 with %s pt 6 ps 0.5 title 'predicted'", with);
    fprintf(g, "\n");
    for (size_t i = 0; i < S; i++)
        fprintf(g, "%zu %.6f\n", i, rec[i].seconds * 1e6);
    fprintf(g, "e\n");
    if (priced) {
        for (size_t i = 0; i < S; i++)
            fprintf(g, "%zu %.6f\n", i, predicted(pp, &rec[i]) * 1e6);
        fprintf(g, "e\n");
    }
    if (strip) {
        uint64_t *bytes = bspram_tool_realloc(NULL, (size_t)m->p * sizeof *bytes, "bspram prof");
        for (int out = 1; out >= 0; out--) {
            panel(g, 4 - out, panels);
            if (!out)
                ticks(g, rec, S);
            /* One box per process and superstep: crisp at any zoom. */
            fprintf(g, "unset logscale y\nset ylabel 'process'\nset title 'bytes %s per process'\n"
                       "set yrange [-0.5:%f]\nset ytics %s\nunset grid\n"
                       "set palette defined (0 'white', 1 'orange', 2 'dark-red')\nunset key\n"
                       "plot '-' using 1:2:(0.5):(0.5):3 with boxxyerror fs solid noborder fc palette\n",
                    out ? "sent" : "received", (double)m->p - 0.5, m->p <= 16 ? "1" : "autofreq");
            for (size_t i = 0; i < S; i++) {
                per_process(m, i, out, bytes);
                for (uint64_t s = 0; s < m->p; s++)
                    fprintf(g, "%zu %" PRIu64 " %" PRIu64 "\n", i, s, bytes[s]);
            }
            fprintf(g, "e\n");
        }
        free(bytes);
    }
    fprintf(g, "unset multiplot\n");
    return bspram_tool_gnuplot_close("prof", "--output", path, g);
}

/* The settings the command line sets (options below), with their defaults. */
typedef struct prof_settings {
    const char *output, *html, *format;
    uint64_t machine; /* UINT64_MAX: every machine */
    double g, l, rate; /* < 0: not given */
} prof_settings;

static const bspram_option options[] = {
    {.name = "output", .letter = 'o', .kind = BSPRAM_OPT_FILE,
     .offset = offsetof(prof_settings, output), .value = "FILE",
     .help = "draw the picture there: SVG, or PNG for a name ending in .png"},
    {.name = "html", .kind = BSPRAM_OPT_FILE, .offset = offsetof(prof_settings, html),
     .value = "FILE", .help = "write the run as one self-contained page (FILE ending in .html)"},
    {.name = "machine", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(prof_settings, machine),
     .value = "N", .help = "only machine N of the trace (default: all; the picture and page: the first)",
     .min = 0, .max = UINT32_MAX},
    {.name = "g", .kind = BSPRAM_OPT_REAL, .offset = offsetof(prof_settings, g), .value = "NS",
     .help = "g in ns per byte of h (default: bspram probe's, else the\ncollectives' own for P)"},
    {.name = "l", .kind = BSPRAM_OPT_REAL, .offset = offsetof(prof_settings, l), .value = "NS",
     .help = "l in ns per superstep (default: as --g)"},
    {.name = "rate", .kind = BSPRAM_OPT_REAL, .offset = offsetof(prof_settings, rate), .value = "W",
     .help = "the rate of w in units per ns (default: bspram probe's r)"},
    BSPRAM_FORMAT_OPTION(prof_settings, format),
    {.name = NULL}};

static int run_prof(int argc, char **argv);

const bspram_command bspram_cmd_prof = {
    .name = "prof",
    .summary = "a picture of a run from its trace (BSPRAM_TRACE): charges, bytes, time against W/r + g·H + l·S",
    .run = run_prof, .usage = "TRACE [options]",
    .about = "Prints, for every machine of the trace TRACE (.csv or .json, written by\n"
    "BSPRAM_TRACE), its supersteps S, work W = sum of w, H = sum of h (bytes), the\n"
    "BSP cost W/rate + g*H + l*S beside the measured time, and the same by label;\n"
    "with --output, draws per superstep the charge max(q,r), q and r, bytes and h,\n"
    "measured and predicted time, and (if the trace kept the pattern:\n"
    "BSPRAM_PATTERN=1, and p <= 64) bytes out and in per process. g, l and the rate\n"
    "of w come from `bspram probe` unless given (g and l else from the collectives'\n"
    "own measurement for P, where they cached one). CSV columns, a row per machine and\n"
    "label (JSON: an array of the machines, each with its labels):\n"
    "  machine,p,label,supersteps,work,h_bytes,charge,measured_seconds,bsp_seconds",
    .options = options, .operand = "TRACE", .operand_reads = 1};

static int run_prof(int argc, char **argv)
{
    prof_settings o = {.format = "text", .machine = UINT64_MAX, .g = -1, .l = -1, .rate = -1};
    const char *path = NULL;
    int rc = bspram_options_parse(&bspram_cmd_prof, argc, argv, &o, &path);
    if (rc)
        return rc == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : rc;
    const char *output = o.output;
    const uint64_t only = o.machine;
    const double g = o.g, l = o.l, rate = o.rate;
    const bspram_format format = bspram_format_of(o.format);
    prof_params pp = {-1, -1, -1, "given", ""};
    if (!path)
        return bspram_tool_usage("prof", "no TRACE given (bspram prof TRACE [options])");
    if ((g >= 0) != (l >= 0))
        return bspram_tool_usage("prof", "give both --g and --l, or neither (then bspram probe's)");
    /* g, l and r: given, else bspram probe's (its r is the DAXPY rate in
     * flops per ns, so w counts flops). */
    bspram_params probe;
    int probed = bspram_params_read(&probe) == 0;
    if (g >= 0) {
        pp.g = g, pp.l = l;
    } else if (probed) {
        pp.g = probe.g_ns_per_byte, pp.l = probe.l_ns, pp.source = "from bspram probe";
    }
    pp.rate = rate >= 0 ? rate : probed && probe.flops_per_ns > 0 ? probe.flops_per_ns : -1;
    /* The picture's name before the work, the trace among what it must not
     * be (gnuplot would empty it). */
    char clash[2 * 4096 + 128];
    if (output && o.html &&
        bspram_tool_outputs_clash("--output", output, "--html", o.html, clash, sizeof clash))
        return bspram_tool_usage("prof", "%s", clash);
    if (output && (rc = bspram_tool_gnuplot_check("prof", "--output", output, path, 0)) != 0)
        return rc;
    if (o.html && (rc = bspram_tool_html_check("prof", "--html", o.html, path)) != 0)
        return rc;
    trace t;
    if (trace_read(path, "prof", &t))
        return BSPRAM_TOOL_FAILED;
    size_t found = 0;
    const trace_machine *drawn = NULL;
    for (size_t i = 0; i < t.n; i++) /* the machine asked for is in the trace: before any row */
        found += only == UINT64_MAX || t.machines[i].id == only;
    if (!found) { /* the trace has a superstep (trace_read), but not of this machine */
        bspram_tool_error("prof", "%s has no machine %" PRIu64 " (%zu machines)", path, only, t.n);
        trace_free(&t);
        return BSPRAM_TOOL_FAILED;
    }
    if (format == BSPRAM_FORMAT_CSV)
        printf("machine,p,label,supersteps,work,h_bytes,charge,measured_seconds,bsp_seconds\n");
    else if (format == BSPRAM_FORMAT_JSON)
        printf("[");
    for (size_t i = 0, shown = 0; i < t.n; i++) {
        if (only != UINT64_MAX && t.machines[i].id != only)
            continue;
        prof_params mp = pp; /* g and l of its P, if measured_gl has them */
        measured_gl(&mp, t.machines[i].p);
        summary(&t.machines[i], &mp, format, shown++);
        if (!drawn)
            drawn = &t.machines[i];
    }
    if (format == BSPRAM_FORMAT_JSON)
        printf("\n]\n");
    rc = BSPRAM_TOOL_OK;
    if ((output || o.html) && t.n > 1 && only == UINT64_MAX && format == BSPRAM_FORMAT_TEXT)
        printf("drawing machine %u (--machine N for another)\n", drawn->id);
    measured_gl(&pp, drawn->p);
    if (output)
        rc = draw(output, drawn, &pp);
    if (output && !o.html && rc == BSPRAM_TOOL_OK && format == BSPRAM_FORMAT_TEXT &&
        drawn->log.n > PROF_PANEL_PIXELS)
        printf("note: %zu supersteps in a picture %d pixels wide; --html FILE draws them on a "
               "time axis that zooms and pans\n", drawn->log.n, PROF_PANEL_PIXELS);
    if (o.html && rc == BSPRAM_TOOL_OK)
        rc = bspram_tool_prof_html(o.html, drawn, pp.g, pp.l, pp.rate, pp.source);
    trace_free(&t);
    return rc;
}
