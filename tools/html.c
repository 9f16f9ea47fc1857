/* Self-contained HTML pages (html.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/output.h"
#include "tools/commands.h"
#include "tools/html.h"

#define DATA_MARK "<!--BSPRAM-DATA-->"

int bspram_tool_html_check(const char *command, const char *option, const char *path,
                           const char *input)
{
    char why[4400];
    if (bspram_tool_output_problem(option, path, input, ".html", why, sizeof why))
        return bspram_tool_error(command, "%s", why);
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/') || strcasecmp(dot, ".html")) /* a bad value */
        return bspram_tool_usage(command, "%s %s: the name must end in .html", option, path);
    if (bspram_tool_output_dir_problem(option, path, why, sizeof why))
        return bspram_tool_error(command, "%s", why);
    return 0;
}

int bspram_tool_html_write(const char *command, const char *option, const char *path,
                           const char *page, void (*data)(FILE *f, void *arg), void *arg)
{
    const char *mark = strstr(page, DATA_MARK);
    bspram_output out; /* a new file renamed over path once whole (base/output.h) */
    if (bspram__base_output_open(&out, path) != 0)
        return bspram_tool_error(command, "%s %s: cannot write: %s", option, path, strerror(errno));
    FILE *f = out.f;
    fwrite(page, 1, (size_t)(mark - page), f);
    data(f, arg);
    fputs(mark + strlen(DATA_MARK), f);
    if (bspram__base_output_close(&out) != 0)
        return bspram_tool_error(command, "%s %s: cannot write: %s", option, path, strerror(errno));
    return 0;
}

void bspram_tool_js_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&')
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void bspram_tool_js_number(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.9g", x);
    else
        fputs("null", f);
}
