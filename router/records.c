/* Superstep records: the log, totals, CSV and JSON output. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/error.h"
#include "base/grow.h"
#include "router/records.h"
#include "router/router_internal.h"
#include "router/router.h"

/* Records are appended by lane 0 between two barriers of an empty superstep,
 * so their page faults were on every superstep's critical path (one per 34
 * records on 4 KiB pages: a quarter to a third of an empty bsp_sync); the router
 * takes them while it waits in the barrier (bspram__router_log_ready). From 2 MiB on
 * the log is a mapping of its own, on transparent huge pages where the kernel
 * gives them (one fault per 17 000 records), grown by mremap: the kernel moves
 * the pages, nothing is copied and no page is zeroed twice. Before, every
 * doubling copied the whole log into fresh pages, and the copy's page clearing
 * was 58 % of an empty superstep after 200 000 of them (perf, one MPI rank). A
 * log's capacity says which it is: below LOG_HUGE bytes malloc's, else mapped. */
#define LOG_HUGE ((size_t)2 << 20)

static bool log_mapped(const bspram_log *log) { return log->cap >= LOG_HUGE / sizeof *log->records; }

/* The bytes mapped for a mapped log: whole huge pages. */
static size_t log_bytes(size_t cap) { return (cap * sizeof(bspram_record) + LOG_HUGE - 1) & ~(LOG_HUGE - 1); }

static __attribute__((noinline)) void log_grow(bspram_log *log, const char *call)
{
    size_t cap = bspram__capacity(log->cap, log->n + 1, 64);
    if (cap < LOG_HUGE / sizeof *log->records) {
        log->records = bspram__base_realloc(log->records, cap * sizeof *log->records, call);
        log->cap = cap;
        return;
    }
    size_t bytes = log_bytes(cap);
    void *to;
    if (log_mapped(log)) {
        to = mremap(log->records, log_bytes(log->cap), bytes, MREMAP_MAYMOVE);
    } else {
        to = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (to != MAP_FAILED && log->n)
            memcpy(to, log->records, log->n * sizeof *log->records);
        if (to != MAP_FAILED)
            free(log->records);
    }
    if (to == MAP_FAILED)
        bspram__base_fatal("%s: out of memory (%zu bytes for %zu records)", call, bytes, log->n + 1);
#ifdef MADV_HUGEPAGE
    madvise(to, bytes, MADV_HUGEPAGE); /* advice: nothing to do if refused */
#endif
    log->records = to;
    log->cap = bytes / sizeof *log->records;
}

void bspram_log_append(bspram_log *log, const bspram_record *rec)
{
    BSPRAM_NONNULL(log);
    BSPRAM_NONNULL(rec);
    if (log->n == log->cap)
        log_grow(log, "bspram_log_append");
    log->records[log->n++] = *rec;
}

void bspram__router_log_ready(bspram_log *log)
{
    if (log->n == log->cap)
        log_grow(log, "the records");
    memset(&log->records[log->n], 0, sizeof *log->records);
}

void bspram__router_log_clear(bspram_log *log)
{
    BSPRAM_NONNULL(log);
    log->n = 0;
}

void bspram_log_free(bspram_log *log)
{
    BSPRAM_NONNULL(log);
    if (log_mapped(log))
        munmap(log->records, log_bytes(log->cap));
    else
        free(log->records);
    memset(log, 0, sizeof *log);
}

bspram_flow *bspram_pattern_append(bspram_pattern *pat, size_t record, size_t n)
{
    BSPRAM_NONNULL(pat);
    pat->at = bspram__grow(pat->at, &pat->cap, record + 1, sizeof *pat->at, 64,
                           "bspram_pattern_append");
    for (; pat->n < record; pat->n++) /* records before it that were not kept */
        pat->at[pat->n] = (bspram_pattern_slot){0, 0, 0, 0, 0};
    /* At least one flow of room, so that the pointer returned for n = 0 is
     * not an offset from NULL. */
    pat->flows = bspram__grow(pat->flows, &pat->cap_flows, pat->n_flows + (n ? n : 1),
                              sizeof *pat->flows, 256, "bspram_pattern_append");
    pat->at[record] = (bspram_pattern_slot){pat->n_flows, n, 1, 0, 0};
    pat->n_flows += n;
    pat->n = record + 1;
    return pat->flows + pat->at[record].first;
}

int bspram_pattern_get(const bspram_pattern *pat, size_t record, const bspram_flow **flows,
                       size_t *n)
{
    BSPRAM_NONNULL(flows);
    BSPRAM_NONNULL(n);
    *flows = NULL;
    *n = 0;
    if (!pat || record >= pat->n || !pat->at[record].kept)
        return 0;
    *flows = pat->flows + pat->at[record].first;
    *n = pat->at[record].count;
    return 1;
}

bspram_process_load *bspram_pattern_append_loads(bspram_pattern *pat, size_t record, size_t n)
{
    BSPRAM_NONNULL(pat);
    if (!pat->n || record != pat->n - 1 || pat->at[record].load_count)
        bspram__base_fatal("bspram_pattern_append_loads(record=%zu): the pattern's last record is "
                           "%zu%s", record, pat->n ? pat->n - 1 : 0,
                           !pat->n ? " (none: append its flows first)"
                           : record == pat->n - 1 ? ", whose loads were appended already" : "");
    pat->loads = bspram__grow(pat->loads, &pat->cap_loads, pat->n_loads + (n ? n : 1),
                              sizeof *pat->loads, 256, "bspram_pattern_append_loads");
    pat->at[record].load_first = pat->n_loads;
    pat->at[record].load_count = n;
    pat->n_loads += n;
    return pat->loads + pat->at[record].load_first;
}

int bspram_pattern_loads(const bspram_pattern *pat, size_t record, const bspram_process_load **loads,
                         size_t *n)
{
    BSPRAM_NONNULL(loads);
    BSPRAM_NONNULL(n);
    *loads = NULL;
    *n = 0;
    if (!pat || record >= pat->n || !pat->at[record].load_count)
        return 0;
    *loads = pat->loads + pat->at[record].load_first;
    *n = pat->at[record].load_count;
    return 1;
}

void bspram__router_pattern_clear(bspram_pattern *pat)
{
    BSPRAM_NONNULL(pat);
    pat->n = pat->n_flows = pat->n_loads = 0;
}

void bspram_pattern_free(bspram_pattern *pat)
{
    BSPRAM_NONNULL(pat);
    free(pat->flows);
    free(pat->at);
    free(pat->loads);
    memset(pat, 0, sizeof *pat);
}

bspram_totals bspram_records_total(const bspram_record *recs, size_t n)
{
    if (n > 0) /* no records: NULL is fine */
        BSPRAM_NONNULL(recs);
    bspram_totals t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < n; i++) {
        const bspram_record *r = &recs[i];
        t.supersteps++;
        t.communicating += r->messages > 0;
        t.messages += r->messages;
        t.bytes += r->bytes;
        t.charge += r->charge;
        t.h_bytes += r->h_bytes;
        t.max_message += r->max_message;
        t.work += r->work;
        t.seconds += r->seconds;
    }
    return t;
}

#define U(x) ((unsigned long long)(x))

/* A label's bytes: at most BSPRAM_LABEL_LEN, up to its NUL. */
static size_t label_len(const char *label) { return strnlen(label, BSPRAM_LABEL_LEN); }

/* A label as one CSV field (RFC 4180): verbatim if it holds nothing that
 * could end the field or the row, else in double quotes with every quote
 * doubled. A label with any control character (a tab, a carriage return)
 * is quoted too: RFC 4180 allows them in no unquoted field. */
static void csv_label(FILE *f, const char *label)
{
    size_t n = label_len(label);
    int quote = 0;
    for (size_t i = 0; i < n && !quote; i++) {
        unsigned char c = (unsigned char)label[i];
        quote = c == ',' || c == '"' || c < 0x20 || c == 0x7f;
    }
    if (!quote) {
        fwrite(label, 1, n, f);
        return;
    }
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        if (label[i] == '"')
            fputc('"', f);
        fputc(label[i], f);
    }
    fputc('"', f);
}

/* A label as a JSON string (RFC 8259 §7): the quote, the backslash and
 * every control character escaped; other bytes as they are. */
static void json_label(FILE *f, const char *label)
{
    size_t n = label_len(label);
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)label[i];
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                fputc(c, f);
        }
    }
    fputc('"', f);
}

/* Record i's flows in the CSV field's form. */
static void csv_flows(FILE *f, const bspram_log_view *log, size_t i)
{
    const bspram_flow *fl;
    size_t n;
    if (!bspram_pattern_get(log->pattern, i, &fl, &n)) {
        fputc('-', f);
        return;
    }
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%s%llu:%llu:%llu:%llu:%llu", k ? " " : "", U(fl[k].src), U(fl[k].dst),
                U(fl[k].messages), U(fl[k].bytes), U(fl[k].largest));
}

/* Record i's loads: `-` (CSV) or null (JSON) if not kept, else per
 * component work:seconds separated by spaces (CSV) or [work, seconds]
 * arrays (JSON). */
static void write_loads(FILE *f, const bspram_log_view *log, size_t i, int json)
{
    const bspram_process_load *ld;
    size_t n;
    if (!bspram_pattern_loads(log->pattern, i, &ld, &n)) {
        fputs(json ? "null" : "-", f);
        return;
    }
    if (json)
        fputc('[', f);
    for (size_t k = 0; k < n; k++)
        fprintf(f, json ? "%s[%llu, %.9f]" : "%s%llu:%.9f", k ? (json ? ", " : " ") : "",
                U(ld[k].work), ld[k].seconds);
    if (json)
        fputc(']', f);
}

static void json_flows(FILE *f, const bspram_log_view *log, size_t i)
{
    const bspram_flow *fl;
    size_t n;
    if (!bspram_pattern_get(log->pattern, i, &fl, &n)) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%s[%llu, %llu, %llu, %llu, %llu]", k ? ", " : "", U(fl[k].src), U(fl[k].dst),
                U(fl[k].messages), U(fl[k].bytes), U(fl[k].largest));
    fputc(']', f);
}

int bspram_records_write_csv(FILE *f, const bspram_log_view *log, int header)
{
    BSPRAM_NONNULL(f);
    BSPRAM_NONNULL(log);
    if (header)
        fprintf(f, "machine,superstep,label,messages,bytes,q,r,charge,h_bytes,max_message,work,"
                   "seconds,exchange_seconds,p,flows,loads\n");
    for (size_t i = 0; i < log->n; i++) {
        const bspram_record *r = &log->records[i];
        fprintf(f, "%u,%llu,", log->machine, U(r->superstep));
        csv_label(f, r->label);
        fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.9f,%.9f,%llu,", U(r->messages),
                U(r->bytes), U(r->q), U(r->r), U(r->charge), U(r->h_bytes), U(r->max_message),
                U(r->work), r->seconds, r->exchange_seconds, U(log->p));
        csv_flows(f, log, i);
        fputc(',', f);
        write_loads(f, log, i, 0);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int bspram_records_write_json(FILE *f, const bspram_log_view *log, int *first)
{
    BSPRAM_NONNULL(f);
    BSPRAM_NONNULL(log);
    BSPRAM_NONNULL(first);
    for (size_t i = 0; i < log->n; i++) {
        const bspram_record *r = &log->records[i];
        fprintf(f, "%s{\"machine\": %u, \"superstep\": %llu, \"label\": ", *first ? "  " : ",\n  ",
                log->machine, U(r->superstep));
        json_label(f, r->label);
        fprintf(f,
                ", \"messages\": %llu, \"bytes\": %llu, \"q\": %llu, \"r\": %llu, \"charge\": %llu, "
                "\"h_bytes\": %llu, \"max_message\": %llu, \"work\": %llu, \"seconds\": %.9f, "
                "\"exchange_seconds\": %.9f, \"p\": %llu, \"flows\": ",
                U(r->messages), U(r->bytes), U(r->q), U(r->r), U(r->charge), U(r->h_bytes), U(r->max_message),
                U(r->work), r->seconds, r->exchange_seconds, U(log->p));
        json_flows(f, log, i);
        fputs(", \"loads\": ", f);
        write_loads(f, log, i, 1);
        fputc('}', f);
        *first = 0;
    }
    return ferror(f) ? -1 : 0;
}
