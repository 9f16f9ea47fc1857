/* bspram pram: run one of the PRAM examples (examples/pram_*.c) on the PRAM
 * layer, check it against its sequential reference, and print its costs.
 * The algorithms are the examples' own code (bspram_pram_examples). */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "examples/pram/example.h"
#include "tools/commands.h"

#define error(...) bspram_tool_error("pram", __VA_ARGS__)

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bspram pram --example NAME --n N [--model M] [--p P] [--threads T] [--seed S]\n"
            "                   [--basis B] [--format text|csv|json] [--trace FILE]\n"
            "Runs a PRAM example on the PRAM layer (pram/pram.h: n virtual processors on p\n"
            "components of the BSP machine, memory hashed, concurrent accesses combined),\n"
            "checks it against a sequential computation of the same result, and prints\n"
            "its PRAM time (steps), work (reads and writes), emulation cost (charge: the sum\n"
            "of max(q, r) over its supersteps) and slowdown (charge / (steps * ceil(VPs/p))).\n"
            "  --model M    one of the example's models (default: the weakest it needs);\n"
            "               CRCW-combining may carry the write rule's operation, e.g.\n"
            "               crcw-combining:max:u64\n"
            "  --p P        components, in [1, min(VPs, 2^31)] (default min(VPs, 4096))\n"
            "  --threads T  worker threads, in [1, 1024] (default OpenMP's)\n"
            "  --seed S     the input and the hashing (default 1)\n"
            "  --basis B    the combining engine's basis: auto (default, with the example's\n"
            "               degree hint), auto:D (hint D), adaptive, or a fixed basis such as\n"
            "               32x16x8 whose product is p\n"
            "  --format F   text (default), csv or json; CSV columns:\n"
            "               example,model,n,p,steps,work,charge,slowdown,verified,vps,supersteps,\n"
            "               violations,seconds\n"
            "  --trace FILE the per-step trace (.json: JSON, else CSV)\n"
            "Same seed: the same output for any --threads (but the seconds). Exit status: 0 if\n"
            "verified, 3 if the result differs from the reference, 1 on a bad option.\n"
            "Examples (NAME: n counts; models, the first the default):\n");
    for (size_t i = 0; i < pram_example_count; i++) {
        const pram_example *ex = pram_examples[i];
        char models[160];
        pram_example_models_text(ex, models, sizeof models);
        fprintf(f, "  %-15s %s\n  %-15s n: %s, in [%" PRIu64 ", %" PRIu64 "]; models: %s\n", ex->name,
                ex->title, "", ex->n_means, ex->min_n, ex->max_n, models);
    }
}

/* JSON string contents: quotes, backslashes and control characters escaped. */
static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c == '\n')
            printf("\\n");
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

int bspram_cmd_pram(int argc, char **argv)
{
    const char *example = NULL, *model_text = NULL, *format = "text", *basis_text = NULL;
    pram_example_params prm;
    memset(&prm, 0, sizeof prm);
    prm.seed = 1;
    bool have_n = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        static const char *const known[] = {"--example", "--n",    "--model",  "--p",     "--threads",
                                            "--seed",    "--basis", "--format", "--trace"};
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            ok |= !strcmp(a, known[k]);
        if (!ok)
            return error("unknown option '%s'; see bspram pram --help", a);
        if (i + 1 >= argc)
            return error("option %s needs a value; see bspram pram --help", a);
        const char *val = argv[++i];
        uint64_t x;
        if (!strcmp(a, "--example"))
            example = val;
        else if (!strcmp(a, "--model"))
            model_text = val;
        else if (!strcmp(a, "--format"))
            format = val;
        else if (!strcmp(a, "--basis"))
            basis_text = val;
        else if (!strcmp(a, "--trace")) {
            if (!*val)
                return error("--trace: the file name is empty");
            prm.trace_path = val;
        } else if (!strcmp(a, "--n")) {
            /* The example's own range is checked once it is known. */
            if (bspram_tool_number("pram", "--n", val, 1, BSPRAM_PRAM_MAX_VPS, &prm.n))
                return 1;
            have_n = true;
        } else if (!strcmp(a, "--p")) {
            if (bspram_tool_number("pram", "--p", val, 1, UINT64_C(1) << 31, &prm.p))
                return 1;
        } else if (!strcmp(a, "--threads")) {
            if (bspram_tool_number("pram", "--threads", val, 1, 1024, &x))
                return 1;
            prm.threads = (int)x;
        } else if (!strcmp(a, "--seed")) {
            if (bspram_tool_number("pram", "--seed", val, 0, UINT64_MAX, &prm.seed))
                return 1;
        }
    }
    if (!example)
        return error("--example NAME is required; see bspram pram --help for the examples");
    const pram_example *ex = pram_example_find(example);
    if (!ex) {
        char names[512];
        size_t o = 0;
        names[0] = 0;
        for (size_t i = 0; i < pram_example_count && o < sizeof names; i++)
            o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "", pram_examples[i]->name);
        return error("--example '%s': no such example; valid: %s", example, names);
    }
    if (!have_n)
        return error("--n N is required (%s, in [%" PRIu64 ", %" PRIu64 "])", ex->n_means, ex->min_n, ex->max_n);
    if (prm.n < ex->min_n || prm.n > ex->max_n)
        return error("--n '%" PRIu64 "': example %s takes n in [%" PRIu64 ", %" PRIu64 "] (%s)", prm.n, ex->name,
                     ex->min_n, ex->max_n, ex->n_means);
    prm.model = ex->model;
    if (model_text) {
        int m = bspram_pram_model_parse(model_text, &prm.op);
        if (m < 0)
            return error("--model '%s': unknown model; valid: EREW, CREW, CRCW-common, CRCW-arbitrary, "
                         "CRCW-priority, CRCW-combining[:op]", model_text);
        prm.model = (bspram_pram_model)m;
        prm.has_op = strchr(model_text, ':') != NULL;
        if (!(ex->models & PRAM_MODEL_BIT(prm.model))) {
            char models[160];
            pram_example_models_text(ex, models, sizeof models);
            return error("--model '%s': example %s does not run on %s; its models: %s", model_text, ex->name,
                         bspram_pram_model_name(prm.model), models);
        }
    }
    int csv = !strcmp(format, "csv"), json = !strcmp(format, "json");
    if (!csv && !json && strcmp(format, "text"))
        return error("--format '%s': unknown format; valid: text, csv, json", format);

    /* The PRAM's p: as asked, at most its VPs (a component without a VP
     * would idle; --p above them was once cut down without a word); by
     * default min(VPs, 4096). */
    uint64_t vps = pram_example_vps(ex, prm.n);
    if (prm.p > vps)
        return error("--p '%" PRIu64 "': example %s with n = %" PRIu64 " has %" PRIu64
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
                return error("--basis '%s': the degree hint D of auto:D is not a whole number in [0, %u]",
                             basis_text, UINT32_MAX);
        } else {
            char err[200];
            prm.combine.strategy = BSPRAM_STRATEGY_FIXED;
            if (bspram_basis_parse(&prm.combine.basis, p, basis_text, err, sizeof err))
                return error("--basis '%s': %s (p = %" PRIu64 " for %" PRIu64 " VPs)", basis_text, err, p, vps);
        }
    }

    pram_example_result res;
    memset(&res, 0, sizeof res);
    double t0 = pram_example_clock();
    ex->run(&prm, &res);
    double seconds = pram_example_clock() - t0;
    if (res.trace_errno) {
        free(res.report);
        return error("--trace '%s': cannot write the trace: %s", prm.trace_path, strerror(res.trace_errno));
    }

    char model[64];
    snprintf(model, sizeof model, "%s%s%s", bspram_pram_model_name(prm.model), prm.has_op ? ":" : "",
             prm.has_op ? bspram_op_name(prm.op) : "");
    const bspram_pram_stats *s = &res.stats;
    if (csv) {
        printf("example,model,n,p,steps,work,charge,slowdown,verified,vps,supersteps,violations,seconds\n");
        printf("%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.4f,%d,%" PRIu64 ",%" PRIu64
               ",%" PRIu64 ",%.3f\n",
               ex->name, model, prm.n, res.p, s->steps, s->work, s->charge, s->slowdown, res.verified ? 1 : 0,
               res.vps, s->supersteps, s->violations, seconds);
    } else if (json) {
        printf("{\"example\": \"%s\", \"model\": \"%s\", \"n\": %" PRIu64 ", \"p\": %" PRIu64 ", \"steps\": %" PRIu64
               ", \"work\": %" PRIu64 ", \"charge\": %" PRIu64 ", \"slowdown\": %.4f, \"verified\": %s, \"vps\": %" PRIu64
               ", \"supersteps\": %" PRIu64 ", \"violations\": %" PRIu64 ", \"seconds\": %.3f, \"detail\": ",
               ex->name, model, prm.n, res.p, s->steps, s->work, s->charge, s->slowdown,
               res.verified ? "true" : "false", res.vps, s->supersteps, s->violations, seconds);
        json_string(res.detail);
        if (res.report) {
            printf(", \"report\": ");
            json_string(res.report);
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
        printf("violations  %" PRIu64 "\n", s->violations);
        printf("verified    %s: %s\n", res.verified ? "yes" : "NO", res.detail);
        printf("seconds     %.3f   (PRAM steps %.3f, sequential %.3f)\n", seconds, res.pram_seconds,
               res.seq_seconds);
    }
    free(res.report);
    return res.verified ? 0 : 3;
}
