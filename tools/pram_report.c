/* Reading a PRAM's report line (pram_report.h): a small JSON reader for
 * one object whose values are strings, whole numbers, null, and one array
 * of objects (needs). */
#include "tools/pram_report.h"

#include <stdio.h>
#include <string.h>

#include "pram/pram.h"

typedef struct reader {
    const char *s, *start;
    char *err;
    size_t errlen;
    bool failed;
} reader;

static void fail(reader *r, const char *what)
{
    if (!r->failed)
        snprintf(r->err, r->errlen, "%s at byte %zu", what, (size_t)(r->s - r->start));
    r->failed = true;
}

static void space(reader *r)
{
    while (*r->s == ' ' || *r->s == '\t' || *r->s == '\r' || *r->s == '\n')
        r->s++;
}

static bool eat(reader *r, char c)
{
    space(r);
    if (*r->s != c)
        return false;
    r->s++;
    return true;
}

/* A string into buf (cut at len − 1 bytes; \uXXXX below 0x80 as its byte,
 * others as '?'); buf may be NULL to skip it. */
static void string(reader *r, char *buf, size_t len)
{
    size_t k = 0;
    if (!eat(r, '"')) {
        fail(r, "not a string");
        return;
    }
    for (;;) {
        char c = *r->s++;
        if (c == 0) {
            r->s--;
            fail(r, "an unterminated string");
            return;
        }
        if (c == '"')
            break;
        if (c == '\\') {
            const char e = *r->s;
            if (e == 0) {
                fail(r, "an unterminated string");
                return;
            }
            r->s++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    const char h = *r->s;
                    const int d = h >= '0' && h <= '9'   ? h - '0'
                                  : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                  : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                         : -1;
                    if (d < 0) { /* (a NUL among them too: never read past it) */
                        fail(r, "a bad \\u escape");
                        return;
                    }
                    r->s++;
                    v = v * 16 + (unsigned)d;
                }
                c = v < 0x80 ? (char)v : '?';
                break;
            }
            case '"': case '\\': case '/': c = e; break;
            default: fail(r, "a bad escape"); return;
            }
        }
        if (buf && k + 1 < len)
            buf[k++] = c;
    }
    if (buf)
        buf[k] = 0;
}

static uint64_t whole(reader *r)
{
    space(r);
    if (*r->s < '0' || *r->s > '9') {
        fail(r, "not a whole number");
        return 0;
    }
    uint64_t v = 0;
    while (*r->s >= '0' && *r->s <= '9') {
        unsigned d = (unsigned)(*r->s++ - '0');
        if (v > (UINT64_MAX - d) / 10) {
            fail(r, "a number past 2^64");
            return 0;
        }
        v = v * 10 + d;
    }
    return v;
}

static bool literal(reader *r, const char *word)
{
    space(r);
    size_t n = strlen(word);
    if (strncmp(r->s, word, n))
        return false;
    r->s += n;
    return true;
}

/* Any value, passed over. */
static void skip(reader *r, int depth)
{
    space(r);
    if (depth > 16) {
        fail(r, "values nested too deep");
        return;
    }
    char c = *r->s;
    if (c == '"') {
        string(r, NULL, 0);
    } else if (c == '{' || c == '[') {
        const char close = c == '{' ? '}' : ']';
        r->s++;
        if (eat(r, close))
            return;
        do {
            if (c == '{') {
                string(r, NULL, 0);
                if (!eat(r, ':'))
                    fail(r, "no ':'");
            }
            skip(r, depth + 1);
        } while (!r->failed && eat(r, ','));
        if (!eat(r, close))
            fail(r, "an unclosed object or array");
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        r->s++;
        while ((*r->s >= '0' && *r->s <= '9') || *r->s == '.' || *r->s == 'e' || *r->s == 'E' || *r->s == '+' ||
               *r->s == '-')
            r->s++;
    } else if (!literal(r, "true") && !literal(r, "false") && !literal(r, "null")) {
        fail(r, "not a value");
    }
}

/* A model's name, or null (−1). */
static int model(reader *r)
{
    if (literal(r, "null"))
        return -1;
    char name[40];
    string(r, name, sizeof name);
    if (r->failed)
        return -1;
    int m = bspram_pram_model_parse(name, NULL);
    if (m < 0)
        fail(r, "an unknown model");
    return m;
}

/* A string or null (""). */
static void text(reader *r, char *buf, size_t len)
{
    if (literal(r, "null"))
        buf[0] = 0;
    else
        string(r, buf, len);
}

static void need(reader *r, bspram_report_need *n)
{
    memset(n, 0, sizeof *n);
    n->model = -1;
    if (!eat(r, '{')) {
        fail(r, "not an object");
        return;
    }
    if (eat(r, '}'))
        return;
    do {
        char key[32];
        string(r, key, sizeof key);
        if (!eat(r, ':'))
            fail(r, "no ':'");
        if (r->failed)
            return;
        if (!strcmp(key, "model"))
            n->model = model(r);
        else if (!strcmp(key, "step"))
            n->step = whole(r);
        else if (!strcmp(key, "at"))
            text(r, n->at, sizeof n->at);
        else if (!strcmp(key, "what"))
            text(r, n->what, sizeof n->what);
        else
            skip(r, 1);
    } while (!r->failed && eat(r, ','));
    if (!r->failed && !eat(r, '}'))
        fail(r, "an unclosed object");
}

int bspram_report_parse(const char *line, bspram_report_line *out, char *err, size_t errlen)
{
    reader r = {line, line, err, errlen, false};
    memset(out, 0, sizeof *out);
    out->model = out->weakest = -1;
    enum { PRAM = 1, MODEL = 2, STEPS = 4, WORK = 8, CHARGE = 16, WEAKEST = 32, N = 64, ENDED = 128 };
    unsigned have = 0;
    if (!eat(&r, '{'))
        fail(&r, "not a JSON object");
    while (!r.failed) {
        char key[32];
        string(&r, key, sizeof key);
        if (!eat(&r, ':'))
            fail(&r, "no ':'");
        if (r.failed)
            break;
        if (!strcmp(key, "pram")) {
            out->pram = whole(&r);
            have |= PRAM;
        } else if (!strcmp(key, "model")) {
            out->model = model(&r);
            have |= MODEL;
        } else if (!strcmp(key, "op")) {
            text(&r, out->op, sizeof out->op);
        } else if (!strcmp(key, "n")) {
            out->n = whole(&r);
            have |= N;
        } else if (!strcmp(key, "p")) {
            out->p = whole(&r);
        } else if (!strcmp(key, "steps")) {
            out->steps = whole(&r);
            have |= STEPS;
        } else if (!strcmp(key, "work")) {
            out->work = whole(&r);
            have |= WORK;
        } else if (!strcmp(key, "supersteps")) {
            out->supersteps = whole(&r);
        } else if (!strcmp(key, "charge")) {
            out->charge = whole(&r);
            have |= CHARGE;
        } else if (!strcmp(key, "violations")) {
            out->violations = whole(&r);
        } else if (!strcmp(key, "weakest")) {
            out->weakest = model(&r);
            have |= WEAKEST;
        } else if (!strcmp(key, "weakest_step")) {
            out->weakest_step = whole(&r);
        } else if (!strcmp(key, "needs")) {
            if (!eat(&r, '['))
                fail(&r, "needs is not an array");
            else if (!eat(&r, ']')) {
                do {
                    bspram_report_need n;
                    need(&r, &n);
                    if (!r.failed && out->nneeds < BSPRAM_REPORT_NEEDS)
                        out->needs[out->nneeds++] = n;
                } while (!r.failed && eat(&r, ','));
                if (!r.failed && !eat(&r, ']'))
                    fail(&r, "an unclosed array");
            }
        } else if (!strcmp(key, "violation")) {
            text(&r, out->violation, sizeof out->violation);
        } else if (!strcmp(key, "ended")) {
            char e[32];
            string(&r, e, sizeof e);
            out->ended_by_violation = !strcmp(e, "violation");
            have |= ENDED;
        } else {
            skip(&r, 1);
        }
        if (r.failed || !eat(&r, ','))
            break;
    }
    if (!r.failed && !eat(&r, '}'))
        fail(&r, "no '}'");
    space(&r);
    if (!r.failed && *r.s)
        fail(&r, "text after the object");
    if (r.failed)
        return -1;
    static const struct {
        unsigned bit;
        const char *name;
    } required[] = {{PRAM, "pram"},   {MODEL, "model"},     {N, "n"},          {STEPS, "steps"},
                    {WORK, "work"},   {CHARGE, "charge"},   {WEAKEST, "weakest"}, {ENDED, "ended"}};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!(have & required[i].bit)) {
            snprintf(err, errlen, "no field %s", required[i].name);
            return -1;
        }
    if (out->model < 0 || out->weakest < 0) {
        snprintf(err, errlen, "model or weakest is null");
        return -1;
    }
    return 0;
}
