/* bspram pram: run one of the PRAM examples (examples/pram_*.c) on the PRAM
 * layer, check it against its sequential reference, and print its costs.
 * The algorithms are the examples' own code (bspram_pram_examples). */
#include <inttypes.h>
#include <omp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "examples/pram/example.h"
#include "tools/commands.h"
#include "tools/format.h"
#include "tools/html.h"

#define error(...) bspram_tool_error("pram", __VA_ARGS__)
#define usage_error(...) bspram_tool_usage("pram", __VA_ARGS__)

/* After the options in the help: the examples, their n and models. */
static void examples_help(FILE *f)
{
    fprintf(f, "examples (NAME: n counts; models, the first the default):\n");
    for (size_t i = 0; i < pram_example_count; i++) {
        const pram_example *ex = pram_examples[i];
        char models[160];
        pram_example_models_text(ex, models, sizeof models);
        fprintf(f, "  %-15s %s\n  %-15s n: %s, in [%" PRIu64 ", %" PRIu64 "]; models: %s\n", ex->name,
                ex->title, "", ex->n_means, ex->min_n, ex->max_n, models);
    }
}

static const char *example_name(size_t i) { return i < pram_example_count ? pram_examples[i]->name : NULL; }

/* The settings the command line sets (options below), with their defaults. */
typedef struct pram_settings {
    const char *example, *model, *basis, *format, *output, *html;
    uint64_t n, p, threads, seed;
} pram_settings;

static const bspram_option options[] = {
    {.name = "example", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(pram_settings, example),
     .value = "NAME", .help = "the example to run (below)", .names = example_name},
    {.name = "n", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(pram_settings, n), .value = "N",
     .help = "the example's size (below)", .min = 1, .max = BSPRAM_PRAM_MAX_VPS},
    {.name = "model", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(pram_settings, model),
     .value = "M",
     .help = "one of the example's models (default: the weakest it needs);\n"
     "CRCW-combining may carry the write rule's operation, e.g.\ncrcw-combining:max:u64"},
    {.name = "p", .letter = 'p', .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(pram_settings, p),
     .value = "P", .help = "components, in [1, min(VPs, 2^31)] (default min(VPs, 4096))", .min = 1,
     .max = UINT64_C(1) << 31},
    {.name = "threads", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(pram_settings, threads),
     .value = "T", .help = "worker threads, in [1, 1024] (default OpenMP's)", .min = 1, .max = 1024},
    {.name = "seed", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(pram_settings, seed),
     .value = "S", .help = "the input and the hashing (default 1)", .min = 0, .max = UINT64_MAX},
    {.name = "basis", .kind = BSPRAM_OPT_TEXT, .offset = offsetof(pram_settings, basis),
     .value = "B",
     .help = "the combining engine's basis: auto (default: the example's own\n"
     "setting, the one that cost it least), auto:D (hint D), adaptive, or a\nfixed basis such as "
     "32x16x8 whose product is p"},
    BSPRAM_FORMAT_OPTION(pram_settings, format),
    {.name = "output", .letter = 'o', .kind = BSPRAM_OPT_FILE,
     .offset = offsetof(pram_settings, output), .value = "FILE",
     .help = "write the per-step trace there (.json: JSON, else CSV)"},
    {.name = "html", .kind = BSPRAM_OPT_FILE, .offset = offsetof(pram_settings, html),
     .value = "FILE", .help = "write the run step by step as one self-contained page (.html)"},
    {.name = NULL}};

static int run_pram(int argc, char **argv);

static const bspram_command *const pram_subcommands[] = {&bspram_cmd_pram_check, NULL};

const bspram_command bspram_cmd_pram = {
    .name = "pram",
    .summary = "run a PRAM example, checked, with its costs; or check a program against an exercise (pram check)",
    .run = run_pram, .usage = "--example NAME --n N [options]\n"
    "check --model M [options] -- PROGRAM [ARGS...]   (bspram pram check --help)",
    .about = "Runs a PRAM example on the PRAM layer (pram/pram.h: n virtual processors on p\n"
    "components of the BSP machine, memory hashed, concurrent accesses combined),\n"
    "checks it against a sequential computation of the same result, and prints\n"
    "its PRAM time (steps), work (reads and writes), emulation cost (charge: the sum\n"
    "of max(q, r) over its supersteps) and slowdown (charge / (steps * ceil(VPs/p))).\n"
    "CSV columns (JSON: an object of the same fields, the result in words and the\n"
    "report):\n"
    "  example,model,n,p,steps,work,charge,slowdown,verified,vps,supersteps,\n"
    "  violations,seconds,weakest_model,weakest_step,overhead,work_efficiency\n"
    "weakest_model: the weakest of EREW < CREW < CRCW-common < CRCW-arbitrary <\n"
    "CRCW-combining the run needed, whatever --model; weakest_step: the first step\n"
    "that needed it (0: none needed more than EREW). overhead: charge / the ideal\n"
    "one-phase cost of the same requests (1 = ideal); work_efficiency: work / the\n"
    "sequential reference's reads and writes (docs/pram.md).\n"
    "Same seed: the same output for any --threads (but the seconds). Exit status 3\n"
    "if the result differs from the reference.\n"
    "bspram pram check runs a program of your own over a sweep of sizes and judges\n"
    "its model and its bounds on steps, work and charge (docs/course.md).",
    .options = options, .operand = NULL, .more_help = examples_help, .subcommands = pram_subcommands};

static int run_pram(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "check")) /* bspram pram check ... */
        return bspram_cmd_pram_check.run(argc - 1, argv + 1);
    pram_settings o = {.format = "text", .seed = 1};
    int rc = bspram_options_parse(&bspram_cmd_pram, argc, argv, &o, NULL);
    if (rc)
        return rc == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : rc;
    const char *example = o.example, *model_text = o.model, *basis_text = o.basis;
    pram_example_params prm;
    memset(&prm, 0, sizeof prm);
    prm.seed = o.seed;
    prm.n = o.n; /* 0: not given (the example's own range is checked once it is known) */
    prm.p = o.p;
    prm.threads = (int)o.threads;
    prm.trace_path = o.output;
    prm.html_path = o.html;
    const bool have_n = o.n != 0;
    if (!example)
        return usage_error("--example NAME is required; see bspram pram --help for the examples");
    const pram_example *ex = pram_example_find(example);
    if (!ex) {
        char names[512];
        size_t o = 0;
        names[0] = 0;
        for (size_t i = 0; i < pram_example_count && o < sizeof names; i++)
            o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "", pram_examples[i]->name);
        return usage_error("--example '%s': no such example; valid: %s", example, names);
    }
    if (!have_n)
        return usage_error("--n N is required (%s, in [%" PRIu64 ", %" PRIu64 "])", ex->n_means, ex->min_n, ex->max_n);
    if (prm.n < ex->min_n || prm.n > ex->max_n)
        return usage_error("--n '%" PRIu64 "': example %s takes n in [%" PRIu64 ", %" PRIu64 "] (%s)", prm.n, ex->name,
                     ex->min_n, ex->max_n, ex->n_means);
    prm.model = ex->model;
    if (model_text) {
        int m = bspram_pram_model_parse(model_text, &prm.op);
        if (m < 0)
            return usage_error("--model '%s': unknown model; valid: EREW, CREW, CRCW-common, CRCW-arbitrary, "
                         "CRCW-priority, CRCW-combining[:op]", model_text);
        prm.model = (bspram_pram_model)m;
        prm.has_op = strchr(model_text, ':') != NULL;
        if (!(ex->models & PRAM_MODEL_BIT(prm.model))) {
            char models[160];
            pram_example_models_text(ex, models, sizeof models);
            return usage_error("--model '%s': example %s does not run on %s; its models: %s", model_text, ex->name,
                         bspram_pram_model_name(prm.model), models);
        }
    }
    const bspram_format format = bspram_format_of(o.format);

    /* The PRAM's p: as asked, at most its VPs (a component without a VP
     * would idle; --p above them was once cut down without a word); by
     * default min(VPs, 4096). */
    uint64_t vps = pram_example_vps(ex, prm.n);
    if (prm.p > vps)
        return usage_error("--p '%" PRIu64 "': example %s with n = %" PRIu64 " has %" PRIu64
                     " VPs; p must be in [1, %" PRIu64 "] (at most one component per VP)",
                     prm.p, ex->name, prm.n, vps, vps);
    uint64_t p = prm.p ? prm.p : 4096;
    if (p > vps)
        p = vps;
    if (basis_text) {
        prm.has_combine = true;
        prm.combine = bspram_combine_defaults(1);
        prm.combine.strategy = BSPRAM_STRATEGY_AUTO;
        prm.combine.basis.m = 0;
        if (!strcmp(basis_text, "auto")) {
            prm.has_combine = false; /* the example's own hint */
        } else if (!strcmp(basis_text, "adaptive")) {
            prm.combine.strategy = BSPRAM_STRATEGY_ADAPTIVE;
        } else if (!strncmp(basis_text, "auto:", 5)) {
            if (bspram__base_parse_u64(basis_text + 5, 0, UINT32_MAX, &prm.combine.degree_hint))
                return usage_error("--basis '%s': the degree hint D of auto:D is not a whole number in [0, %u]",
                             basis_text, UINT32_MAX);
        } else {
            char err[200];
            prm.combine.strategy = BSPRAM_STRATEGY_FIXED;
            if (bspram_basis_parse(&prm.combine.basis, p, basis_text, err, sizeof err))
                return usage_error("--basis '%s': %s (p = %" PRIu64 " for %" PRIu64 " VPs)", basis_text, err, p, vps);
        }
    }

    char clash[2 * 4096 + 128];
    if (o.output && o.html &&
        bspram_tool_outputs_clash("--output", o.output, "--html", o.html, clash, sizeof clash))
        return usage_error("%s", clash);
    if (o.html && (rc = bspram_tool_html_check("pram", "--html", o.html, o.output)) != 0)
        return rc;
    pram_example_result res;
    memset(&res, 0, sizeof res);
    double t0 = pram_example_clock();
    ex->run(&prm, &res);
    double seconds = pram_example_clock() - t0;
    if (res.trace_errno) {
        free(res.report);
        return error("--output '%s': cannot write the trace: %s", prm.trace_path, strerror(res.trace_errno));
    }
    if (res.html_errno) {
        free(res.report);
        return error("--html %s: cannot write: %s", prm.html_path, strerror(res.html_errno));
    }

    char model[64];
    snprintf(model, sizeof model, "%s%s%s", bspram_pram_model_name(prm.model), prm.has_op ? ":" : "",
             prm.has_op ? bspram_op_name(prm.op) : "");
    const bspram_pram_stats *s = &res.stats;
    const char *weakest = bspram_pram_model_name(s->weakest);
    char efficiency[32] = ""; /* work-efficiency: PRAM work / sequential work, where the example knows it */
    if (res.seq_work)
        snprintf(efficiency, sizeof efficiency, "%.4f", (double)s->work / (double)res.seq_work);
    if (format == BSPRAM_FORMAT_CSV) {
        printf("example,model,n,p,steps,work,charge,slowdown,verified,vps,supersteps,violations,seconds,"
               "weakest_model,weakest_step,overhead,work_efficiency\n");
        printf("%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.4f,%d,%" PRIu64 ",%" PRIu64
               ",%" PRIu64 ",%.3f,%s,%" PRIu64 ",%.4f,%s\n",
               ex->name, model, prm.n, res.p, s->steps, s->work, s->charge, s->slowdown, res.verified ? 1 : 0,
               res.vps, s->supersteps, s->violations, seconds, weakest, s->weakest_step, s->overhead, efficiency);
    } else if (format == BSPRAM_FORMAT_JSON) {
        printf("{\"example\": \"%s\", \"model\": \"%s\", \"n\": %" PRIu64 ", \"p\": %" PRIu64 ", \"steps\": %" PRIu64
               ", \"work\": %" PRIu64 ", \"charge\": %" PRIu64 ", \"slowdown\": %.4f, \"verified\": %s, \"vps\": %" PRIu64
               ", \"supersteps\": %" PRIu64 ", \"violations\": %" PRIu64 ", \"seconds\": %.3f, \"weakest_model\": "
               "\"%s\", \"weakest_step\": %" PRIu64 ", \"overhead\": %.4f, \"work_efficiency\": %s, "
               "\"detail\": ",
               ex->name, model, prm.n, res.p, s->steps, s->work, s->charge, s->slowdown,
               res.verified ? "true" : "false", res.vps, s->supersteps, s->violations, seconds, weakest,
               s->weakest_step, s->overhead, res.seq_work ? efficiency : "null");
        bspram_json_string(res.detail);
        if (res.report) {
            printf(", \"report\": ");
            bspram_json_string(res.report);
        }
        printf("}\n");
    } else {
        if (res.report)
            fputs(res.report, stdout);
        printf("example     %s: %s\n", ex->name, ex->title);
        printf("model       %s\n", model);
        printf("n           %" PRIu64 " (%s): %" PRIu64 " VPs on p = %" PRIu64 " components\n", prm.n,
               ex->n_means, res.vps, res.p);
        printf("steps       %" PRIu64 "   (supersteps %" PRIu64 ")\n", s->steps, s->supersteps);
        printf("work        %" PRIu64 "\n", s->work);
        printf("charge      %" PRIu64 "\n", s->charge);
        printf("slowdown    %.4f\n", s->slowdown);
        printf("overhead    %.4f   (charge / the ideal one-phase cost %" PRIu64 " of the same requests)\n",
               s->overhead, s->ideal);
        if (res.seq_work)
            printf("efficiency  %s   (work / the sequential reference's %" PRIu64 " reads and writes)\n",
                   efficiency, res.seq_work);
        printf("violations  %" PRIu64 "\n", s->violations);
        if (s->weakest_step)
            printf("weakest     %s (first needed in step %" PRIu64 ")\n", weakest, s->weakest_step);
        else
            printf("weakest     EREW\n");
        printf("verified    %s: %s\n", res.verified ? "yes" : "NO", res.detail);
        printf("seconds     %.3f   (PRAM steps %.3f, sequential %.3f)\n", seconds, res.pram_seconds,
               res.seq_seconds);
    }
    free(res.report);
    return res.verified ? BSPRAM_TOOL_OK : BSPRAM_TOOL_WRONG;
}
