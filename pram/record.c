/* A PRAM run step by step, for a picture of it (pram.h: bspram_pram_record,
 * bspram_pram_write_html).
 *
 * While recording, each phase's requests are copied when the phase ends
 * (trace.c calls bspram__pram_record_phase): they are then still in the
 * components' parts, labelled by their VPs — the same requests the engine
 * combined, so the page shows what the run did, not a second model of it.
 * With them each phase keeps its supersteps and charge, read back from the
 * router's records (trace.c), and its violations. The page, a template
 * (pram/page.html) embedded in the library when it is built, draws them:
 * per step the VPs active, the cells read and written, the concurrent ones
 * and the violations (report mode keeps the first BSPRAM_PRAM_REPORT_KEEP,
 * with their VPs and cells).
 *
 * At most BSPRAM__PRAM_RECORD_MAX accesses are kept: past them the phases
 * keep their costs only, and the page says where the accesses stop. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "base/output.h"
#include "pram/pram_internal.h"

/* 2^20 accesses: 24 MiB. */
#define BSPRAM__PRAM_RECORD_MAX ((size_t)1 << 20)

extern const unsigned char bspram__pram_page[];

typedef struct rec_access {
    uint32_t vp, seg;
    uint64_t index, value;
} rec_access;

typedef struct rec_phase {
    uint64_t step;
    bool read;
    bool complete;          /* its accesses are all kept */
    uint64_t supersteps, charge, violations;
    size_t first, n;        /* its accesses */
} rec_phase;

typedef struct rec_array {
    uint32_t seg;
    uint64_t cells;
    char name[BSPRAM__PRAM_NAME];
} rec_array;

struct bspram__pram_recorder {
    rec_phase *ph;
    size_t nph, capph;
    rec_access *acc;
    size_t nacc, capacc;
    rec_array *arr;
    size_t narr, caparr;
    uint64_t first_step;    /* the first step recorded */
};

void bspram_pram_record(bspram_pram *P, bool on)
{
    BSPRAM_NONNULL(P);
    if (on && bspram_ranks() > 1)
        bspram__base_fatal("bspram_pram_record(on=true): the accesses are recorded on one process; "
                           "this run has %u MPI ranks", bspram_ranks());
    if (on && !P->recorder) {
        P->recorder = bspram__base_calloc(1, sizeof *P->recorder, "bspram_pram_record");
        P->recorder->first_step = P->step + 1;
    } else if (!on) {
        bspram__pram_record_free(P);
    }
}

void bspram__pram_record_free(bspram_pram *P)
{
    struct bspram__pram_recorder *R = P->recorder;
    if (!R)
        return;
    free(R->ph);
    free(R->acc);
    free(R->arr);
    free(R);
    P->recorder = NULL;
}

/* The array of segment seg, copied the first time a phase touches it (it
 * may be freed before the page is written). */
static void note_array(const bspram_pram *P, struct bspram__pram_recorder *R, uint32_t seg)
{
    for (size_t i = 0; i < R->narr; i++)
        if (R->arr[i].seg == seg)
            return;
    R->arr = bspram__grow(R->arr, &R->caparr, R->narr + 1, sizeof *R->arr, 8, "bspram_pram_record");
    rec_array *a = &R->arr[R->narr++];
    memset(a, 0, sizeof *a);
    a->seg = seg;
    if (seg < P->narrays && P->arrays[seg].live) {
        a->cells = P->arrays[seg].cells;
        if (P->arrays[seg].name[0])
            memcpy(a->name, P->arrays[seg].name, sizeof a->name);
    }
    if (!a->name[0])
        snprintf(a->name, sizeof a->name, "#%" PRIu32, seg);
}

void bspram__pram_record_phase(bspram_pram *P, uint64_t step, bool is_read, uint64_t supersteps,
                               uint64_t charge, uint64_t violations)
{
    struct bspram__pram_recorder *R = P->recorder;
    uint64_t issued = 0;
    for (uint64_t c = 0; c < P->p; c++)
        issued += P->parts[c].n;
    R->ph = bspram__grow(R->ph, &R->capph, R->nph + 1, sizeof *R->ph, 64, "bspram_pram_record");
    rec_phase *ph = &R->ph[R->nph++];
    *ph = (rec_phase){step, is_read, R->nacc + issued <= BSPRAM__PRAM_RECORD_MAX, supersteps, charge,
                      violations, R->nacc, 0};
    if (!ph->complete)
        return;
    R->acc = bspram__grow(R->acc, &R->capacc, R->nacc + issued, sizeof *R->acc, 1024,
                          "bspram_pram_record");
    for (uint64_t c = 0; c < P->p; c++)
        for (uint64_t i = 0; i < P->parts[c].n; i++) {
            const bspram_request *q = &P->parts[c].requests[i];
            uint32_t seg = (uint32_t)(q->address >> BSPRAM_SEGMENT_SHIFT);
            note_array(P, R, seg);
            R->acc[R->nacc++] = (rec_access){q->label, seg, q->address & (BSPRAM_SEGMENT_MAX_CELLS - 1),
                                             q->value};
        }
    ph->n = R->nacc - ph->first;
}

/* ---- the page ---- */

static void js_string(FILE *f, const char *s)
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

/* A whole number as JavaScript reads it exactly: a number up to 2^53, a
 * string beyond. */
static void js_u64(FILE *f, const char *sep, uint64_t v)
{
    fprintf(f, v <= (UINT64_C(1) << 53) ? "%s%" PRIu64 : "%s\"%" PRIu64 "\"", sep, v);
}

static void data(FILE *f, const bspram_pram *P)
{
    const struct bspram__pram_recorder *R = P->recorder;
    fprintf(f, "<script>\nvar D = {\"model\":");
    js_string(f, bspram_pram_model_name(P->cfg.model));
    fprintf(f, ",\"n\":%" PRIu64 ",\"p\":%" PRIu64 ",\"per\":%" PRIu64 ",\"first\":%" PRIu64
               ",\"report\":%s,\n\"steps\":{",
            P->n, P->p, P->per, R->first_step, P->cfg.report ? "true" : "false");
    static const char *const key[] = {"step", "reads", "writes", "violations", "supersteps", "charge"};
    for (int k = 0; k < 6; k++) {
        fprintf(f, "%s\"%s\":[", k ? ",\n" : "", key[k]);
        for (size_t i = 0; i < P->ntrace; i++) {
            const bspram_pram_step_record *t = &P->trace[i];
            const uint64_t v[6] = {t->step, t->reads, t->writes, t->violations, t->supersteps, t->charge};
            js_u64(f, i ? "," : "", v[k]);
        }
        fputc(']', f);
    }
    fputs("},\n\"phases\":[", f);
    for (size_t i = 0; i < R->nph; i++) {
        const rec_phase *h = &R->ph[i];
        fprintf(f, "%s[%" PRIu64 ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu,%zu,%d]", i ? "," : "",
                h->step, h->read, h->supersteps, h->charge, h->violations, h->first, h->n, h->complete);
    }
    fputs("],\n\"arrays\":[", f);
    for (size_t i = 0; i < R->narr; i++) {
        fprintf(f, "%s{\"seg\":%" PRIu32 ",\"cells\":%" PRIu64 ",\"name\":", i ? "," : "", R->arr[i].seg,
                R->arr[i].cells);
        js_string(f, R->arr[i].name);
        fputc('}', f);
    }
    static const char *const part[] = {"vp", "seg", "index", "value"};
    fputs("],\n\"acc\":{", f);
    for (int k = 0; k < 4; k++) {
        fprintf(f, "%s\"%s\":[", k ? ",\n" : "", part[k]);
        for (size_t i = 0; i < R->nacc; i++) {
            const rec_access *a = &R->acc[i];
            js_u64(f, i ? "," : "", k == 0 ? a->vp : k == 1 ? a->seg : k == 2 ? a->index : a->value);
        }
        fputc(']', f);
    }
    fputs("},\n\"violations\":[", f);
    for (size_t i = 0; i < P->nkept; i++) {
        const pram_violation *v = &P->kept[i];
        fprintf(f, "%s{\"step\":%" PRIu64 ",\"what\":\"%s\",\"vps\":[%" PRIu32 ",%" PRIu32 "],\"cell\":",
                i ? "," : "", v->step,
                v->what == BSPRAM_WATCH_READS ? "read" : v->what == BSPRAM_WATCH_WRITES ? "write" : "values",
                v->vp[0], v->vp[1]);
        js_string(f, v->cell);
        fputc('}', f);
    }
    const bspram_pram_stats s = bspram_pram_stats_of(P);
    fprintf(f, "],\n\"violations_total\":%" PRIu64 ",\"charge\":%" PRIu64 ",\"slowdown\":",
            s.violations, s.charge);
    fprintf(f, isfinite(s.slowdown) ? "%.6g" : "null", s.slowdown);
    fputs("};\n</script>\n", f);
}

int bspram_pram_write_html(const bspram_pram *P, const char *path)
{
    BSPRAM_NONNULL(P);
    BSPRAM_NONNULL(path);
    if (!P->recorder)
        bspram__base_fatal("bspram_pram_write_html(path=\"%s\"): nothing was recorded; call "
                           "bspram_pram_record(P, true) before the steps", path);
    const char *page = (const char *)bspram__pram_page, *mark = strstr(page, "<!--BSPRAM-DATA-->");
    bspram_output out;
    if (bspram__base_output_open(&out, path) != 0)
        return -1;
    FILE *f = out.f;
    fwrite(page, 1, (size_t)(mark - page), f);
    data(f, P);
    fputs(mark + strlen("<!--BSPRAM-DATA-->"), f);
    return bspram__base_output_close(&out);
}
