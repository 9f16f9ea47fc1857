/* The bspram command's subcommands: run(argc, argv) with argv[0] the
 * subcommand's name; returns the exit status. */
#ifndef BSPRAM_TOOLS_COMMANDS_H
#define BSPRAM_TOOLS_COMMANDS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct bspram_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
};

int bspram_cmd_coll(int argc, char **argv);
int bspram_cmd_demo(int argc, char **argv);
int bspram_cmd_models(int argc, char **argv);
int bspram_cmd_pram(int argc, char **argv);
int bspram_cmd_probe(int argc, char **argv);
int bspram_cmd_prof(int argc, char **argv);
int bspram_cmd_sdp(int argc, char **argv);
int bspram_cmd_table(int argc, char **argv);

/* A superstep's BSP time in seconds, w/r + g·h + l, from its record: g in ns
 * per byte of h, l in ns, r (rate) in units of w per ns; w is left out when
 * rate ≤ 0 (unknown). What `bspram prof` and `bspram demo` print. */
struct bspram_record;
double bspram_tool_bsp_seconds(const struct bspram_record *r, double g, double l, double rate);

/* One line on stderr, "bspram <command>: <message>", and 1 (the exit
 * status of a bad option). The message's control characters (a newline in
 * a value it quotes) are written as escapes, \n, \t, \xHH (base/number.h),
 * so that it stays one line. */
int bspram_tool_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int bspram_tool_verror(const char *command, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Read the value of a numeric option strictly (base/number.h): a whole
 * number in [min, max], or one line on stderr,
 * "bspram <command>: <option> <text>: not a whole number in [min, max]",
 * and −1 (*out untouched). */
int bspram_tool_number(const char *command, const char *option, const char *text, uint64_t min,
                       uint64_t max, uint64_t *out);

/* For commands that parse with getopt_long (opterr = 0, the optstring
 * beginning with ':'): getopt's '?' (unknown option) or ':' (missing value)
 * for argv[optind − 1] as one line, "bspram <command>: unknown option
 * '--bogus'; see bspram <command> --help"; returns 2. */
int bspram_tool_bad_option(const char *command, int c, char **argv);

/* Allocation that ends the command with one line when memory runs out
 * (tools/tool_memory.c): calloc and realloc, and growing an array *ptr of
 * *cap elements of `elem` bytes to hold `need`, doubling from `initial`. */
void *bspram_tool_calloc(size_t n, size_t size, const char *what);
void *bspram_tool_realloc(void *ptr, size_t bytes, const char *what);
void *bspram_tool_grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t initial,
                       const char *what);

#endif
