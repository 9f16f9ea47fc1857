/* Reading back BSPRAM_TRACE files (trace_read.h): the columns of
 * router/records.h's writers, in CSV (one row per superstep; the label
 * possibly quoted, RFC 4180) or JSON (one object per line). A row's flows
 * are `-` / null when the pattern was not kept. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "tools/trace_read.h"

static const char *reader = "models"; /* the command, for its error lines */

static int fail(const char *path, size_t line, const char *what)
{
    fprintf(stderr, "bspram %s: %s:%zu: %s\n", reader, path, line, what);
    return -1;
}

static trace_machine *machine(trace *t, unsigned id, uint64_t p)
{
    if (t->n && t->machines[t->n - 1].id == id)
        return &t->machines[t->n - 1];
    for (size_t i = 0; i < t->n; i++)
        if (t->machines[i].id == id)
            return &t->machines[i];
    t->machines = bspram__grow(t->machines, &t->cap, t->n + 1, sizeof *t->machines, 4,
                               "bspram trace");
    trace_machine *m = &t->machines[t->n++];
    memset(m, 0, sizeof *m);
    m->id = id;
    m->p = p;
    return m;
}

/* A number at *s (then past it and one separator). */
static int number(const char **s, uint64_t *x)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(*s, &end, 10);
    if (end == *s || errno)
        return -1;
    *x = v;
    *s = end;
    return 0;
}

static int real(const char **s, double *x)
{
    char *end;
    *x = strtod(*s, &end);
    if (end == *s)
        return -1;
    *s = end;
    return 0;
}

/* Flows "a:b:c:d:e a:b:c:d:e …" (CSV) or "[[a, b, c, d, e], …]" (JSON) until
 * the end of s; appended as record `index` of m. */
static int flows(const char *s, int json, trace_machine *m, size_t index)
{
    size_t n = 0, cap = 0;
    bspram_flow *f = NULL;
    for (;;) {
        while (*s == ' ' || *s == ',' || (json && (*s == '[' || *s == ']')))
            s++;
        if (!*s || *s == '}' || *s == '\n')
            break;
        uint64_t v[5];
        for (int k = 0; k < 5; k++) {
            while (k && (*s == ':' || *s == ',' || *s == ' '))
                s++;
            if (number(&s, &v[k])) {
                free(f);
                return -1;
            }
        }
        f = bspram__grow(f, &cap, n + 1, sizeof *f, 16, "bspram trace");
        f[n++] = (bspram_flow){v[0], v[1], v[2], v[3], v[4]};
    }
    bspram_flow *to = bspram_pattern_append(&m->pattern, index, n);
    if (n)
        memcpy(to, f, n * sizeof *f);
    free(f);
    return 0;
}

/* The numbers after the label, in the writers' order. */
static int fields(const char **s, int json, bspram_record *r, uint64_t *p)
{
    static const char *const keys[] = {"messages", "bytes", "q", "r", "charge", "h_bytes",
                                       "max_message", "work"};
    uint64_t *dst[] = {&r->messages, &r->bytes, &r->q, &r->r, &r->charge, &r->h_bytes,
                       &r->max_message, &r->work};
    for (int k = 0; k < 8; k++) {
        if (json) {
            char key[32];
            snprintf(key, sizeof key, "\"%s\": ", keys[k]);
            const char *at = strstr(*s, key);
            if (!at)
                return -1;
            *s = at + strlen(key);
        } else if (*(*s)++ != ',') {
            return -1;
        }
        if (number(s, dst[k]))
            return -1;
    }
    for (int k = 0; k < 2; k++) {
        if (json) {
            const char *at = strstr(*s, k ? "\"exchange_seconds\": " : "\"seconds\": ");
            if (!at)
                return -1;
            *s = strchr(at, ':') + 2;
        } else if (*(*s)++ != ',') {
            return -1;
        }
        if (real(s, k ? &r->exchange_seconds : &r->seconds))
            return -1;
    }
    if (json) {
        const char *at = strstr(*s, "\"p\": ");
        if (!at)
            return -1;
        *s = at + 5;
    } else if (*(*s)++ != ',') {
        return -1;
    }
    if (number(s, p))
        return -1;
    if (json) {
        const char *at = strstr(*s, "\"flows\": ");
        if (!at)
            return -1;
        *s = at + 9;
    } else if (*(*s)++ != ',') {
        return -1;
    }
    return 0;
}

/* The label at *s: CSV (plain or quoted) or a JSON string; copied into r. */
static int label(const char **s, int json, bspram_record *r)
{
    size_t n = 0;
    const char *at = *s;
    if (json || *at == '"') {
        if (*at++ != '"')
            return -1;
        for (; *at; at++) {
            char c = *at;
            if (json && c == '\\') {
                at++;
                c = *at == 'n' ? '\n' : *at == 't' ? '\t' : *at;
                if (!*at)
                    return -1;
            } else if (c == '"') {
                if (!json && at[1] == '"')
                    at++;
                else
                    break;
            }
            if (n + 1 < sizeof r->label)
                r->label[n++] = c;
        }
        if (*at != '"')
            return -1;
        at++;
    } else {
        for (; *at && *at != ','; at++)
            if (n + 1 < sizeof r->label)
                r->label[n++] = *at;
    }
    r->label[n] = '\0';
    *s = at;
    return 0;
}

int trace_read(const char *path, const char *command, trace *t)
{
    reader = command;
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bspram %s: %s: %s\n", command, path, strerror(errno));
        return -1;
    }
    size_t len = strlen(path), lineno = 0;
    int json = len >= 5 && !strcmp(path + len - 5, ".json"), rc = 0;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        const char *s = line;
        if (lineno == 1) {
            if (json ? line[0] != '[' : strncmp(line, "machine,superstep,label,", 24) != 0)
                rc = fail(path, lineno, json ? "not a bspram trace (no opening '[')"
                                             : "not a bspram trace (no header line)");
            else if (!json && !strstr(line, ",p,flows"))
                rc = fail(path, lineno, "the trace has no p and flows columns (written by an "
                                        "older bspram)");
            if (rc)
                break;
            continue;
        }
        if (json) {
            while (*s == ' ' || *s == ',')
                s++;
            if (*s == ']' || *s == '\n' || !*s)
                continue;
            const char *at = strstr(s, "{\"machine\": ");
            if (!at) {
                rc = fail(path, lineno, "expected an object {\"machine\": …}");
                break;
            }
            s = at + 12;
        }
        uint64_t id, step, p;
        bspram_record r = {.superstep = 0};
        int bad = number(&s, &id);
        if (!bad && json) {
            const char *at = strstr(s, "\"superstep\": ");
            bad = !at;
            s = at ? at + 13 : s;
        } else if (!bad) {
            bad = *s++ != ',';
        }
        bad = bad || number(&s, &step);
        if (!bad && json) {
            const char *at = strstr(s, "\"label\": ");
            bad = !at;
            s = at ? at + 9 : s;
        } else if (!bad) {
            bad = *s++ != ',';
        }
        bad = bad || label(&s, json, &r) || fields(&s, json, &r, &p) || p == 0 || id > UINT32_MAX;
        if (bad) {
            rc = fail(path, lineno, "a row that does not read as the trace's columns");
            break;
        }
        r.superstep = step;
        trace_machine *m = machine(t, (unsigned)id, p);
        if (m->p != p) {
            rc = fail(path, lineno, "the machine's p changes between rows");
            break;
        }
        size_t index = m->log.n;
        bspram_log_append(&m->log, &r);
        while (*s == ' ')
            s++;
        if (!strncmp(s, json ? "null" : "-", json ? 4 : 1))
            continue;
        if (flows(s, json, m, index)) {
            rc = fail(path, lineno, "flows that do not read as src:dst:messages:bytes:largest");
            break;
        }
    }
    free(line);
    fclose(f);
    if (rc)
        trace_free(t);
    return rc;
}

void trace_free(trace *t)
{
    for (size_t i = 0; i < t->n; i++) {
        bspram_log_free(&t->machines[i].log);
        bspram_pattern_free(&t->machines[i].pattern);
    }
    free(t->machines);
    memset(t, 0, sizeof *t);
}
