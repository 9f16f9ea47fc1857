/* `bspram --complete WORD...`: what the bash completion
 * (tools/bspram.bash-completion) offers, asked of the tool itself so that it
 * never goes stale. The words are the command line after `bspram` up to the
 * cursor, the last the one being completed (maybe empty); bash splits
 * `--format=js` into `--format`, `=`, `js`, which are joined again here.
 * Printed: the candidates that begin with that word, one per line, or the
 * line "@files" where a file name goes (bash then lists files). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/commands.h"

static void offer(const char *candidate, const char *prefix)
{
    if (!strncmp(candidate, prefix, strlen(prefix)))
        puts(candidate);
}

/* The values option o takes that begin with prefix. */
static void offer_values(const bspram_option *o, const char *prefix)
{
    if (o->kind == BSPRAM_OPT_FILE) {
        puts("@files");
    } else if (o->kind == BSPRAM_OPT_CHOICE) {
        char word[64];
        for (const char *w = o->choices;;) {
            size_t len = strcspn(w, "|");
            snprintf(word, sizeof word, "%.*s", (int)len, w);
            offer(word, prefix);
            if (!w[len])
                break;
            w += len + 1;
        }
    } else if (o->names) {
        const char *name;
        for (size_t i = 0; (name = o->names(i)) != NULL; i++)
            offer(name, prefix);
    }
}

static void offer_commands(const char *prefix)
{
    for (size_t i = 0; i < bspram_command_count; i++)
        offer(bspram_commands[i]->name, prefix);
    offer("help", prefix);
}

static const bspram_command *command_named(const char *name)
{
    for (size_t i = 0; i < bspram_command_count; i++)
        if (!strcmp(name, bspram_commands[i]->name))
            return bspram_commands[i];
    return NULL;
}

int bspram_complete(int nwords, char **words)
{
    /* Join bash's "--opt" "=" "value" again; w[n - 1] is the word at the cursor. */
    const char **w = calloc((size_t)nwords + 1, sizeof *w);
    char **joined = calloc((size_t)nwords + 1, sizeof *joined);
    if (!w || !joined)
        return BSPRAM_TOOL_FAILED;
    int n = 0;
    for (int i = 0; i < nwords; i++) {
        if (!strcmp(words[i], "=") && n > 0 && !strncmp(w[n - 1], "--", 2) && !strchr(w[n - 1], '=')) {
            const char *value = i + 1 < nwords ? words[++i] : "";
            size_t len = strlen(w[n - 1]) + strlen(value) + 2;
            if (!(joined[n - 1] = malloc(len)))
                break;
            snprintf(joined[n - 1], len, "%s=%s", w[n - 1], value);
            w[n - 1] = joined[n - 1];
        } else {
            w[n++] = words[i];
        }
    }
    const char *cur = n ? w[n - 1] : "";
    const bspram_command *c = n > 1 ? command_named(w[0]) : NULL;
    const char **w_all = w; /* (freed at the end) */
    const int n_all = n;
    /* A subcommand (pram check): its own table, from the word after it. */
    for (size_t s = 0; c && c->subcommands && n > 2 && c->subcommands[s]; s++) {
        const char *name = strchr(c->subcommands[s]->name, ' ');
        if (name && !strcmp(name + 1, w[1])) {
            c = c->subcommands[s];
            w++;
            n--;
            break;
        }
    }
    if (n <= 1) {
        offer_commands(cur);
        if (cur[0] == '-') {
            offer("--help", cur);
            offer("--version", cur);
        }
    } else if (!strcmp(w[0], "help")) {
        if (n == 2)
            offer_commands(cur);
    } else if (c) {
        /* Walk the words before the cursor: is the last one an option's value? */
        const bspram_option *wants = NULL;
        bool operands = false; /* after "--" */
        for (int i = 1; i < n - 1; i++) {
            const bspram_option *o = operands ? NULL : bspram_options_find(c, w[i]);
            operands |= !strcmp(w[i], "--");
            if (o && o->kind != BSPRAM_OPT_FLAG && !strchr(w[i], '=')) {
                if (i + 1 == n - 1)
                    wants = o;
                i++;
            }
        }
        const bspram_option *inline_opt = !operands && !strncmp(cur, "--", 2) && strchr(cur, '=')
                                              ? bspram_options_find(c, cur) : NULL;
        if (wants) {
            offer_values(wants, cur);
        } else if (inline_opt) {
            offer_values(inline_opt, strchr(cur, '=') + 1);
        } else if (n == 2 && c->subcommands && cur[0] != '-') {
            for (size_t s = 0; c->subcommands[s]; s++) {
                const char *name = strchr(c->subcommands[s]->name, ' ');
                if (name)
                    offer(name + 1, cur);
            }
        } else if (cur[0] == '-' && !operands) {
            char name[80];
            for (const bspram_option *o = c->options; o->name; o++) {
                snprintf(name, sizeof name, "--%s", o->name);
                offer(name, cur);
            }
            offer("--help", cur);
        } else if (c->operand) {
            puts("@files");
        }
    }
    for (int i = 0; i < n_all; i++)
        free(joined[i]);
    free(joined);
    free(w_all);
    return BSPRAM_TOOL_OK;
}
