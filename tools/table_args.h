/* The command line of `bspram table`, read into what the run needs, apart
 * from the run itself: the command (cmd_table.c) and the parser's fuzz
 * harness (fuzz/fuzz_table_options.c) call the same function. */
#ifndef BSPRAM_TOOLS_TABLE_ARGS_H
#define BSPRAM_TOOLS_TABLE_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "combine/experiment.h"

#define BSPRAM_TABLE_MAX_ITEMS 256 /* --basis options; degrees in --degrees */
/* --runs: at most 10^6 (2000 times the paper's 500; 2^63 once ran for ever). */
#define BSPRAM_TABLE_MAX_RUNS 1000000u

/* Which table a row belongs to, and Valiant's values for it (0: none). */
typedef struct bspram_table_row {
    unsigned table;        /* 0: the table of --p, --v, --degrees, --basis; 1..3: Valiant's Table N */
    double paper;          /* 0 = none */
    double paper_phase[4]; /* Table 2 only */
} bspram_table_row;

typedef struct bspram_table_args {
    uint64_t p, v, runs, seed;
    unsigned paper[3];     /* Valiant's tables to run, in the order given */
    size_t papers;         /* how many (0: the options' own table) */
    int threads;
    bspram_spread spread;
    bspram_hash_kind hash;
    bspram_schedule schedule;
    bspram_router_model router;
    const char *format;    /* "text", "csv", "md" or "json" */
    const char *plot_path; /* --output: NULL, no plot */
    bspram_table_entry *E; /* n rows, bases × degrees, basis and degree set; each table's */
    bspram_table_row *R;   /* rows together, the tables in the order of paper[] */
    size_t n;
} bspram_table_args;

/* The name every output row carries in its `table` column: "paper:N" for
 * Valiant's Table N, "custom" for the table of the options. */
const char *bspram_table_name(unsigned table);

/* Read `bspram table`'s options (argv[0] is the subcommand's name; the
 * grammar of tools/options.h, the table of options in table_args.c).
 * Returns 0 with *out filled (free it with bspram_table_args_free);
 * BSPRAM_TOOL_USAGE after one error line on stderr (BSPRAM_TOOL_FAILED
 * when out of memory); BSPRAM_OPTIONS_HELP after printing the help on
 * stdout. Runs nothing and never exits; *out is set only on 0. */
int bspram_table_parse(int argc, char **argv, bspram_table_args *out);
void bspram_table_args_free(bspram_table_args *a);

/* What `bspram table` runs (cmd_table.c): parse, run, print. */
int bspram_table_command(int argc, char **argv);

/* One line "bspram table: <message>" on stderr; returns BSPRAM_TOOL_USAGE. */
int bspram_table_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
