/* Labels with commas, quotes, backslashes, newlines, tabs and other control
 * characters survive the CSV and JSON writers: a machine labels one
 * superstep with each, writes its records both ways, and a strict reader
 * (RFC 4180 for CSV, RFC 8259 for JSON) gets every label back. A writer
 * that printed labels verbatim made a row with too many columns, a row cut
 * in two, and JSON that no parser accepts. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bspram.h"
#include "check.h"

static const char *const labels[] = {
    "plain",
    "a,b",
    "say \"hi\"",
    "back\\slash",
    "line\nbreak",
    "tab\there",
    "cr\rlf",
    "\x01\x1f control",
    "",
    "\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"", /* 31 quotes: the longest label */
    ",\"\\\n,",
};
#define NLABELS (sizeof labels / sizeof labels[0])
#define COLUMNS 16

static bool ring_step(bspram_component *c, void *arg)
{
    (void)arg;
    uint64_t v = bspram_pid(c);
    bspram_send(c, (v + 1) % bspram_nprocs(c), &v, sizeof v);
    return true;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = 0;
    fclose(f);
    return buf;
}

/* ---- CSV (RFC 4180) ---- */

/* One field at *s: quoted ("" is a quote; anything else, commas and line
 * breaks included, is text) or plain up to the next comma or newline.
 * Returns the field (malloc'd) and sets *end to the separator after it;
 * NULL on a malformed field (text after a closing quote, no closing quote). */
static char *csv_field(const char *s, const char **end)
{
    size_t cap = strlen(s) + 1, n = 0;
    char *out = malloc(cap);
    if (*s == '"') {
        for (s++;; s++) {
            if (!*s) {
                free(out);
                return NULL;
            }
            if (*s == '"') {
                if (s[1] != '"')
                    break;
                s++;
            }
            out[n++] = *s;
        }
        s++;
        if (*s != ',' && *s != '\n') {
            free(out);
            return NULL;
        }
    } else {
        for (; *s && *s != ',' && *s != '\n'; s++) {
            if (*s == '"' || *s == '\r') { /* not allowed unquoted */
                free(out);
                return NULL;
            }
            out[n++] = *s;
        }
    }
    out[n] = 0;
    *end = s;
    return out;
}

static void check_csv(const char *buf)
{
    const char *s = buf;
    size_t row = 0;
    while (*s) {
        char *fields[COLUMNS + 1] = {0};
        size_t nf = 0;
        for (;;) {
            const char *end;
            char *f = csv_field(s, &end);
            CHECK(f != NULL);
            if (!f)
                return;
            if (nf < COLUMNS + 1)
                fields[nf] = f;
            else
                free(f);
            nf++;
            s = end;
            if (*s == '\n' || !*s)
                break;
            s++; /* the comma */
        }
        CHECK_EQ_U64(nf, COLUMNS);
        CHECK(*s == '\n');
        if (*s)
            s++;
        if (row == 0) {
            CHECK(fields[2] && !strcmp(fields[2], "label"));
        } else if (row - 1 < NLABELS && fields[2]) {
            if (strcmp(fields[2], labels[row - 1]))
                fprintf(stderr, "CSV row %zu: label read back differs\n", row);
            CHECK(!strcmp(fields[2], labels[row - 1]));
            CHECK(fields[1] && (size_t)atoi(fields[1]) == row - 1);
        }
        for (size_t i = 0; i < COLUMNS + 1; i++)
            free(fields[i]);
        row++;
    }
    CHECK_EQ_U64(row, NLABELS + 1);
}

/* ---- JSON (RFC 8259), just what the records use ---- */

static const char *ws(const char *s)
{
    while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

/* A string at *s (which must be '"'): unescaped into a malloc'd buffer;
 * NULL if malformed (a raw control character, a bad escape, no end). */
static char *json_string(const char *s, const char **end)
{
    if (*s != '"')
        return NULL;
    char *out = malloc(strlen(s) + 1);
    size_t n = 0;
    for (s++; *s != '"'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20)
            goto bad;
        if (c != '\\') {
            out[n++] = (char)c;
            continue;
        }
        s++;
        switch (*s) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned v;
            char hex[5] = {0};
            memcpy(hex, s + 1, 4);
            if (strlen(hex) != 4 || strspn(hex, "0123456789abcdefABCDEF") != 4 ||
                sscanf(hex, "%x", &v) != 1 || v >= 0x80) /* labels here are ASCII */
                goto bad;
            out[n++] = (char)v;
            s += 4;
            break;
        }
        default:
            goto bad;
        }
    }
    out[n] = 0;
    *end = s + 1;
    return out;
bad:
    free(out);
    return NULL;
}

static void check_json(const char *buf)
{
    const char *s = ws(buf);
    CHECK(*s == '[');
    if (*s != '[')
        return;
    s = ws(s + 1);
    size_t obj = 0;
    while (*s == '{') {
        s = ws(s + 1);
        size_t keys = 0;
        char *label = NULL;
        for (;;) {
            const char *end;
            char *key = json_string(s, &end);
            CHECK(key != NULL);
            if (!key)
                return;
            s = ws(end);
            CHECK(*s == ':');
            s = ws(s + 1);
            if (*s == '"') {
                char *val = json_string(s, &end);
                CHECK(val != NULL);
                if (!val) {
                    free(key);
                    return;
                }
                if (!strcmp(key, "label")) {
                    free(label);
                    label = val;
                } else {
                    free(val);
                }
                s = end;
            } else if (!strncmp(s, "null", 4)) { /* flows: the pattern was not kept */
                s += 4;
            } else {
                size_t k = strspn(s, "0123456789.eE+-");
                CHECK(k > 0);
                s += k;
            }
            free(key);
            keys++;
            s = ws(s);
            if (*s != ',')
                break;
            s = ws(s + 1);
        }
        CHECK(*s == '}');
        CHECK_EQ_U64(keys, COLUMNS);
        CHECK(label != NULL && obj < NLABELS);
        if (label && obj < NLABELS) {
            if (strcmp(label, labels[obj]))
                fprintf(stderr, "JSON object %zu: label read back differs\n", obj);
            CHECK(!strcmp(label, labels[obj]));
        }
        free(label);
        obj++;
        s = ws(s + 1);
        if (*s != ',')
            break;
        s = ws(s + 1);
    }
    CHECK(*s == ']');
    CHECK(*ws(s + 1) == 0);
    CHECK_EQ_U64(obj, NLABELS);
}

int main(void)
{
    bspram_config cfg = bspram_config_default(3);
    cfg.threads = 1;
    bspram_machine *m = bspram_machine_create(&cfg);
    for (size_t i = 0; i < NLABELS; i++) {
        bspram_machine_set_label(m, labels[i]);
        bspram_machine_run(m, ring_step, NULL, 1);
    }
    char csv[64], json[64];
    snprintf(csv, sizeof csv, "/tmp/bspram-test-labels-%d.csv", (int)getpid());
    snprintf(json, sizeof json, "/tmp/bspram-test-labels-%d.json", (int)getpid());
    CHECK(bspram_machine_write_records(m, csv) == 0);
    CHECK(bspram_machine_write_records(m, json) == 0);
    char *c = slurp(csv), *j = slurp(json);
    CHECK(c != NULL && j != NULL);
    if (c)
        check_csv(c);
    if (j)
        check_json(j);
    free(c);
    free(j);
    remove(csv);
    remove(json);
    bspram_machine_destroy(m);
    return check_report("test_records_labels");
}
