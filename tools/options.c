/* The command-line grammar of every subcommand (options.h): one parser, one
 * help, made from each command's table of options. */
#include "tools/options.h"

#include <float.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "base/number.h"
#include "tools/commands.h"

/* What the help and the messages call o's value: "N", "FILE", or the
 * choices themselves ("text|csv|json"). */
static const char *value_name(const bspram_option *o)
{
    return o->kind == BSPRAM_OPT_CHOICE ? o->choices : o->value ? o->value : "VALUE";
}

/* The long spelling of o, "--name", for messages. */
static const char *dashed(const bspram_option *o, char *buf, size_t len)
{
    snprintf(buf, len, "--%s", o->name);
    return buf;
}

const bspram_option *bspram_options_find(const bspram_command *c, const char *arg)
{
    if (arg[0] != '-')
        return NULL;
    if (arg[1] != '-') { /* -x: exactly one letter */
        if (!arg[1] || arg[2])
            return NULL;
        for (const bspram_option *o = c->options; o->name; o++)
            if (o->letter && o->letter == arg[1])
                return o;
        return NULL;
    }
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    for (const bspram_option *o = c->options; o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, name, len))
            return o;
    return NULL;
}

/* Is word one of the '|'-separated words of list? */
static bool in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *w = list;; w++) {
        const char *bar = strchr(w, '|');
        size_t len = bar ? (size_t)(bar - w) : strlen(w);
        if (len == n && !strncmp(w, word, n))
            return true;
        if (!bar)
            return false;
        w = bar;
    }
}

/* Check one value and store it where o says; 0, or BSPRAM_TOOL_USAGE after
 * one line. The messages quote the value (escaped by bspram_tool_error). */
static int store(const bspram_command *c, const bspram_option *o, const char *v, void *settings)
{
    char *at = (char *)settings + o->offset, opt[64];
    dashed(o, opt, sizeof opt);
    switch (o->kind) {
    case BSPRAM_OPT_FLAG:
        *(int *)at = 1;
        return 0;
    case BSPRAM_OPT_WHOLE:
        if (bspram__base_parse_u64(v, o->min, o->max, (uint64_t *)at))
            return bspram_tool_usage(c->name, "%s '%s': not a whole number in [%" PRIu64 ", %" PRIu64 "]",
                                     opt, v, o->min, o->max);
        return 0;
    case BSPRAM_OPT_REAL:
        if (bspram__base_parse_double(v, 0, DBL_MAX, (double *)at))
            return bspram_tool_usage(c->name, "%s '%s': not a finite number >= 0", opt, v);
        return 0;
    case BSPRAM_OPT_CHOICE:
        if (!in_list(o->choices, v)) {
            char valid[256];
            size_t i = 0;
            for (const char *s = o->choices; *s && i + 3 < sizeof valid; s++) {
                if (*s == '|') {
                    valid[i++] = ',';
                    valid[i++] = ' ';
                } else {
                    valid[i++] = *s;
                }
            }
            valid[i] = 0;
            return bspram_tool_usage(c->name, "%s '%s': unknown; valid: %s", opt, v, valid);
        }
        *(const char **)at = v;
        return 0;
    case BSPRAM_OPT_FILE:
        if (!*v || strpbrk(v, "\n\r"))
            return bspram_tool_usage(c->name, "%s '%s': a file name must be non-empty and on one line",
                                     opt, v);
        *(const char **)at = v;
        return 0;
    case BSPRAM_OPT_EACH:
        return o->take(settings, v);
    case BSPRAM_OPT_TEXT:
        break;
    }
    *(const char **)at = v;
    return 0;
}

int bspram_options_parse(const bspram_command *c, int argc, char **argv, void *settings,
                         const char **operand)
{
    /* Which options were given: once each, but EACH options (a table
     * holds fewer than 64). */
    bool seen[64] = {false};
    const char *first = NULL; /* the operand, once given */
    bool options_end = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_end || a[0] != '-' || !a[1]) { /* a word: the operand, or a stray word */
            if (!c->operand)
                return bspram_tool_usage(c->name, "unexpected argument '%s' (each value follows its "
                                         "option; bspram %s --help lists them)", a, c->name);
            if (first)
                return bspram_tool_usage(c->name, "one %s at a time ('%s' after '%s')", c->operand, a,
                                         first);
            first = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            options_end = true;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            bspram_options_help(c, stdout);
            return BSPRAM_OPTIONS_HELP;
        }
        const bspram_option *o = bspram_options_find(c, a);
        if (!o)
            return bspram_tool_usage(c->name, "unknown option '%s' (bspram %s --help lists them)", a,
                                     c->name);
        char opt[64];
        dashed(o, opt, sizeof opt);
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL, *v = NULL;
        if (o->kind == BSPRAM_OPT_FLAG) {
            if (eq)
                return bspram_tool_usage(c->name, "%s takes no value ('%s')", opt, a);
        } else if (eq) {
            v = eq + 1;
        } else if (i + 1 < argc) {
            v = argv[++i]; /* taken whole, even when it begins with '-' (--seed -1 is a bad seed) */
        } else {
            return bspram_tool_usage(c->name, "%s needs a value (%s %s)", opt, opt, value_name(o));
        }
        size_t k = (size_t)(o - c->options);
        if (k < sizeof seen / sizeof seen[0] && seen[k] && o->kind != BSPRAM_OPT_EACH)
            return bspram_tool_usage(c->name, "%s is given twice; give it once", opt);
        if (k < sizeof seen / sizeof seen[0])
            seen[k] = true;
        int rc = store(c, o, v, settings);
        if (rc)
            return rc;
    }
    if (first && operand)
        *operand = first;
    return 0;
}

/* The help's left column for o: "-o, --output FILE" or "    --p P". */
static void left_column(const bspram_option *o, char *buf, size_t len)
{
    const char *value = o->kind == BSPRAM_OPT_FLAG ? NULL : value_name(o);
    if (o->letter)
        snprintf(buf, len, "-%c, --%s%s%s", o->letter, o->name, value ? " " : "", value ? value : "");
    else
        snprintf(buf, len, "    --%s%s%s", o->name, value ? " " : "", value ? value : "");
}

void bspram_options_help(const bspram_command *c, FILE *f)
{
    fprintf(f, "usage: bspram %s ", c->name);
    for (const char *s = c->usage; *s; s++) {
        fputc(*s, f);
        if (*s == '\n') /* the next usage line, under the first */
            fprintf(f, "       bspram %s ", c->name);
    }
    fprintf(f, "\n%s\n\noptions:\n", c->about);
    enum { COLUMN = 26 }; /* where the help begins; a longer left column puts it on the next line */
    static const bspram_option help = {.name = "help", .letter = 'h', .kind = BSPRAM_OPT_FLAG,
                                       .help = "print this help and exit"};
    for (const bspram_option *o = c->options;; o++) {
        const bspram_option *shown = o->name ? o : &help;
        char left[160];
        left_column(shown, left, sizeof left);
        int at = fprintf(f, "  %s", left);
        if (at >= COLUMN - 1) {
            fputc('\n', f);
            at = 0;
        }
        fprintf(f, "%*s", COLUMN - at, "");
        for (const char *s = shown->help; *s; s++) {
            fputc(*s, f);
            if (*s == '\n')
                fprintf(f, "%*s", COLUMN, "");
        }
        fputc('\n', f);
        if (!o->name)
            break;
    }
    if (c->more_help)
        c->more_help(f);
    fprintf(f, "exit status: 0 done, 1 failed, 2 a usage error, 3 a wrong result (man bspram)\n");
}
