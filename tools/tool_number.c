/* bspram_tool_error and bspram_tool_number (commands.h): every subcommand's
 * error line and numeric options. */
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
