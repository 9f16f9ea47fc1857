/* The command line of `bspram table`, read into what the run needs, apart
 * from the run itself: the command (cmd_table.c) and the parser's fuzz
 * harness (fuzz/fuzz_table_options.c) call the same function. */
#ifndef BSPRAM_TOOLS_TABLE_ARGS_H
#define BSPRAM_TOOLS_TABLE_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "combine/experiment.h"

#define BSPRAM_TABLE_MAX_ITEMS 256 /* --basis options; degrees in --degrees */

/* Valiant's values for one row of a --paper table (0: none). */
typedef struct bspram_table_row {
    double paper;          /* 0 = none */
    double paper_phase[4]; /* Table 2 only */
} bspram_table_row;

typedef struct bspram_table_args {
    uint64_t p, v, runs, seed, paper; /* paper: 0, or Valiant's table 1..3 */
    int threads;
    bspram_spread spread;
    bspram_hash_kind hash;
    const char *format;    /* "text", "csv", "md" or "json" */
    const char *plot_path; /* NULL: no plot */
    bspram_table_entry *E; /* n rows, bases × degrees, basis and degree set */
    bspram_table_row *R;   /* n rows */
    size_t n;
} bspram_table_args;

/* Read `bspram table`'s options (argv[0] is the subcommand's name). Returns
 * 0 with *out filled (free it with bspram_table_args_free); 1 after one
 * error line on stderr; 2 after printing the usage on stdout (--help). Runs
 * nothing and never exits; *out is set only on 0. */
int bspram_table_parse(int argc, char **argv, bspram_table_args *out);
void bspram_table_args_free(bspram_table_args *a);

/* One line "bspram table: <message>" on stderr; returns 1. */
int bspram_table_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
