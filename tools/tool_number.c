/* bspram_tool_error, bspram_tool_usage and bspram_tool_number
 * (commands.h): every subcommand's error line, and numbers inside values. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/number.h"
#include "tools/commands.h"

int bspram_tool_number(const char *command, const char *option, const char *text, uint64_t min,
                       uint64_t max, uint64_t *out)
{
    if (bspram__base_parse_u64(text, min, max, out) == 0)
        return 0;
    bspram_tool_usage(command, "%s '%s': not a whole number in [%" PRIu64 ", %" PRIu64 "]", option, text,
                      min, max);
    return -1;
}

int bspram_tool_verror(const char *command, const char *fmt, va_list ap)
{
    /* Formatted whole, then written with its control characters escaped
     * (base/number.h): a value holding a newline stays on this one line.
     * The command's name too (the MPI build names one it does not run). */
    char name[64];
    bspram__base_escape_controls(name, sizeof name, command);
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    char small[512], *msg = n >= 0 && (size_t)n < sizeof small ? small : malloc(n > 0 ? (size_t)n + 1 : 1);
    size_t need = 0;
    char *line = NULL;
    if (msg && n >= 0) {
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        need = bspram__base_escape_controls(NULL, 0, msg);
        line = malloc(need + 1);
    }
    if (line) {
        bspram__base_escape_controls(line, need + 1, msg);
        fprintf(stderr, "bspram %s: %s\n", name, line);
    } else {
        fprintf(stderr, "bspram %s: (out of memory for an error message)\n", name);
    }
    free(line);
    if (msg != small)
        free(msg);
    return BSPRAM_TOOL_FAILED;
}

int bspram_tool_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = bspram_tool_verror(command, fmt, ap);
    va_end(ap);
    return rc;
}

int bspram_tool_usage(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bspram_tool_verror(command, fmt, ap);
    va_end(ap);
    return BSPRAM_TOOL_USAGE;
}
