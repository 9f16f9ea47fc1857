/* The command-line grammar of every subcommand (options.h): one parser, one
 * help, made from each command's table of options. */
#include "tools/options.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

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

/* '-' and '_' are one character in every name the command line takes
 * (docs/cli.md): --k_star is --k-star, --example tree-sum is tree_sum. */
static int fold(int c) { return c == '_' ? '-' : c; }

/* The first n bytes of a and b the same, '-' and '_' alike. */
static bool same_prefix(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fold((unsigned char)a[i]) != fold((unsigned char)b[i]))
            return false;
    return true;
}

/* --help and -h, which every command takes, as an entry of its table for
 * the lookup and the help. */
static const bspram_option help_option = {.name = "help", .letter = 'h', .kind = BSPRAM_OPT_FLAG,
                                          .help = "print this help and exit"};

/* The i-th long option of c, then --help; NULL past it. */
static const bspram_option *nth(const bspram_command *c, size_t i)
{
    size_t n = 0;
    while (c->options[n].name)
        n++;
    return i < n ? &c->options[i] : i == n ? &help_option : NULL;
}

/* The option a long name (len bytes) names as GNU getopt_long reads it:
 * the one of that name, else the only one it begins, else NULL, with
 * *ambiguous set when it begins several. */
static const bspram_option *lookup(const bspram_command *c, const char *name, size_t len,
                                   bool *ambiguous)
{
    const bspram_option *found = NULL, *o;
    size_t begun = 0;
    *ambiguous = false;
    for (size_t i = 0; (o = nth(c, i)) != NULL; i++) {
        if (strlen(o->name) < len || !same_prefix(o->name, name, len))
            continue;
        if (strlen(o->name) == len)
            return o;
        found = o;
        begun++;
    }
    *ambiguous = begun > 1;
    return begun == 1 ? found : NULL;
}

const bspram_option *bspram_options_find(const bspram_command *c, const char *arg)
{
    if (arg[0] != '-')
        return NULL;
    if (arg[1] != '-') { /* -x: exactly one letter */
        if (!arg[1] || arg[2])
            return NULL;
        for (size_t i = 0; nth(c, i); i++)
            if (nth(c, i)->letter == arg[1])
                return nth(c, i);
        return NULL;
    }
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    bool ambiguous;
    return len ? lookup(c, name, len, &ambiguous) : NULL;
}

/* The options a long name (len bytes) begins, "--a, --b", in buf. */
static const char *candidates(const bspram_command *c, const char *name, size_t len, char *buf,
                              size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    const bspram_option *o;
    for (size_t i = 0; (o = nth(c, i)) != NULL && at < size; i++)
        if (strlen(o->name) > len && same_prefix(o->name, name, len))
            at += (size_t)snprintf(buf + at, size - at, "%s--%s", at ? ", " : "", o->name);
    return buf;
}

/* The word of '|'-separated list that word is, '-' and '_' alike, or NULL;
 * its length in *n. */
static const char *in_list(const char *list, const char *word, size_t *n)
{
    size_t len = strlen(word);
    for (const char *w = list;; w++) {
        const char *bar = strchr(w, '|');
        *n = bar ? (size_t)(bar - w) : strlen(w);
        if (*n == len && same_prefix(w, word, len))
            return w;
        if (!bar)
            return NULL;
        w = bar;
    }
}

/* v spelt as the name it is taken for (same length, '-' and '_' aside),
 * so that the command compares spellings: argv's strings are the
 * program's to change (C11 5.1.2.2.1). */
static void respell(char *v, const char *name, size_t n)
{
    memcpy(v, name, n);
}

/* A TEXT value of a set kept elsewhere (o->names) spelt as the name it
 * matches; a name ending in '=' (k-shuffle=) matches its beginning. */
static void respell_name(const bspram_option *o, char *v)
{
    const char *name;
    for (size_t i = 0; (name = o->names(i)) != NULL; i++) {
        size_t n = strlen(name);
        bool head = n && name[n - 1] == '=';
        if ((head ? strlen(v) >= n : strlen(v) == n) && same_prefix(name, v, n)) {
            respell(v, name, n);
            return;
        }
    }
}

/* Check one value and store it where o says; 0, or BSPRAM_TOOL_USAGE after
 * one line. The messages quote the value (escaped by bspram_tool_error). */
static int store(const bspram_command *c, const bspram_option *o, char *v, void *settings)
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
    case BSPRAM_OPT_CHOICE: {
        size_t n;
        const char *word = in_list(o->choices, v, &n);
        if (!word) {
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
        respell(v, word, n);
        *(const char **)at = v;
        return 0;
    }
    case BSPRAM_OPT_FILE:
        if (!*v || strpbrk(v, "\n\r"))
            return bspram_tool_usage(c->name, "%s '%s': a file name must be non-empty and on one line",
                                     opt, v);
        *(const char **)at = v;
        return 0;
    case BSPRAM_OPT_EACH:
        return o->take(settings, v);
    case BSPRAM_OPT_TEXT:
        if (o->names)
            respell_name(o, v);
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
        const bspram_option *o = bspram_options_find(c, a);
        if (!o) {
            const char *name = a + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            bool ambiguous = false;
            if (a[1] == '-' && len)
                lookup(c, name, len, &ambiguous);
            char which[512];
            if (ambiguous)
                return bspram_tool_usage(c->name, "ambiguous option '%.*s': it begins %s; give more of "
                                         "the name", (int)(len + 2), a,
                                         candidates(c, name, len, which, sizeof which));
            return bspram_tool_usage(c->name, "unknown option '%s' (bspram %s --help lists them)", a,
                                     c->name);
        }
        char opt[64];
        dashed(o, opt, sizeof opt);
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
        char *v = NULL;
        if (o->kind == BSPRAM_OPT_FLAG) {
            if (eq)
                return bspram_tool_usage(c->name, "%s takes no value ('%s')", opt, a);
        } else if (eq) {
            v = argv[i] + (eq + 1 - a);
        } else if (i + 1 < argc) {
            v = argv[++i]; /* taken whole, even when it begins with '-' (--seed -1 is a bad seed) */
        } else {
            return bspram_tool_usage(c->name, "%s needs a value (%s %s)", opt, opt, value_name(o));
        }
        if (o == &help_option) {
            bspram_options_help(c, stdout);
            return BSPRAM_OPTIONS_HELP;
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
    /* A word that names no file where a file to read goes is a stray word
     * (`bspram models stray-word`), as where none goes: a usage error. */
    struct stat st;
    if (first && c->operand_reads && stat(first, &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
        return bspram_tool_usage(c->name, "%s '%s': no such file (bspram %s --help)", c->operand, first,
                                 c->name);
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
    for (const bspram_option *o = c->options;; o++) {
        const bspram_option *shown = o->name ? o : &help_option;
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
