/* bspram pram check: does a program meet a PRAM exercise? It runs
 * `PROGRAM ARGS... N` for each size N of a sweep and judges every run from
 * what the library itself reports of each PRAM the program ran
 * (BSPRAM_PRAM_REPORT, pram/pram.h "Checking a run") and from the program's
 * exit status — its own check of its result — never from what the program
 * prints: the model it needed against the exercise's (the first step and
 * the line of the program that needed more), its violations, and its
 * steps, work and charge against the bounds by the rule of tools/growth.h.
 * docs/course.md is the user's page; its problem set is in docs/course/. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/number.h"
#include "pram/pram.h"
#include "tools/check_plot.h"
#include "tools/commands.h"
#include "tools/format.h"
#include "tools/growth.h"
#include "tools/pram_report.h"

#define COMMAND "pram check"
#define usage_error(...) bspram_tool_usage(COMMAND, __VA_ARGS__)
#define error(...) bspram_tool_error(COMMAND, __VA_ARGS__)

/* The sweep when --n is not given: four times apart, so that a missing
 * factor of log n shows (docs/course.md). */
#define DEFAULT_SWEEP "16,64,256,1024,4096"
enum { MAX_SIZES = 32 };

typedef struct check_settings {
    const char *n, *model, *steps, *work, *charge, *plot, *html, *format;
} check_settings;

static const char *model_name(size_t i)
{
    return i <= BSPRAM_CRCW_COMBINING ? bspram_pram_model_name((bspram_pram_model)i) : NULL;
}

/* The bounds as the completion offers them (one word each). */
static const char *bound_word(size_t i)
{
    static const char *const w[] = {"1", "logn", "log^2n", "sqrtn", "n", "nlogn", "nlog^2n", "n^2", "n^2logn"};
    return i < sizeof w / sizeof w[0] ? w[i] : NULL;
}

#define BOUND_HELP "a bound: 1, log n, log^2 n, sqrt n, n, n log n,\nn log^2 n, n^2 or n^2 log n (quote it, or nlogn)"

static const bspram_option options[] = {
    {.name = "n", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(check_settings, n), .value = "LIST",
     .help = "the sizes N, comma-separated, each in [2, 2^40] (default\n" DEFAULT_SWEEP ")"},
    {.name = "model", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(check_settings, model), .value = "M",
     .help = "the model the exercise allows (required): EREW, CREW,\nCRCW-common, CRCW-arbitrary, "
             "CRCW-priority, CRCW-combining",
     .names = model_name},
    {.name = "steps", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(check_settings, steps), .value = "BOUND",
     .help = "the bound on the steps (PRAM time), " BOUND_HELP, .names = bound_word},
    {.name = "work", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(check_settings, work), .value = "BOUND",
     .help = "the bound on the work (reads and writes issued)", .names = bound_word},
    {.name = "charge", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(check_settings, charge), .value = "BOUND",
     .help = "the bound on the charge (the emulation's cost, sum of\nmax(q, r) over its supersteps)",
     .names = bound_word},
    {.name = "plot", .kind = BSPRAM_OPT_FILE, .offset = offsetof(check_settings, plot), .value = "FILE.svg",
     .help = "draw the measured points and the fitted bounds there (SVG)"},
    {.name = "html", .kind = BSPRAM_OPT_FILE, .offset = offsetof(check_settings, html), .value = "DIR",
     .help = "write each run's step page there: DIR/n<N>.html (a second\nPRAM of the run n<N>-2.html); "
             "DIR is made if missing"},
    BSPRAM_FORMAT_OPTION(check_settings, format),
    {.name = NULL}};

static int run_check(int argc, char **argv);

const bspram_command bspram_cmd_pram_check = {
    .name = COMMAND,
    .summary = "check a PRAM program against an exercise: its model and its bounds over a sweep of sizes",
    .run = run_check,
    .usage = "--model M [--n LIST] [--steps BOUND] [--work BOUND] [--charge BOUND]\n"
             "[--plot FILE.svg] [--html DIR] [--format F] -- PROGRAM [ARGS...]",
    .about =
        "Runs PROGRAM ARGS... N for each N of the sweep and judges each run from the\n"
        "library's own report of every PRAM it ran (BSPRAM_PRAM_REPORT, set for the\n"
        "run) and from its exit status (its own check of its result), never from\n"
        "what it prints: the exit status must be 0; the weakest model the run needed\n"
        "must be at most M (else: the first step and the line of the program that\n"
        "needed more); no violations; and steps, work and charge (summed over the\n"
        "run's PRAMs) within their bounds by this rule: c*f(n) + d is fitted by least\n"
        "squares over the sweep (c and d printed), and the value's growth between the\n"
        "two largest sizes may exceed f's by at most 10 % (docs/course.md).\n"
        "A run on CRCW-priority whose concurrent writes differed needed CRCW-priority.\n"
        "Printed: a row per size, a row per bound (text, JSON; CSV: the sizes); each\n"
        "failure is one line on stderr (also in the JSON): FAIL, what, which n, where.\n"
        "CSV columns:\n"
        "  n,exit,prams,weakest_model,beyond_step,beyond_at,violations,steps,work,charge\n"
        "beyond_step, beyond_at: the first step that needed more than M, its line.\n"
        "Exit status 0 when everything is met, 1 when something is not (or the\n"
        "check cannot be made: a file that cannot be written), 2 on a usage error.",
    .options = options,
    .operand = "PROGRAM", /* after --, with its arguments */
    .more_help = NULL};

/* ---- the sweep ---- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* --n LIST into sizes[], sorted; the count, or −1 after its line. */
static int parse_sizes(const char *text, uint64_t *sizes)
{
    if (bspram_tool_list_check(COMMAND, "--n", text))
        return -1;
    int k = 0;
    const char *s = text;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        char word[32];
        if (len == 0 || len >= sizeof word || k == MAX_SIZES) {
            usage_error("--n '%s': %s", text,
                        k == MAX_SIZES ? "at most 32 sizes" : "a list of whole numbers, comma-separated (16,64,256)");
            return -1;
        }
        memcpy(word, s, len);
        word[len] = 0;
        if (bspram__base_parse_u64(word, 2, UINT64_C(1) << 40, &sizes[k])) {
            usage_error("--n '%s': '%s' is not a whole number in [2, 2^40]", text, word);
            return -1;
        }
        k++;
        if (!comma)
            break;
        s = comma + 1;
    }
    qsort(sizes, (size_t)k, sizeof *sizes, cmp_u64);
    for (int i = 1; i < k; i++)
        if (sizes[i] == sizes[i - 1]) {
            usage_error("--n '%s': %" PRIu64 " is given twice", text, sizes[i]);
            return -1;
        }
    return k;
}

/* ---- one run ---- */

/* What one run of the program gave. */
typedef struct size_run {
    uint64_t n;
    int exit_status;            /* the program's, or 128 + the signal */
    int signal;                 /* the signal that ended it, or 0 */
    char last_error[240];       /* the last line it printed on stderr */
    size_t prams;
    uint64_t steps, work, charge, violations;
    int weakest;                /* the weakest model the run needed (a priority run's differing writes: priority) */
    bool beyond;                /* a step needed more than --model: the first, */
    int beyond_model;
    uint64_t beyond_step, beyond_pram;
    char beyond_at[192], beyond_what[192];
    size_t nrises;              /* and every rise of that PRAM past --model */
    bspram_report_need rises[BSPRAM_REPORT_NEEDS];
    bool ended_by_violation;    /* a violation of its own model stopped it */
    char violation[512];        /* the first violation */
    char bad_line[320];         /* a report line that does not read, or "" */
} size_run;

/* The model a run of a PRAM declared `declared` needed, for the checker:
 * the library's weakest, but CRCW-arbitrary on a CRCW-priority PRAM is
 * CRCW-priority — its differing writes were decided by priority, and the
 * program may rely on that. */
static int effective(int declared, int needed)
{
    return declared == BSPRAM_CRCW_PRIORITY && needed == BSPRAM_CRCW_ARBITRARY ? BSPRAM_CRCW_PRIORITY : needed;
}

/* The last non-empty line of the file, into buf. */
static void last_line(const char *path, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        size_t l = strlen(line);
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r'))
            line[--l] = 0;
        if (l)
            snprintf(buf, len, "%s", line);
    }
    fclose(f);
}

/* Read the report file of one run into r. */
static void read_report(const char *path, int model, size_run *r)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    size_t number = 0;
    r->weakest = BSPRAM_EREW;
    while ((len = getline(&line, &cap, f)) > 0) {
        number++;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        bspram_report_line p;
        char why[160];
        if (bspram_report_parse(line, &p, why, sizeof why)) {
            if (!r->bad_line[0])
                snprintf(r->bad_line, sizeof r->bad_line, "line %zu of its report does not read: %s", number,
                         why);
            continue;
        }
        r->prams++;
        r->steps += p.steps;
        r->work += p.work;
        r->charge += p.charge;
        r->violations += p.violations;
        int need = effective(p.model, p.weakest);
        if (need > r->weakest)
            r->weakest = need;
        const bool had = r->beyond;
        for (size_t i = 0; i < p.nneeds && !had; i++) {
            bspram_report_need rise = p.needs[i];
            rise.model = effective(p.model, rise.model);
            if (rise.model <= model)
                continue;
            if (!r->beyond) {
                r->beyond = true;
                r->beyond_model = rise.model;
                r->beyond_step = rise.step;
                r->beyond_pram = p.pram;
                snprintf(r->beyond_at, sizeof r->beyond_at, "%s", rise.at);
                snprintf(r->beyond_what, sizeof r->beyond_what, "%s", rise.what);
            }
            r->rises[r->nrises++] = rise;
        }
        /* a weakest above the rises listed (a line without needs) */
        if (!r->beyond && need > model) {
            r->beyond = true;
            r->beyond_model = need;
            r->beyond_step = p.weakest_step;
            r->beyond_pram = p.pram;
        }
        if (p.ended_by_violation)
            r->ended_by_violation = true;
        if (p.violation[0] && !r->violation[0])
            snprintf(r->violation, sizeof r->violation, "%s", p.violation);
    }
    free(line);
    fclose(f);
}

/* Run PROGRAM ARGS... N with the report (and page) asked for. 0, or 1 after
 * a line (the program could not be started). */
static int run_once(char **program, int nargs, uint64_t n, const char *scratch, const char *html_dir,
                    int model, size_run *r)
{
    char report[4200], errors[4200], page[4200], size[24];
    snprintf(report, sizeof report, "%s/report.jsonl", scratch);
    snprintf(errors, sizeof errors, "%s/stderr", scratch);
    snprintf(size, sizeof size, "%" PRIu64, n);
    if (html_dir)
        snprintf(page, sizeof page, "%s/n%" PRIu64 ".html", html_dir, n);
    int fd = open(report, O_WRONLY | O_CREAT | O_TRUNC, 0600); /* ours: emptied for each run */
    if (fd < 0 || close(fd) != 0)
        return error("cannot make %s: %s", report, strerror(errno));
    char **args = bspram_tool_calloc((size_t)nargs + 2, sizeof *args, "pram check");
    for (int i = 0; i < nargs; i++)
        args[i] = program[i];
    args[nargs] = size;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        free(args);
        return error("cannot start %s: %s", program[0], strerror(errno));
    }
    if (pid == 0) {
        setenv("BSPRAM_PRAM_REPORT", report, 1);
        if (html_dir)
            setenv("BSPRAM_PRAM_HTML", page, 1);
        else
            unsetenv("BSPRAM_PRAM_HTML");
        int out = open("/dev/null", O_WRONLY), err = open(errors, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out >= 0)
            dup2(out, STDOUT_FILENO);
        if (err >= 0)
            dup2(err, STDERR_FILENO);
        signal(SIGPIPE, SIG_DFL);
        execvp(args[0], args);
        fprintf(stderr, "cannot run %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    free(args);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return error("waiting for %s: %s", program[0], strerror(errno));
    memset(r, 0, sizeof *r);
    r->n = n;
    if (WIFSIGNALED(status)) {
        r->signal = WTERMSIG(status);
        r->exit_status = 128 + r->signal;
    } else {
        r->exit_status = WEXITSTATUS(status);
    }
    last_line(errors, r->last_error, sizeof r->last_error);
    read_report(report, model, r);
    return 0;
}

/* ---- judging ---- */

typedef struct failures {
    char **line;
    size_t n, cap;
} failures;

static void add_failure(failures *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_failure(failures *f, const char *fmt, ...)
{
    char buf[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    f->line = bspram_tool_grow(f->line, &f->cap, f->n + 1, sizeof *f->line, 8, "pram check");
    size_t len = strlen(buf) + 1;
    f->line[f->n] = bspram_tool_calloc(len, 1, "pram check");
    memcpy(f->line[f->n++], buf, len);
}

static const char *model_text_of(int m) { return bspram_pram_model_name((bspram_pram_model)m); }

/* The failures of one run: exit status, report, violations, model. */
static void judge_run(const size_run *r, int model, failures *f)
{
    const char *mname = bspram_pram_model_name((bspram_pram_model)model);
    char pram[48] = "";
    if (r->prams > 1)
        snprintf(pram, sizeof pram, "PRAM %" PRIu64 ", ", r->beyond_pram);
    if (r->ended_by_violation) {
        add_failure(f, "FAIL violation n=%" PRIu64 ": the run ended at a violation of its own model: %s", r->n,
                    r->violation);
    } else if (r->exit_status != 0) {
        char why[320] = "";
        if (r->last_error[0])
            snprintf(why, sizeof why, ": %s", r->last_error);
        if (r->signal)
            add_failure(f, "FAIL exit n=%" PRIu64 ": the program was killed by signal %d (%s)%s", r->n, r->signal,
                        strsignal(r->signal), why);
        else
            add_failure(f, "FAIL exit n=%" PRIu64 ": the program exited with status %d (its own check of its "
                        "result, or an error)%s", r->n, r->exit_status, why);
    } else if (r->violations) {
        add_failure(f, "FAIL violations n=%" PRIu64 ": %" PRIu64 " violation%s of the program's own model; the "
                    "first: %s", r->n, r->violations, r->violations == 1 ? "" : "s", r->violation);
    }
    if (r->bad_line[0])
        add_failure(f, "FAIL report n=%" PRIu64 ": %s", r->n, r->bad_line);
    else if (r->prams == 0 && r->exit_status == 0)
        add_failure(f, "FAIL report n=%" PRIu64 ": no PRAM reported a run (a PRAM reports when "
                    "bspram_pram_destroy is called)", r->n);
    if (r->beyond) {
        /* Where: each rise past --model ("step 2 at f.c:9: VPs 0 and 4 both
         * read cell A[0]"), with its model when there are several. */
        char where[1100];
        size_t at = 0;
        where[0] = 0;
        for (size_t i = 0; i < r->nrises && at < sizeof where; i++) {
            const bspram_report_need *x = &r->rises[i];
            at += (size_t)snprintf(where + at, sizeof where - at, "%s%sstep %" PRIu64 "%s%s%s%s", i ? "; " : "",
                                   i ? "" : pram, x->step, x->at[0] ? " at " : "", x->at, x->what[0] ? ": " : "",
                                   x->what);
            if (r->nrises > 1 && at < sizeof where)
                at += (size_t)snprintf(where + at, sizeof where - at, " (%s)", model_text_of(x->model));
        }
        if (!r->nrises)
            snprintf(where, sizeof where, "%sstep %" PRIu64, pram, r->beyond_step);
        add_failure(f, "FAIL model n=%" PRIu64 ": needs %s, more than %s: %s", r->n,
                    bspram_pram_model_name((bspram_pram_model)r->weakest), mname, where);
    }
}

/* ---- output ---- */

enum { STEPS, WORK, CHARGE, QUANTITIES };
static const char *const quantity_name[QUANTITIES] = {"steps", "work", "charge"};

static uint64_t value_of(const size_run *r, int q)
{
    return q == STEPS ? r->steps : q == WORK ? r->work : r->charge;
}

static const char *model_text(int m) { return bspram_pram_model_name((bspram_pram_model)m); }

static void print_program(char **program, int nargs)
{
    for (int i = 0; i < nargs; i++)
        printf("%s%s", i ? " " : "", program[i]);
}

static void text_out(char **program, int nargs, int model, const size_run *runs, int k, const int *bound,
                     const bspram_growth *g, bool judged)
{
    printf("program   ");
    print_program(program, nargs);
    printf(" N\nmodel     %s\n", model_text(model));
    printf("bounds    ");
    for (int q = 0; q < QUANTITIES; q++)
        printf("%s%s %s", q ? ", " : "", quantity_name[q], bound[q] >= 0 ? bspram_bound_name(bound[q]) : "-");
    printf("\n\n%10s %4s %5s  %-15s %10s %10s %12s %12s  %s\n", "n", "exit", "PRAMs", "weakest model",
           "violations", "steps", "work", "charge", "first step beyond the model");
    for (int i = 0; i < k; i++) {
        const size_run *r = &runs[i];
        char beyond[240] = "-";
        if (r->beyond)
            snprintf(beyond, sizeof beyond, "step %" PRIu64 "%s%s", r->beyond_step, r->beyond_at[0] ? " at " : "",
                     r->beyond_at);
        printf("%10" PRIu64 " %4d %5zu  %-15s %10" PRIu64 " %10" PRIu64 " %12" PRIu64 " %12" PRIu64 "  %s\n", r->n,
               r->exit_status, r->prams, r->prams ? model_text(r->weakest) : "-", r->violations, r->steps, r->work,
               r->charge, beyond);
    }
    bool any = false;
    for (int q = 0; q < QUANTITIES; q++)
        any |= bound[q] >= 0;
    if (!any)
        return;
    printf("\n%-8s %-10s %12s %12s %18s %9s %9s %9s  %s\n", "quantity", "bound", "c", "d", "growth between n =",
           "measured", "bound's", "allowed", "verdict");
    for (int q = 0; q < QUANTITIES; q++) {
        if (bound[q] < 0)
            continue;
        if (!judged) {
            printf("%-8s %-10s %12s %12s %18s %9s %9s %9s  %s\n", quantity_name[q], bspram_bound_name(bound[q]),
                   "-", "-", "-", "-", "-", "-", "not judged: a run failed");
            continue;
        }
        char between[40], measured[24];
        snprintf(between, sizeof between, "%.0f and %.0f", g[q].from, g[q].to);
        if (isfinite(g[q].growth))
            snprintf(measured, sizeof measured, "%.3fx", g[q].growth);
        else
            snprintf(measured, sizeof measured, "from 0");
        printf("%-8s %-10s %12.5g %12.5g %18s %9s %8.3fx %8.3fx  %s\n", quantity_name[q],
               bspram_bound_name(bound[q]), g[q].c, g[q].d, between, measured, g[q].bound_growth, g[q].allowed,
               g[q].met ? "within the bound" : "GROWS FASTER");
    }
}

static void csv_out(const size_run *runs, int k)
{
    printf("n,exit,prams,weakest_model,beyond_step,beyond_at,violations,steps,work,charge\n");
    for (int i = 0; i < k; i++) {
        const size_run *r = &runs[i];
        printf("%" PRIu64 ",%d,%zu,%s,%" PRIu64 ",", r->n, r->exit_status, r->prams,
               r->prams ? model_text(r->weakest) : "", r->beyond ? r->beyond_step : 0);
        bspram_csv_field(r->beyond_at);
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->violations, r->steps, r->work, r->charge);
    }
}

static void json_out(char **program, int nargs, int model, const size_run *runs, int k, const int *bound,
                     const bspram_growth *g, bool judged, const failures *f)
{
    printf("{\"program\": [");
    for (int i = 0; i < nargs; i++) {
        printf("%s", i ? ", " : "");
        bspram_json_string(program[i]);
    }
    printf("], \"model\": \"%s\", \"tolerance\": ", model_text(model));
    bspram_json_number(BSPRAM_GROWTH_TOLERANCE);
    printf(",\n\"sizes\": [");
    for (int i = 0; i < k; i++) {
        const size_run *r = &runs[i];
        printf("%s\n{\"n\": %" PRIu64 ", \"exit\": %d, \"prams\": %zu, \"weakest_model\": ", i ? "," : "", r->n,
               r->exit_status, r->prams);
        if (r->prams)
            bspram_json_string(model_text(r->weakest));
        else
            printf("null");
        printf(", \"beyond_step\": %" PRIu64 ", \"beyond_at\": ", r->beyond ? r->beyond_step : 0);
        bspram_json_string(r->beyond_at);
        printf(", \"violations\": %" PRIu64 ", \"steps\": %" PRIu64 ", \"work\": %" PRIu64 ", \"charge\": %" PRIu64
               "}", r->violations, r->steps, r->work, r->charge);
    }
    printf("],\n\"bounds\": [");
    int shown = 0;
    for (int q = 0; q < QUANTITIES; q++) {
        if (bound[q] < 0)
            continue;
        printf("%s\n{\"quantity\": \"%s\", \"bound\": \"%s\", \"judged\": %s", shown++ ? "," : "",
               quantity_name[q], bspram_bound_name(bound[q]), judged ? "true" : "false");
        if (judged) {
            printf(", \"c\": ");
            bspram_json_number(g[q].c);
            printf(", \"d\": ");
            bspram_json_number(g[q].d);
            printf(", \"from\": %.0f, \"to\": %.0f, \"growth\": ", g[q].from, g[q].to);
            bspram_json_number(g[q].growth);
            printf(", \"bound_growth\": ");
            bspram_json_number(g[q].bound_growth);
            printf(", \"allowed\": ");
            bspram_json_number(g[q].allowed);
            printf(", \"met\": %s", g[q].met ? "true" : "false");
        }
        printf("}");
    }
    printf("],\n\"failures\": [");
    for (size_t i = 0; i < f->n; i++) {
        printf("%s\n", i ? "," : "");
        bspram_json_string(f->line[i]);
    }
    printf("],\n\"passed\": %s}\n", f->n ? "false" : "true");
}

/* ---- the command ---- */

/* The index of the "--" that ends the options, or argc: a "--" that is an
 * option's value is not the end. */
static int options_end(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            return i;
        const bspram_option *o = bspram_options_find(&bspram_cmd_pram_check, argv[i]);
        if (o && o->kind != BSPRAM_OPT_FLAG && !strchr(argv[i], '='))
            i++;
    }
    return argc;
}

/* Can PROGRAM be run: a path with '/' that is an executable file, or a name
 * on PATH? */
static bool runnable(const char *program)
{
    struct stat st;
    if (strchr(program, '/'))
        return stat(program, &st) == 0 && S_ISREG(st.st_mode) && access(program, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char dir[4096];
    for (const char *s = path;;) {
        const char *colon = strchr(s, ':');
        size_t len = colon ? (size_t)(colon - s) : strlen(s);
        snprintf(dir, sizeof dir, "%.*s/%s", (int)len, len ? s : ".", program);
        if (stat(dir, &st) == 0 && S_ISREG(st.st_mode) && access(dir, X_OK) == 0)
            return true;
        if (!colon)
            return false;
        s = colon + 1;
    }
}

/* --html DIR: made if missing (its parent must exist), a writable directory. */
static int html_dir_ready(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (errno != ENOENT || mkdir(dir, 0777) != 0)
            return error("--html %s: cannot make the directory: %s", dir, strerror(errno));
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
        return error("--html %s: not a directory (the pages go in it: %s/n<N>.html)", dir, dir);
    if (access(dir, W_OK) != 0)
        return error("--html %s: cannot write in it: %s", dir, strerror(errno));
    return 0;
}

static int run_check(int argc, char **argv)
{
    check_settings o = {.format = "text"};
    const int end = options_end(argc, argv);
    int rc = bspram_options_parse(&bspram_cmd_pram_check, end, argv, &o, NULL);
    if (rc)
        return rc == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : rc;
    if (!o.model)
        return usage_error("--model M is required: the model the exercise allows (EREW, CREW, CRCW-common, "
                           "CRCW-arbitrary, CRCW-priority, CRCW-combining)");
    const int model = strchr(o.model, ':') ? -1 : bspram_pram_model_parse(o.model, NULL);
    if (model < 0)
        return usage_error("--model '%s': unknown model; valid: EREW, CREW, CRCW-common, CRCW-arbitrary, "
                           "CRCW-priority, CRCW-combining", o.model);
    int bound[QUANTITIES];
    const char *bound_text[QUANTITIES] = {o.steps, o.work, o.charge};
    bool any_bound = false;
    for (int q = 0; q < QUANTITIES; q++) {
        bound[q] = bound_text[q] ? bspram_bound_parse(bound_text[q]) : -1;
        if (bound_text[q] && bound[q] < 0)
            return usage_error("--%s '%s': unknown bound; valid: 1, log n, log^2 n, sqrt n, n, n log n, "
                               "n log^2 n, n^2, n^2 log n", quantity_name[q], bound_text[q]);
        any_bound |= bound[q] >= 0;
    }
    uint64_t sizes[MAX_SIZES];
    const int k = parse_sizes(o.n ? o.n : DEFAULT_SWEEP, sizes);
    if (k < 0)
        return BSPRAM_TOOL_USAGE;
    if (any_bound && k < 2)
        return usage_error("--n '%s': a bound is judged over two sizes at least", o.n);
    if (end >= argc - 1)
        return usage_error("no program: give it after --, as in bspram pram check --model EREW -- "
                           "./prefix_sums (it is run as PROGRAM ARGS... N)");
    char **program = argv + end + 1;
    const int nargs = argc - end - 1;
    if (!runnable(program[0]))
        return usage_error("PROGRAM '%s': %s", program[0],
                           strchr(program[0], '/') ? "not an executable file" : "not found on PATH");
    const bspram_format format = bspram_format_of(o.format);
    if (o.plot) {
        char why[4400];
        const char *dot = strrchr(o.plot, '.');
        if (!dot || strchr(dot, '/') || strcasecmp(dot, ".svg")) /* a usage error, as every picture's name */
            return usage_error("--plot %s: the name must end in .svg", o.plot);
        if (bspram_tool_output_problem("--plot", o.plot, NULL, ".svg", why, sizeof why) ||
            bspram_tool_output_dir_problem("--plot", o.plot, why, sizeof why))
            return error("%s", why);
    }
    if (o.html && html_dir_ready(o.html))
        return BSPRAM_TOOL_FAILED;

    /* A scratch directory of ours for the report and the program's stderr. */
    const char *tmp = getenv("TMPDIR");
    char scratch[4096];
    snprintf(scratch, sizeof scratch, "%s/bspram-check-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch))
        return error("cannot make a scratch directory %s: %s", scratch, strerror(errno));
    size_run *runs = bspram_tool_calloc((size_t)k, sizeof *runs, "pram check");
    rc = 0;
    for (int i = 0; i < k && !rc; i++)
        rc = run_once(program, nargs, sizes[i], scratch, o.html, model, &runs[i]);
    char path[4200];
    snprintf(path, sizeof path, "%s/report.jsonl", scratch);
    remove(path);
    snprintf(path, sizeof path, "%s/stderr", scratch);
    remove(path);
    rmdir(scratch);
    if (rc) {
        free(runs);
        return rc;
    }

    failures f = {NULL, 0, 0};
    bool all_ran = true;
    for (int i = 0; i < k; i++) {
        judge_run(&runs[i], model, &f);
        all_ran &= runs[i].exit_status == 0 && runs[i].prams > 0 && !runs[i].bad_line[0];
    }
    /* The bounds, over a sweep whose every run finished and reported. */
    bspram_growth g[QUANTITIES];
    memset(g, 0, sizeof g);
    double n[MAX_SIZES], y[QUANTITIES][MAX_SIZES];
    for (int i = 0; i < k; i++) {
        n[i] = (double)sizes[i];
        for (int q = 0; q < QUANTITIES; q++)
            y[q][i] = (double)value_of(&runs[i], q);
    }
    for (int q = 0; q < QUANTITIES && all_ran; q++) {
        if (bound[q] < 0)
            continue;
        g[q] = bspram_growth_judge((bspram_bound)bound[q], n, y[q], (size_t)k);
        if (!g[q].met) {
            char grew[64];
            if (isfinite(g[q].growth))
                snprintf(grew, sizeof grew, "grew %.3fx", g[q].growth);
            else
                snprintf(grew, sizeof grew, "grew from 0");
            add_failure(&f, "FAIL %s n=%.0f..%.0f: %s (from %.0f to %.0f), more than %s allows: %.3fx + %.0f %% = "
                        "%.3fx", quantity_name[q], g[q].from, g[q].to, grew, g[q].y_from, g[q].y_to,
                        bspram_bound_name((bspram_bound)bound[q]), g[q].bound_growth,
                        100 * BSPRAM_GROWTH_TOLERANCE, g[q].allowed);
        }
    }

    if (format == BSPRAM_FORMAT_CSV)
        csv_out(runs, k);
    else if (format == BSPRAM_FORMAT_JSON)
        json_out(program, nargs, model, runs, k, bound, g, all_ran, &f);
    else
        text_out(program, nargs, model, runs, k, bound, g, all_ran);

    int status = BSPRAM_TOOL_OK;
    if (o.plot) {
        bspram_plot_panel panels[QUANTITIES];
        for (int q = 0; q < QUANTITIES; q++)
            panels[q] = (bspram_plot_panel){quantity_name[q], n, y[q], (size_t)k, all_ran && bound[q] >= 0,
                                            bound[q] >= 0 ? (bspram_bound)bound[q] : BSPRAM_BOUND_1, g[q]};
        char title[600];
        int len = snprintf(title, sizeof title, "bspram pram check --model %s:", model_text(model));
        for (int i = 0; i < nargs && len > 0 && (size_t)len < sizeof title; i++)
            len += snprintf(title + len, sizeof title - (size_t)len, " %s", program[i]);
        if (len > 0 && (size_t)len < sizeof title)
            snprintf(title + len, sizeof title - (size_t)len, " N");
        if (bspram_check_plot(o.plot, title, panels, QUANTITIES) != 0)
            status = error("--plot %s: cannot write: %s", o.plot, strerror(errno));
    }
    fflush(stdout);
    for (size_t i = 0; i < f.n; i++) {
        fprintf(stderr, "%s\n", f.line[i]);
        free(f.line[i]);
    }
    free(f.line);
    if (format == BSPRAM_FORMAT_TEXT) {
        if (f.n)
            printf("\nfailed: %zu failure%s (on stderr, one a line)\n", f.n, f.n == 1 ? "" : "s");
        else
            printf("\npassed: every run exited 0, needed at most %s, had no violation%s\n", model_text(model),
                   any_bound ? ", and kept its bounds" : "");
        if (o.html)
            printf("pages: %s/n<N>.html\n", o.html);
    }
    free(runs);
    return f.n ? BSPRAM_TOOL_FAILED : status;
}
