/* bspram prof --html: the data of one machine of a trace for the page
 * tools/html/prof.html — each superstep's record, and where the trace kept
 * them (BSPRAM_PATTERN=1) each process's load (work, time) and bytes out and
 * in, so that the page draws the run on a time axis, finds each superstep's
 * straggler and prices it as w/r + g·h + l (BSP; Valiant 1990). */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tools/commands.h"
#include "tools/html.h"
#include "tools/prof_html.h"

/* Per-process arrays are embedded up to this many entries (p × supersteps):
 * 10,000 supersteps of 400 processes; beyond, the page says so. */
#define PROF_HTML_MAX_ENTRIES ((uint64_t)4 << 20)

typedef struct page_args {
    const trace_machine *m;
    double g, l, rate;
    const char *source;
} page_args;

static void u64_array(FILE *f, const char *key, const bspram_record *rec, size_t n, size_t field)
{
    fprintf(f, "\"%s\":[", key);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%" PRIu64, i ? "," : "", *(const uint64_t *)((const char *)&rec[i] + field));
    fputs("]", f);
}

static void data(FILE *f, void *arg)
{
    const page_args *a = arg;
    const trace_machine *m = a->m;
    const bspram_record *rec = m->log.records;
    const size_t S = m->log.n;
    fprintf(f, "<script>\nvar D = {\"machine\":%u,\"p\":%" PRIu64 ",\"g\":", m->id, m->p);
    bspram_tool_js_number(f, a->g >= 0 && a->l >= 0 ? a->g : NAN);
    fputs(",\"l\":", f);
    bspram_tool_js_number(f, a->g >= 0 && a->l >= 0 ? a->l : NAN);
    fputs(",\"rate\":", f);
    bspram_tool_js_number(f, a->rate > 0 ? a->rate : NAN);
    fputs(",\"glSource\":", f);
    bspram_tool_js_string(f, a->g >= 0 && a->l >= 0 && a->source ? a->source : "");
    /* The labels once each; the supersteps name them by index. */
    size_t *label = bspram_tool_calloc(S ? S : 1, sizeof *label, "bspram prof --html");
    size_t n_labels = 0;
    fputs(",\"labels\":[", f);
    for (size_t i = 0; i < S; i++) {
        size_t j = 0;
        while (j < i && strcmp(rec[j].label, rec[i].label))
            j++;
        if (j < i) {
            label[i] = label[j];
            continue;
        }
        label[i] = n_labels++;
        if (label[i])
            fputc(',', f);
        bspram_tool_js_string(f, rec[i].label);
    }
    fputs("],\n\"steps\":{\"label\":[", f);
    for (size_t i = 0; i < S; i++)
        fprintf(f, "%s%zu", i ? "," : "", label[i]);
    free(label);
    fputs("],\n\"s\":[", f);
    for (size_t i = 0; i < S; i++)
        fprintf(f, "%s%.9g", i ? "," : "", rec[i].seconds);
    fputs("],\n\"x\":[", f);
    for (size_t i = 0; i < S; i++)
        fprintf(f, "%s%.9g", i ? "," : "", rec[i].exchange_seconds);
    fputs("],\n", f);
    static const struct { const char *key; size_t field; } col[] = {
        {"w", offsetof(bspram_record, work)}, {"h", offsetof(bspram_record, h_bytes)},
        {"c", offsetof(bspram_record, charge)}, {"q", offsetof(bspram_record, q)},
        {"r", offsetof(bspram_record, r)}, {"m", offsetof(bspram_record, messages)},
        {"b", offsetof(bspram_record, bytes)}};
    for (size_t k = 0; k < sizeof col / sizeof col[0]; k++) {
        u64_array(f, col[k].key, rec, S, col[k].field);
        fputs(k + 1 < sizeof col / sizeof col[0] ? ",\n" : "},\n", f);
    }
    /* Per process, superstep by superstep (flat: superstep i, process k at
     * i·p + k); records without them are marked in `kept`. */
    const uint64_t p = m->p;
    int fits = p * (uint64_t)S <= PROF_HTML_MAX_ENTRIES;
    int loads = 0, flows = 0;
    for (size_t i = 0; fits && i < S; i++) {
        const bspram_process_load *ld;
        const bspram_flow *fl;
        size_t n;
        loads |= bspram_pattern_loads(&m->pattern, i, &ld, &n);
        flows |= bspram_pattern_get(&m->pattern, i, &fl, &n);
    }
    fputs("\"loads\":", f);
    if (!loads) {
        fputs("null", f);
    } else {
        const bspram_process_load *ld;
        size_t n;
        fputs("{\"kept\":[", f);
        for (size_t i = 0; i < S; i++)
            fprintf(f, "%s%d", i ? "," : "", bspram_pattern_loads(&m->pattern, i, &ld, &n));
        for (int part = 0; part < 2; part++) {
            fputs(part ? "],\n\"t\":[" : "],\n\"w\":[", f);
            for (size_t i = 0; i < S; i++) {
                int kept = bspram_pattern_loads(&m->pattern, i, &ld, &n);
                for (uint64_t k = 0; k < p; k++) {
                    if (i || k)
                        fputc(',', f);
                    if (!kept)
                        fputc('0', f);
                    else if (part)
                        fprintf(f, "%.9g", ld[k].seconds);
                    else
                        fprintf(f, "%" PRIu64, ld[k].work);
                }
            }
        }
        fputs("]}", f);
    }
    fputs(",\n\"bytes\":", f);
    if (!flows) {
        fputs("null", f);
    } else {
        uint64_t *out = bspram_tool_calloc(p, sizeof *out, "bspram prof --html");
        uint64_t *in = bspram_tool_calloc(p, sizeof *in, "bspram prof --html");
        const bspram_flow *fl;
        size_t n;
        fputs("{\"kept\":[", f);
        for (size_t i = 0; i < S; i++)
            fprintf(f, "%s%d", i ? "," : "", bspram_pattern_get(&m->pattern, i, &fl, &n));
        for (int part = 0; part < 2; part++) {
            fputs(part ? "],\n\"in\":[" : "],\n\"out\":[", f);
            for (size_t i = 0; i < S; i++) {
                memset(out, 0, p * sizeof *out);
                memset(in, 0, p * sizeof *in);
                bspram_pattern_get(&m->pattern, i, &fl, &n);
                for (size_t k = 0; k < n; k++)
                    out[fl[k].src] += fl[k].bytes, in[fl[k].dst] += fl[k].bytes;
                for (uint64_t k = 0; k < p; k++)
                    fprintf(f, "%s%" PRIu64, i || k ? "," : "", part ? in[k] : out[k]);
            }
        }
        fputs("]}", f);
        free(out);
        free(in);
    }
    fprintf(f, ",\n\"fits\":%s};\n</script>\n", fits ? "true" : "false");
}

int bspram_tool_prof_html(const char *path, const trace_machine *m, double g, double l,
                          double rate, const char *source)
{
    page_args a = {m, g, l, rate, source};
    return bspram_tool_html_write("prof", "--html", path, (const char *)bspram_tool_page_prof, data,
                                  &a);
}
