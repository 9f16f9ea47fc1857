/* The one command-line grammar of every bspram subcommand. A command
 * declares its options in a table (bspram_option, below) and hands argv to
 * bspram_options_parse, which reads `--name value`, `--name=value`, `-x
 * value` for an option with a short letter, flags, `--` (the end of the
 * options) and the command's operand; takes an unambiguous beginning of a
 * long name for the name (`--alg` for `--algorithm`, as GNU getopt_long
 * does), the whole name winning over a longer one it begins; takes '-' and
 * '_' as one character in option names and in the names of values (CHOICE
 * words and the `names` of TEXT options, respelt as the table spells
 * them); refuses an ambiguous beginning, naming the options it begins, a
 * word naming no file where a file to read goes, an unknown option, a missing
 * value, a value given to a flag, an option given twice (but where the
 * table lets it repeat), a bad value and a stray word, each in one line
 * naming the command and the word; and answers -h and --help with the help
 * it makes from the same table. The table also feeds `bspram --complete`
 * (tools/complete.c), so that the help and the completion say what the
 * parser takes. docs/cli.md describes the grammar for the user. */
#ifndef BSPRAM_TOOLS_OPTIONS_H
#define BSPRAM_TOOLS_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum bspram_option_kind {
    BSPRAM_OPT_FLAG,   /* no value: sets an int to 1 */
    BSPRAM_OPT_TEXT,   /* any text (the command checks it): a const char * */
    BSPRAM_OPT_FILE,   /* a file name, non-empty and on one line: a const char * */
    BSPRAM_OPT_WHOLE,  /* a whole number in [min, max] (base/number.h): a uint64_t */
    BSPRAM_OPT_REAL,   /* a finite number >= 0 (base/number.h): a double */
    BSPRAM_OPT_CHOICE, /* one of the words of `choices`: a const char * */
    BSPRAM_OPT_EACH    /* may repeat: every value goes to take(), in order */
} bspram_option_kind;

typedef struct bspram_option {
    const char *name;         /* the long name, without "--"; NULL ends a table */
    char letter;              /* the short name (-o), or 0 */
    bspram_option_kind kind;
    size_t offset;            /* where the value goes in the command's settings */
    const char *value;        /* the value's name in the help ("N", "FILE"); NULL for a flag */
    const char *help;         /* its lines in the help, '\n' between them */
    uint64_t min, max;        /* WHOLE: the range */
    const char *choices;      /* CHOICE: the words, '|' between them ("text|csv|json") */
    /* TEXT and EACH values from a set kept elsewhere (the library's
     * algorithms, the PRAM examples): the i-th, NULL past the last. The
     * command checks the value; the completion offers these. */
    const char *(*names)(size_t i);
    /* EACH: take one value; 0, or BSPRAM_TOOL_USAGE after its line. */
    int (*take)(void *settings, const char *value);
} bspram_option;

/* A subcommand: its name and summary for `bspram help`, what it runs, and
 * what its help says around the options' list. */
typedef struct bspram_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the name; returns the exit status */
    const char *usage;                 /* after "usage: bspram NAME ", lines '\n' apart */
    const char *about;                 /* the paragraph under the usage */
    const bspram_option *options;      /* ends with {NULL} */
    const char *operand;               /* the one word it takes besides options ("TRACE"), or NULL */
    int operand_reads;                 /* the operand is a file to read: one naming no file is a usage error */
    void (*more_help)(FILE *f);        /* printed after the options (pram's examples), or NULL */
    /* Commands run as `bspram NAME SUB ...` (pram check), each with its own
     * table and help; NULL-terminated, or NULL. The completion follows them. */
    const struct bspram_command *const *subcommands;
} bspram_command;

/* What bspram_options_parse returns besides an exit status: --help was
 * answered, the command has nothing more to do (and exits 0). */
#define BSPRAM_OPTIONS_HELP (-1)

/* Read argv[1..argc) by c->options into settings (whose fields hold their
 * defaults; fields of options not given are left alone) and, when the
 * command takes one, the operand into *operand (left alone when none is
 * given; the command decides whether it is required). Returns 0,
 * BSPRAM_OPTIONS_HELP after printing the help on stdout, or
 * BSPRAM_TOOL_USAGE after one line on stderr. */
int bspram_options_parse(const bspram_command *c, int argc, char **argv, void *settings,
                         const char **operand);

/* The help of c, as -h, --help and `bspram help NAME` print it. */
void bspram_options_help(const bspram_command *c, FILE *f);

/* The option of c named by an argument ("--format", "--format=csv", "-o"),
 * or NULL. */
const bspram_option *bspram_options_find(const bspram_command *c, const char *arg);

#endif
