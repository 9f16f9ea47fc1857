/* bspram_tool_error, bspram_tool_number and bspram_tool_bad_option
 * (commands.h): every subcommand's error line and numeric options. */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/number.h"
#include "tools/commands.h"

int bspram_tool_number(const char *command, const char *option, const char *text, uint64_t min,
                       uint64_t max, uint64_t *out)
{
    if (bspram_parse_u64(text, min, max, out) == 0)
        return 0;
    fprintf(stderr, "bspram %s: %s '%s': not a whole number in [%" PRIu64 ", %" PRIu64 "]\n", command,
            option, text, min, max);
    return -1;
}

int bspram_tool_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bspram %s: ", command);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

int bspram_tool_bad_option(const char *command, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    if (c == ':')
        bspram_tool_error(command, "%s needs a value; see bspram %s --help", arg, command);
    else if (optopt) /* a short option, perhaps inside a cluster such as -xv */
        bspram_tool_error(command, "unknown option '-%c'; see bspram %s --help", optopt, command);
    else
        bspram_tool_error(command, "unknown option '%s'; see bspram %s --help", arg, command);
    return 2;
}
