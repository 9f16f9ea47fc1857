/* Reading back BSPRAM_TRACE files (trace_read.h): the columns of
 * router/records.h's writers, in CSV (a header, then one row per superstep;
 * the label possibly quoted, RFC 4180, so a row may span lines) or JSON
 * ("[", one object per line, "]"). A row's flows are `-` / null when the
 * pattern was not kept.
 *
 * The file is whatever the user named, so nothing in it is trusted: it is
 * opened as a regular file only and read to a bounded size
 * (base/input.h), a line at a time up to a bounded length, and every value
 * is checked where it stands; the first bad one is named by line and
 * column. */
#include <float.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/input.h"
#include "base/number.h"
#include "router/message.h"
#include "tools/commands.h"
#include "tools/trace_read.h"

#define CSV_HEADER                                                                                 \
    "machine,superstep,label,messages,bytes,q,r,charge,h_bytes,"                                   \
    "max_message,work,seconds,exchange_seconds,p,flows"

/* The file being read, and where in it. */
typedef struct reader {
    const char *command, *path;
    int json;
    bspram_input in;
    char *buf;            /* bytes read and not yet consumed: [start, end) */
    size_t cap, start, end;
    int eof;
    size_t line;          /* the line the current record starts on (from 1) */
    size_t next_line;     /* the line the next record starts on */
    const char *rec;      /* the current record, NUL-terminated */
    int loads;            /* the rows have the `loads` column (older traces do not) */
} reader;

/* One line: "bspram <command>: <path>: <what>". */
static int fail_file(const reader *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_file(const reader *R, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    bspram_tool_error(R->command, "%s: %s", R->path, what);
    return -1;
}

/* One line naming the place `at` in the current record:
 * "bspram <command>: <path>:<line>:<column>: <what>". */
static int fail_at(const reader *R, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_at(const reader *R, const char *at, const char *fmt, ...)
{
    size_t line = R->line;
    const char *bol = R->rec;
    for (const char *c = R->rec; c < at; c++)
        if (*c == '\n')
            line++, bol = c + 1;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    bspram_tool_error(R->command, "%s:%zu:%zu: %s", R->path, line, (size_t)(at - bol) + 1, what);
    return -1;
}

/* The next record into R->rec, its '\n' replaced by a NUL: 1, 0 at the end
 * of the file, or −1 after one line. A CSV record goes on past a newline
 * inside a quoted label (an odd number of quotes so far). */
static int next_record(reader *R)
{
    size_t scan = R->start;
    int odd = 0;
    R->line = R->next_line;
    for (;;) {
        char *nl = R->end > scan ? memchr(R->buf + scan, '\n', R->end - scan) : NULL;
        size_t upto = nl ? (size_t)(nl - R->buf) : R->end;
        if (!R->json)
            for (size_t i = scan; i < upto; i++)
                odd ^= R->buf[i] == '"';
        scan = upto;
        if (nl && (R->json || !odd)) {
            *nl = '\0';
            R->rec = R->buf + R->start;
            for (const char *c = R->rec; c < nl; c++)
                R->next_line += *c == '\n';
            R->next_line++;
            R->start = upto + 1;
            return 1;
        }
        if (nl) {
            scan++;
            continue;
        }
        if (R->end - R->start > TRACE_MAX_LINE) {
            char size[32];
            R->rec = R->buf + R->start;
            return fail_at(R, R->rec + TRACE_MAX_LINE, "a line longer than %s (not a bspram "
                           "trace?)", bspram__base_input_size(TRACE_MAX_LINE, size, sizeof size));
        }
        if (R->eof) {
            if (R->start == R->end)
                return 0;
            R->buf[R->end] = '\0';
            R->rec = R->buf + R->start;
            if (odd)
                return fail_at(R, memchr(R->rec, '"', R->end - R->start),
                               "a quote that is never closed");
            return fail_at(R, R->buf + R->end, "the file ends inside this line (no newline: a "
                                               "trace cut short?)");
        }
        /* Keep the unread bytes at the front, make room, read more. */
        if (R->start) {
            memmove(R->buf, R->buf + R->start, R->end - R->start);
            R->end -= R->start, scan -= R->start, R->start = 0;
        }
        /* The line is at most TRACE_MAX_LINE bytes so far: the buffer
         * never needs more than that and a read's worth. */
        if (R->cap - R->end < ((size_t)1 << 16)) {
            size_t want = R->cap ? 2 * R->cap : (size_t)1 << 20;
            if (want > TRACE_MAX_LINE + ((size_t)1 << 17))
                want = TRACE_MAX_LINE + ((size_t)1 << 17);
            R->buf = bspram_tool_realloc(R->buf, want, "bspram trace (a line)");
            R->cap = want;
        }
        /* One byte kept for the NUL after the last line. */
        ssize_t r = bspram__base_input_read(&R->in, R->buf + R->end, R->cap - R->end - 1);
        if (r < 0) {
            char why[160];
            return fail_file(R, "%s", bspram__base_input_problem(&R->in, why, sizeof why));
        }
        R->end += (size_t)r;
        R->eof = r == 0;
    }
}

/* ---- values ---- */

/* The token at s: up to a separator of either format. */
static size_t token_len(const char *s) { return strcspn(s, ",: []{}\t"); }

/* The token at s as an error line quotes it: at most 40 bytes, control
 * characters as '?'. */
static const char *quote(const char *s, size_t n, char *buf, size_t len)
{
    size_t k = 0;
    for (; k < n && k + 4 < len && k < 40; k++)
        buf[k] = (unsigned char)s[k] < 0x20 || s[k] == 0x7f ? '?' : s[k];
    if (k < n)
        buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
    buf[k] = '\0';
    return buf;
}

/* A whole number in [min, max] at *s, named `what` in an error; *s moves
 * past it. */
static int whole(const reader *R, const char **s, const char *what, uint64_t min, uint64_t max,
                 uint64_t *out)
{
    size_t n = token_len(*s);
    char text[48], q[64];
    if (n < sizeof text) {
        memcpy(text, *s, n);
        text[n] = '\0';
        if (n && bspram__base_parse_u64(text, min, max, out) == 0) {
            *s += n;
            return 0;
        }
    }
    if (!n)
        return fail_at(R, *s, "%s: a number is missing", what);
    return fail_at(R, *s, "%s '%s': not a whole number in [%" PRIu64 ", %" PRIu64 "]", what,
                   quote(*s, n, q, sizeof q), min, max);
}

/* A time in seconds at *s: a finite decimal number >= 0 (no nan, inf or
 * sign). */
static int seconds(const reader *R, const char **s, const char *what, double *out)
{
    size_t n = token_len(*s);
    char text[64], q[64];
    if (n && n < sizeof text) {
        memcpy(text, *s, n);
        text[n] = '\0';
        if (bspram__base_parse_double(text, 0, DBL_MAX, out) == 0) {
            *s += n;
            return 0;
        }
    }
    if (!n)
        return fail_at(R, *s, "%s: a number is missing", what);
    return fail_at(R, *s, "%s '%s': not a finite number of seconds >= 0", what,
                   quote(*s, n, q, sizeof q));
}

static void skip_spaces(const char **s)
{
    while (**s == ' ')
        (*s)++;
}

/* The character c at *s (JSON: spaces around it allowed). */
static int expect(const reader *R, const char **s, char c, const char *before)
{
    if (R->json)
        skip_spaces(s);
    if (**s != c)
        return fail_at(R, *s, "expected '%c' %s", c, before);
    (*s)++;
    if (R->json)
        skip_spaces(s);
    return 0;
}

/* JSON: "key": at *s. */
static int key(const reader *R, const char **s, const char *name)
{
    size_t n = strlen(name);
    if (**s != '"' || strncmp(*s + 1, name, n) || (*s)[n + 1] != '"')
        return fail_at(R, *s, "expected the key \"%s\"", name);
    *s += n + 2;
    return expect(R, s, ':', "after a key");
}

/* The label at *s: CSV (plain, or quoted with quotes doubled) or a JSON
 * string with the writer's escapes; into r, at most BSPRAM_LABEL_LEN − 1
 * bytes as the writer's labels are. */
static int label(const reader *R, const char **s, bspram_record *r)
{
    const char *at = *s, *start = *s;
    size_t n = 0;
    if (R->json || *at == '"') {
        if (*at++ != '"')
            return fail_at(R, start, "expected the label, a string in double quotes");
        for (;; at++) {
            char c = *at;
            if (!c)
                return fail_at(R, start, "a label without its closing quote");
            if (R->json && c == '\\') {
                const char *e = at++;
                switch (*at) {
                case '"': case '\\': case '/': c = *at; break;
                case 'n': c = '\n'; break;
                case 'r': c = '\r'; break;
                case 't': c = '\t'; break;
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'u': {
                    unsigned v = 0;
                    for (int k = 1; k <= 4; k++) {
                        char h = at[k];
                        int d = h >= '0' && h <= '9' ? h - '0'
                                : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                       : -1;
                        if (d < 0)
                            return fail_at(R, e, "a \\u escape without four hex digits");
                        v = v * 16 + (unsigned)d;
                    }
                    if (v == 0 || v > 0xff)
                        return fail_at(R, e, "\\u%04x: the trace's labels hold bytes 1 to 255 "
                                             "only", v);
                    c = (char)v;
                    at += 4;
                    break;
                }
                default: return fail_at(R, e, "an escape that JSON does not have");
                }
            } else if (c == '"') {
                if (R->json || at[1] != '"')
                    break;
                at++; /* CSV: "" is one quote */
            } else if (R->json && (unsigned char)c < 0x20) {
                return fail_at(R, at, "a control character in a JSON string");
            }
            if (n + 1 >= sizeof r->label)
                return fail_at(R, start, "a label longer than %d bytes", BSPRAM_LABEL_LEN - 1);
            r->label[n++] = c;
        }
        at++; /* the closing quote */
    } else {
        for (; *at && *at != ','; at++) {
            if (n + 1 >= sizeof r->label)
                return fail_at(R, start, "a label longer than %d bytes", BSPRAM_LABEL_LEN - 1);
            r->label[n++] = *at;
        }
    }
    r->label[n] = '\0';
    *s = at;
    return 0;
}

/* ---- rows ---- */

static trace_machine *machine(trace *t, unsigned id, uint64_t p)
{
    if (t->n && t->machines[t->n - 1].id == id)
        return &t->machines[t->n - 1];
    for (size_t i = 0; i < t->n; i++)
        if (t->machines[i].id == id)
            return &t->machines[i];
    t->machines = bspram_tool_grow(t->machines, &t->cap, t->n + 1, sizeof *t->machines, 4,
                               "bspram trace");
    trace_machine *m = &t->machines[t->n++];
    memset(m, 0, sizeof *m);
    m->id = id;
    m->p = p;
    return m;
}

/* a + b into *sum, or −1 if it wraps. */
static int add(uint64_t a, uint64_t b, uint64_t *sum)
{
    *sum = a + b;
    return *sum < a ? -1 : 0;
}

/* The flows at *s until the end of the field, for a machine of p
 * processes: appended as record `index` of m, after checking them against
 * the row's messages and bytes. */
static int flows(const reader *R, const char **s, uint64_t p, const bspram_record *r,
                 trace_machine *m, size_t index)
{
    const char *start = *s;
    size_t n = 0, cap = 0;
    bspram_flow *f = NULL;
    uint64_t messages = 0, bytes = 0;
    int rc = 0;
    if (R->json && expect(R, s, '[', "opening the flows (or null)"))
        return -1;
    while (!rc) {
        if (R->json ? **s == ']' : !**s || **s == ',')
            break;
        if (n && expect(R, s, R->json ? ',' : ' ', "between flows"))
            rc = -1;
        if (!rc && R->json)
            rc = expect(R, s, '[', "opening a flow");
        static const char *const part[] = {"src", "dst", "messages", "bytes", "largest"};
        uint64_t v[5];
        const char *at[5];
        for (int k = 0; !rc && k < 5; k++) {
            char what[64];
            snprintf(what, sizeof what, "flow %zu's %s", n + 1, part[k]);
            if (k && expect(R, s, R->json ? ',' : ':', "between a flow's numbers"))
                rc = -1;
            at[k] = *s;
            if (!rc)
                rc = whole(R, s, what, k == 2, k < 2 ? p - 1 : UINT64_MAX, &v[k]);
        }
        if (!rc && R->json)
            rc = expect(R, s, ']', "closing a flow");
        if (rc)
            break;
        if (v[4] > v[3])
            rc = fail_at(R, at[4], "flow %zu's largest message, %" PRIu64 " bytes, is above its "
                         "bytes, %" PRIu64, n + 1, v[4], v[3]);
        else if (n && (v[0] < f[n - 1].src || (v[0] == f[n - 1].src && v[1] <= f[n - 1].dst)))
            rc = fail_at(R, at[0], "flow %zu is out of (src, dst) order", n + 1);
        else if (add(messages, v[2], &messages) || add(bytes, v[3], &bytes))
            rc = fail_at(R, at[2], "the flows' messages or bytes add up past 2^64 - 1");
        if (rc)
            break;
        f = bspram_tool_grow(f, &cap, n + 1, sizeof *f, 16, "bspram trace");
        f[n++] = (bspram_flow){v[0], v[1], v[2], v[3], v[4]};
    }
    if (!rc && R->json)
        rc = expect(R, s, ']', "closing the flows");
    if (!rc && (messages != r->messages || bytes != r->bytes))
        rc = fail_at(R, start, "the flows add up to %" PRIu64 " messages and %" PRIu64 " bytes, "
                     "the row says %" PRIu64 " and %" PRIu64, messages, bytes, r->messages,
                     r->bytes);
    if (!rc) {
        bspram_flow *to = bspram_pattern_append(&m->pattern, index, n);
        if (n)
            memcpy(to, f, n * sizeof *f);
    }
    free(f);
    return rc;
}

/* The loads at *s (the `loads` column: p entries work:seconds, or JSON's
 * [work, seconds] arrays) of record `index` of m, whose flows were just
 * appended: their most work must be the row's w. */
static int loads(const reader *R, const char **s, uint64_t p, const bspram_record *r,
                 trace_machine *m, size_t index)
{
    const char *start = *s;
    if (R->json && expect(R, s, '[', "opening the loads (or null)"))
        return -1;
    /* p entries of at least "w:t" and a separator: a p the line cannot hold
     * is refused before room is made for it. */
    if (p - 1 > strlen(*s) / 4)
        return fail_at(R, start, "the loads: this line cannot hold p = %" PRIu64 " of them", p);
    bspram_process_load *to = bspram_pattern_append_loads(&m->pattern, index, (size_t)p);
    uint64_t most = 0;
    for (uint64_t k = 0; k < p; k++) {
        char what[64];
        snprintf(what, sizeof what, "process %" PRIu64 "'s work", k);
        if ((k && expect(R, s, R->json ? ',' : ' ', "between loads")) ||
            (R->json && expect(R, s, '[', "opening a load")) ||
            whole(R, s, what, 0, UINT64_MAX, &to[k].work) ||
            expect(R, s, R->json ? ',' : ':', "between a load's work and seconds"))
            return -1;
        snprintf(what, sizeof what, "process %" PRIu64 "'s seconds", k);
        if (seconds(R, s, what, &to[k].seconds) || (R->json && expect(R, s, ']', "closing a load")))
            return -1;
        if (to[k].work > most)
            most = to[k].work;
    }
    if (R->json && expect(R, s, ']', "closing the loads"))
        return -1;
    if (most != r->work)
        return fail_at(R, start, "the loads' most work is %" PRIu64 ", the row's work is %" PRIu64,
                       most, r->work);
    return 0;
}

/* One superstep's row (CSV) or object (JSON), appended to t. *more: JSON,
 * the object ends with ',' (another follows). */
static int row(reader *R, trace *t, int *more)
{
    const char *s = R->rec;
    static const char *const name[] = {"messages", "bytes", "q", "r", "charge", "h_bytes",
                                       "max_message", "work"};
    bspram_record r;
    memset(&r, 0, sizeof r);
    uint64_t *value[] = {&r.messages, &r.bytes, &r.q, &r.r, &r.charge, &r.h_bytes,
                         &r.max_message, &r.work};
    const char *at[8];
    uint64_t id, p;
    const char *nul = memchr(R->rec, '\0', (size_t)(R->buf + R->start - 1 - R->rec));
    if (nul)
        return fail_at(R, nul, "a NUL byte");
    if (R->json) {
        skip_spaces(&s);
        if (expect(R, &s, '{', "opening a superstep's object") || key(R, &s, "machine"))
            return -1;
    }
    if (whole(R, &s, "machine", 0, UINT32_MAX, &id) || expect(R, &s, ',', "after the machine") ||
        (R->json && key(R, &s, "superstep")) ||
        whole(R, &s, "superstep", 0, UINT64_MAX, &r.superstep) ||
        expect(R, &s, ',', "after the superstep") || (R->json && key(R, &s, "label")) ||
        label(R, &s, &r))
        return -1;
    for (int k = 0; k < 8; k++) {
        char after[64];
        snprintf(after, sizeof after, "before %s", name[k]);
        if (expect(R, &s, ',', after) || (R->json && key(R, &s, name[k])))
            return -1;
        at[k] = s;
        if (whole(R, &s, name[k], 0, UINT64_MAX, value[k]))
            return -1;
    }
    const char *at_seconds = NULL;
    for (int k = 0; k < 2; k++) {
        const char *which = k ? "exchange_seconds" : "seconds";
        if (expect(R, &s, ',', k ? "before exchange_seconds" : "before seconds") ||
            (R->json && key(R, &s, which)))
            return -1;
        at_seconds = k ? at_seconds : s;
        if (seconds(R, &s, which, k ? &r.exchange_seconds : &r.seconds))
            return -1;
    }
    if (expect(R, &s, ',', "before p") || (R->json && key(R, &s, "p")))
        return -1;
    const char *at_p = s;
    if (whole(R, &s, "p", 1, BSPRAM_MAX_COMPONENTS, &p) || expect(R, &s, ',', "before the flows") ||
        (R->json && key(R, &s, "flows")))
        return -1;
    /* What the router's records always are. */
    if (r.q > r.messages)
        return fail_at(R, at[2], "q %" PRIu64 " is above the messages, %" PRIu64, r.q, r.messages);
    if (r.r > r.messages)
        return fail_at(R, at[3], "r %" PRIu64 " is above the messages, %" PRIu64, r.r, r.messages);
    if (r.charge != (r.q > r.r ? r.q : r.r))
        return fail_at(R, at[4], "charge %" PRIu64 " is not max(q, r) = %" PRIu64, r.charge,
                       r.q > r.r ? r.q : r.r);
    if (r.h_bytes > r.bytes)
        return fail_at(R, at[5], "h_bytes %" PRIu64 " is above the bytes, %" PRIu64, r.h_bytes,
                       r.bytes);
    if (r.max_message > r.bytes)
        return fail_at(R, at[6], "max_message %" PRIu64 " is above the bytes, %" PRIu64,
                       r.max_message, r.bytes);
    trace_machine *m = machine(t, (unsigned)id, p);
    if (m->p != p)
        return fail_at(R, at_p, "p %" PRIu64 ": machine %u had p = %" PRIu64 " on its earlier rows",
                       p, m->id, m->p);
    /* The machine's sums, as bspram prof and the models take them. */
    const uint64_t part[6] = {r.messages, r.bytes, r.charge, r.h_bytes, r.max_message, r.work};
    const int field[6] = {0, 1, 4, 5, 6, 7};
    uint64_t sum[6];
    for (int k = 0; k < 6; k++)
        if (add(m->sum[k], part[k], &sum[k]))
            return fail_at(R, at[field[k]], "%s: machine %u's sum over its rows passes 2^64 - 1",
                           name[field[k]], m->id);
    double secs = m->seconds + r.seconds;
    if (!(secs <= DBL_MAX))
        return fail_at(R, at_seconds, "seconds: machine %u's sum over its rows is not finite",
                       m->id);
    size_t index = m->log.n;
    int kept = !(R->json ? !strncmp(s, "null", 4) : *s == '-' && (!s[1] || s[1] == ','));
    if (!kept)
        s += R->json ? 4 : 1;
    else if (flows(R, &s, p, &r, m, index))
        return -1;
    if (R->loads) { /* a trace of this version: the loads follow the flows */
        if (expect(R, &s, ',', "before the loads") || (R->json && key(R, &s, "loads")))
            return -1;
        if (R->json ? !strncmp(s, "null", 4) : *s == '-')
            s += R->json ? 4 : 1;
        else if (!kept)
            return fail_at(R, s, "loads without flows (the writer keeps them together)");
        else if (loads(R, &s, p, &r, m, index))
            return -1;
    }
    if (R->json) {
        if (expect(R, &s, '}', "closing the superstep's object"))
            return -1;
        *more = *s == ',';
        s += *more;
        skip_spaces(&s);
    }
    if (*s)
        return fail_at(R, s, "more than the trace's columns on this row");
    memcpy(m->sum, sum, sizeof sum);
    m->seconds = secs;
    bspram_log_append(&m->log, &r);
    return 0;
}

static int read_all(reader *R, trace *t)
{
    int got = next_record(R);
    if (got <= 0)
        return got < 0 ? -1 : fail_file(R, "an empty file, not a bspram trace");
    /* Traces before the loads column are read as they were. */
    R->loads = !R->json && !strcmp(R->rec, CSV_HEADER ",loads");
    if (R->json ? strcmp(R->rec, "[") != 0 : !R->loads && strcmp(R->rec, CSV_HEADER) != 0) {
        if (!R->json && !strncmp(R->rec, "machine,superstep,label,", 24) &&
            !strstr(R->rec, ",p,flows"))
            return fail_at(R, R->rec, "the trace has no p and flows columns (written by an older "
                                      "bspram)");
        return fail_at(R, R->rec, R->json ? "not a bspram trace (the first line is not '[')"
                                          : "not a bspram trace (not its header line)");
    }
    int closed = 0, more = 0;
    size_t rows = 0;
    while ((got = next_record(R)) > 0) {
        if (closed)
            return fail_at(R, R->rec, "more after the closing ']'");
        if (R->json && !strcmp(R->rec, "]")) {
            if (more)
                return fail_at(R, R->rec, "']' after a ',' (the last object has a comma)");
            closed = 1;
            continue;
        }
        if (R->json && rows && !more)
            return fail_at(R, R->rec, "the object before this one has no ',' after it");
        if (R->json && !rows) /* the first object says which keys the trace has */
            R->loads = strstr(R->rec, "\"loads\": ") != NULL;
        if (row(R, t, &more))
            return -1;
        rows++;
    }
    if (got < 0)
        return -1;
    if (R->json && !closed)
        return fail_file(R, "no closing ']' (a trace cut short?)");
    if (!rows)
        return fail_file(R, "holds no superstep (the trace of a program that ran none)");
    return 0;
}

int trace_read(const char *path, const char *command, trace *t)
{
    memset(t, 0, sizeof *t);
    reader R = {.command = command, .path = path, .next_line = 1};
    size_t len = strlen(path);
    R.json = len >= 5 && !strcmp(path + len - 5, ".json");
    if (bspram__base_input_open(&R.in, path, TRACE_MAX_BYTES) != 0) {
        char why[160];
        return fail_file(&R, "%s", R.in.status == BSPRAM_INPUT_OPEN
                                       ? strerror(R.in.err) /* "No such file or directory" */
                                       : bspram__base_input_problem(&R.in, why, sizeof why));
    }
    int rc = read_all(&R, t);
    bspram__base_input_close(&R.in);
    free(R.buf);
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
