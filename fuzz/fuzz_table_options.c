/* Fuzz the command line of `bspram table` (tools/table_args.h, read by the
 * grammar of tools/options.h) without running a table: bspram_table_parse
 * returns 2 (a usage error's line), 1 (out of memory), BSPRAM_OPTIONS_HELP
 * (--help) or 0 with rows that the run can take — p in [1, 2^31], v a positive multiple
 * of p, runs in [1, 10^6], every fixed basis a product of p spelled
 * canonically (no comma, space or quote in a CSV column), every degree one
 * the pattern allows, the rows of each --paper table together and each
 * table once — and no crash or leak.
 *
 * Input: the arguments, one per line (argv[0] is "table"; at most 64). */
#include "combine/experiment.h"
#include "hash/basis.h"
#include "tools/commands.h"
#include "tools/table_args.h"
#include "fuzz/fuzz.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = fuzz_string(data, size);
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "table";
    for (char *s = in; argc <= MAX_ARGS;) {
        argv[argc++] = s;
        char *nl = strchr(s, '\n');
        if (!nl)
            break;
        *nl = 0;
        s = nl + 1;
    }
    argv[argc] = NULL;

    bspram_table_args a;
    memset(&a, 0xAB, sizeof a);
    int rc = bspram_table_parse(argc, argv, &a);
    FUZZ_CHECK(rc == 0 || rc == BSPRAM_TOOL_FAILED || rc == BSPRAM_TOOL_USAGE || rc == BSPRAM_OPTIONS_HELP);
    if (rc == 0) {
        FUZZ_CHECK(a.p >= 1 && a.p <= (UINT64_C(1) << 31));
        FUZZ_CHECK(a.v >= 1 && a.v % a.p == 0);
        FUZZ_CHECK(a.runs >= 1 && a.runs <= BSPRAM_TABLE_MAX_RUNS && a.threads >= 1 && a.threads <= 1024);
        /* --paper: each of Valiant's tables at most once; the rows grouped
         * by table, in the order of paper[] (or all of the options' table). */
        FUZZ_CHECK(a.papers <= 3);
        for (size_t t = 0; t < a.papers; t++) {
            FUZZ_CHECK(a.paper[t] >= 1 && a.paper[t] <= 3);
            for (size_t u = 0; u < t; u++)
                FUZZ_CHECK(a.paper[u] != a.paper[t]);
        }
        FUZZ_CHECK(!a.plot_path || a.papers <= 1);
        for (size_t i = 0, t = 0; i < a.n; i++) {
            if (!a.papers) {
                FUZZ_CHECK(a.R[i].table == 0);
                continue;
            }
            if (a.R[i].table != a.paper[t])
                t++;
            FUZZ_CHECK(t < a.papers && a.R[i].table == a.paper[t]);
            FUZZ_CHECK(!strcmp(bspram_table_name(a.R[i].table), a.R[i].table == 1 ? "paper:1"
                                                               : a.R[i].table == 2 ? "paper:2" : "paper:3"));
        }
        FUZZ_CHECK(a.n >= 1 && a.E && a.R);
        FUZZ_CHECK(!a.plot_path || (*a.plot_path && !strpbrk(a.plot_path, "\n\r")));
        char err[200];
        for (size_t i = 0; i < a.n; i++) {
            const bspram_table_entry *e = &a.E[i];
            FUZZ_CHECK(memchr(e->basis_text, 0, sizeof e->basis_text));
            FUZZ_CHECK(!strpbrk(e->basis_text, ", \"'\n"));
            FUZZ_CHECK(bspram_pattern_check(a.p, a.v, e->degree, err, sizeof err) == 0);
            if (e->strategy == BSPRAM_STRATEGY_FIXED) {
                FUZZ_CHECK(e->basis.p == a.p && e->basis.suffix[0] == a.p);
                bspram_basis again;
                FUZZ_CHECK(bspram_basis_parse(&again, a.p, e->basis_text, err, sizeof err) == 0);
                FUZZ_CHECK(!memcmp(&again, &e->basis, sizeof again));
            } else if (e->strategy == BSPRAM_STRATEGY_AUTO &&
                       e->degree_hint != BSPRAM_TABLE_HINT_DEGREE) {
                FUZZ_CHECK(e->degree_hint <= a.p);
            }
        }
        bspram_table_args_free(&a);
    }
    free(in);
    return 0;
}
