/* The bspram command's subcommands, each a bspram_command (options.h) in
 * its own file, tools/cmd_*.c, and what they share: the exit statuses, the
 * error line, numbers. */
#ifndef BSPRAM_TOOLS_COMMANDS_H
#define BSPRAM_TOOLS_COMMANDS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/options.h"

/* The exit statuses, the same in every command (docs/cli.md, bspram(1)). */
enum {
    BSPRAM_TOOL_OK = 0,
    BSPRAM_TOOL_FAILED = 1, /* the run failed: a file that cannot be read or written, a fit refused */
    BSPRAM_TOOL_USAGE = 2,   /* an unknown option, a bad value, a stray word, a missing argument */
    BSPRAM_TOOL_WRONG = 3    /* a check the command runs on its own result failed */
};

extern const bspram_command bspram_cmd_demo, bspram_cmd_table, bspram_cmd_coll, bspram_cmd_sdp,
    bspram_cmd_models, bspram_cmd_pram, bspram_cmd_probe, bspram_cmd_prof;
/* `bspram pram check` (cmd_pram_check.c), a subcommand of pram. */
extern const bspram_command bspram_cmd_pram_check;

/* Every subcommand, in the order `bspram help` lists them (bspram.c). */
extern const bspram_command *const bspram_commands[];
extern const size_t bspram_command_count;

/* `bspram --complete WORD...` (complete.c): the completions of the last
 * word of a command line, one per line; exit status. */
int bspram_complete(int nwords, char **words);

/* A superstep's BSP time in seconds, w/r + g·h + l, from its record: g in ns
 * per byte of h, l in ns, r (rate) in units of w per ns; w is left out when
 * rate ≤ 0 (unknown). What `bspram prof` and `bspram demo` print. */
struct bspram_record;
double bspram_tool_bsp_seconds(const struct bspram_record *r, double g, double l, double rate);

/* One line on stderr, "bspram <command>: <message>". The message's control
 * characters (a newline in a value it quotes) are written as escapes, \n,
 * \t, \xHH (base/number.h), so that it stays one line. bspram_tool_error
 * returns BSPRAM_TOOL_FAILED, bspram_tool_usage BSPRAM_TOOL_USAGE: a
 * command returns what reports its error. */
int bspram_tool_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int bspram_tool_usage(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int bspram_tool_verror(const char *command, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Read a number strictly (base/number.h): a whole number in [min, max], or
 * one line on stderr, "bspram <command>: <option> '<text>': not a whole
 * number in [min, max]", and −1 (*out untouched). For numbers inside a
 * value (sdp's k-shuffle=K); options of their own are BSPRAM_OPT_WHOLE. */
int bspram_tool_number(const char *command, const char *option, const char *text, uint64_t min,
                       uint64_t max, uint64_t *out);

/* A comma-separated value (`--sizes 8,64`) with no empty item: not empty,
 * no comma first or last, no two together. 0, or BSPRAM_TOOL_USAGE after
 * one line, "bspram <command>: <option> '<list>': an empty item after
 * '<item>'" (a list past 64 bytes cut to 60 and "..."). The
 * caller then reads the items. */
int bspram_tool_list_check(const char *command, const char *option, const char *list);

/* Where an output file may go (tools/output_place.c), checked before the
 * work: a name non-empty and on one line; if it exists, a regular file
 * (not a directory, FIFO or device: "give a file name ending in
 * <endings>", or "give the name of a regular file" when endings is NULL,
 * a format without a customary ending) and not the file `input` (may be NULL) by any name. And,
 * apart (a caller checks the name's ending between the two), a directory
 * it can be written in. NULL, or the problem in buf, "<option> <path>: …". */
const char *bspram_tool_output_problem(const char *option, const char *path, const char *input,
                                       const char *endings, char *buf, size_t len);
const char *bspram_tool_output_dir_problem(const char *option, const char *path, char *buf,
                                           size_t len);

/* Two outputs of one command naming one file, existing or not (one would
 * overwrite the other): the same path once the directory part is resolved
 * (x.html, ./x.html, d/../x.html), or two names of one existing file. NULL,
 * or the problem in buf, "<option_a> and <option_b> name the same file …",
 * a usage error. Checked before the work. */
const char *bspram_tool_outputs_clash(const char *option_a, const char *a, const char *option_b,
                                      const char *b, char *buf, size_t len);

/* Allocation that ends the command with one line when memory runs out
 * (tools/tool_memory.c): calloc and realloc, and growing an array *ptr of
 * *cap elements of `elem` bytes to hold `need`, doubling from `initial`. */
void *bspram_tool_calloc(size_t n, size_t size, const char *what);
void *bspram_tool_realloc(void *ptr, size_t bytes, const char *what);
void *bspram_tool_grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t initial,
                       const char *what);

#endif
