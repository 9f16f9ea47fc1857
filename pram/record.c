/* A PRAM run step by step, for a picture of it (pram.h: bspram_pram_record,
 * bspram_pram_write_html).
 *
 * While recording, each phase's requests are copied when the phase ends
 * (trace.c calls bspram__pram_record_phase): they are then still in the
 * components' parts, labelled by their VPs — the same requests the engine
 * combined, so the page shows what the run did, not a second model of it —
 * with each request's kind, the value it wrote (or added), the value a read
 * or a fetch-and-op got back (the answers are in the parts too) and the line
 * of the program that made it (a per-VP or textbook step keeps each
 * request's site beside it in its lane; a bulk phase has its call's). With
 * them each phase keeps its supersteps and charge, read back from the
 * router's records (trace.c), and its violations: every (cell, kind) the
 * engine listed, with its two least VPs. The rises of the weakest model the
 * run needed (weakest.c) come with them. The page, a template
 * (pram/page.html) embedded in the library when it is built, draws them:
 * per step the VPs active, the cells read and written, the values, the
 * concurrent accesses, the violations — every VP that took part marked —
 * and where the run first needed more than EREW.
 *
 * At most BSPRAM__PRAM_RECORD_MAX accesses are kept: from the first phase
 * that would pass them, every later phase keeps its costs only, and the
 * page says from which step on. */
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

/* 2^20 accesses: 40 MiB. */
#define BSPRAM__PRAM_RECORD_MAX ((size_t)1 << 20)
/* Violations kept for the page: 2^16 (past them, counted). */
#define BSPRAM__PRAM_RECORD_VIOLATIONS ((size_t)1 << 16)

extern const unsigned char bspram__pram_page[];

typedef struct rec_access {
    uint32_t vp, seg;
    uint64_t index;
    uint64_t value;   /* written, added or contributed; for a read, the value it got */
    uint64_t answer;  /* fetch-and-op: the value it got (the cell before its contribution) */
    uint32_t site;    /* the line of the program: an index into sites, 0 if not known */
    uint8_t kind;     /* the request's kind (combine.h): read, write, reduce, fetch, combining write */
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

/* A violation: its step, kind, cell and two least VPs (the engine's). */
typedef struct rec_violation {
    uint64_t step, index;
    uint32_t seg, what;
    uint32_t vp[2];
} rec_violation;

/* A line of the program (pram_site), once. */
typedef struct rec_site {
    const char *file;
    unsigned line;
} rec_site;

struct bspram__pram_recorder {
    rec_phase *ph;
    size_t nph, capph;
    rec_access *acc;
    size_t nacc, capacc;
    bool full;              /* a phase passed the limit: no more accesses are kept */
    rec_array *arr;
    size_t narr, caparr;
    rec_violation *viol;
    size_t nviol, capviol;
    rec_site *site;         /* [0] unused: "not known" */
    size_t nsite, capsite;
    size_t last_site;       /* the last one found (consecutive requests share it) */
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
    free(R->viol);
    free(R->site);
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

/* The index of site at in R->site, added if new; 0 for no site. */
static uint32_t site_index(struct bspram__pram_recorder *R, pram_site at)
{
    if (!at.file)
        return 0;
    if (R->last_site && R->site[R->last_site].file == at.file && R->site[R->last_site].line == at.line)
        return (uint32_t)R->last_site;
    for (size_t i = 1; i < R->nsite; i++)
        if (R->site[i].file == at.file && R->site[i].line == at.line)
            return (uint32_t)(R->last_site = i);
    if (R->nsite == 0)
        R->nsite = 1;
    R->site = bspram__grow(R->site, &R->capsite, R->nsite + 1, sizeof *R->site, 16, "bspram_pram_record");
    R->site[R->nsite] = (rec_site){at.file, at.line};
    return (uint32_t)(R->last_site = R->nsite++);
}

/* The sites of component c's requests in a per-VP phase: its lane's, beside
 * its requests (step.c); NULL if the requests are not a lane's. */
static const pram_site *part_sites(const bspram_pram *P, uint64_t c)
{
    const bspram_request *rq = P->parts[c].requests;
    if (!rq) /* the arrays form: a bulk phase's, whose site is the call's */
        return NULL;
    for (unsigned l = 0; l < P->nlanes; l++) {
        const pram_lane *L = &P->lanes[l];
        if (L->rq && rq >= L->rq && rq < L->rq + L->nrq && L->site)
            return L->site + (rq - L->rq);
    }
    return NULL;
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
    R->full |= R->nacc + issued > BSPRAM__PRAM_RECORD_MAX; /* from here on, the costs only */
    *ph = (rec_phase){step, is_read, !R->full, supersteps, charge, violations, R->nacc, 0};
    /* Every violation of the phase (P->conf: the engine's list, by cell). */
    for (uint64_t i = 0; i < violations && R->nviol < BSPRAM__PRAM_RECORD_VIOLATIONS; i++) {
        const bspram_conflict *x = &P->conf[i];
        R->viol = bspram__grow(R->viol, &R->capviol, R->nviol + 1, sizeof *R->viol, 64, "bspram_pram_record");
        R->viol[R->nviol++] = (rec_violation){step, x->address & (BSPRAM_SEGMENT_MAX_CELLS - 1),
                                              (uint32_t)(x->address >> BSPRAM_SEGMENT_SHIFT), x->what,
                                              {x->label[0], x->label[1]}};
        note_array(P, R, (uint32_t)(x->address >> BSPRAM_SEGMENT_SHIFT));
    }
    if (!ph->complete)
        return;
    R->acc = bspram__grow(R->acc, &R->capacc, R->nacc + issued, sizeof *R->acc, 1024,
                          "bspram_pram_record");
    const uint32_t bulk_site = P->per_vp ? 0 : site_index(R, P->site);
    for (uint64_t c = 0; c < P->p; c++) {
        const bspram_batch_part *part = &P->parts[c];
        const pram_site *sites = P->per_vp && part->n ? part_sites(P, c) : NULL;
        for (uint64_t i = 0, slots = bspram__batch_part_slots(part); i < slots; i++) {
            if (bspram__batch_part_gap(part, i))
                continue;
            const bspram_request qi = bspram__batch_part_slot(part, i), *q = &qi;
            uint32_t seg = (uint32_t)(q->address >> BSPRAM_SEGMENT_SHIFT);
            note_array(P, R, seg);
            /* a read's value is the one it got; a fetch-and-op's answer beside its contribution */
            const uint64_t got = part->results ? part->results[i] : 0;
            R->acc[R->nacc++] = (rec_access){q->label, seg, q->address & (BSPRAM_SEGMENT_MAX_CELLS - 1),
                                             q->kind == BSPRAM_READ ? got : q->value, got,
                                             sites ? site_index(R, sites[i]) : bulk_site, q->kind};
        }
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

/* What the page calls a violation's kind (the engine's watch). */
static const char *what_name(unsigned what)
{
    return what == BSPRAM_WATCH_READS ? "read" : what == BSPRAM_WATCH_WRITES ? "write" : "values";
}

/* " at f.c:42" as "f.c:42". */
static const char *bare_site(const char *at) { return strncmp(at, " at ", 4) ? at : at + 4; }

static void data(FILE *f, const bspram_pram *P)
{
    const struct bspram__pram_recorder *R = P->recorder;
    const bspram_pram_stats s = bspram_pram_stats_of(P);
    fprintf(f, "<script>\nvar D = {\"model\":");
    js_string(f, bspram_pram_model_name(P->cfg.model));
    fprintf(f, ",\"n\":%" PRIu64 ",\"p\":%" PRIu64 ",\"per\":%" PRIu64 ",\"first\":%" PRIu64
               ",\"report\":%s,\"fatal\":%s,\"weakest\":",
            P->n, P->p, P->per, R->first_step, P->cfg.report ? "true" : "false",
            P->fatal_pending ? "true" : "false");
    js_string(f, bspram_pram_model_name(s.weakest));
    fprintf(f, ",\"weakest_step\":%" PRIu64 ",\n\"needs\":[", s.weakest_step);
    for (size_t i = 0; i < P->nneeds; i++) {
        const pram_need *n = &P->needs[i];
        char what[BSPRAM__PRAM_CELL_TEXT + 96];
        bspram__pram_need_text(n, what, sizeof what);
        fprintf(f, "%s{\"model\":", i ? "," : "");
        js_string(f, bspram_pram_model_name(n->model));
        fprintf(f, ",\"step\":%" PRIu64 ",\"at\":", n->step);
        js_string(f, bare_site(n->at));
        fputs(",\"what\":", f);
        js_string(f, what);
        fprintf(f, ",\"vps\":[%" PRIu32 ",%" PRIu32 "],\"cell\":", n->found ? n->vp[0] : 0, n->found ? n->vp[1] : 0);
        js_string(f, n->found ? n->cell : "");
        fputc('}', f);
    }
    fputs("],\n\"steps\":{", f);
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
    /* The operations' names, by id, for the kinds of the accesses. */
    fputs("],\n\"ops\":[", f);
    for (unsigned op = 0; op < bspram_combiner_op_count(P->C) && op < 32; op++) {
        const char *name = bspram_op_name(op);
        char user[32];
        if (!name)
            snprintf(user, sizeof user, "user operation %u", op);
        fputs(op ? "," : "", f);
        js_string(f, name ? name : user);
    }
    fputs("],\n\"sites\":[\"\"", f);
    for (size_t i = 1; i < R->nsite; i++) {
        char at[96];
        const char *slash = strrchr(R->site[i].file, '/');
        snprintf(at, sizeof at, "%s:%u", slash ? slash + 1 : R->site[i].file, R->site[i].line);
        fputc(',', f);
        js_string(f, at);
    }
    static const char *const part[] = {"vp", "seg", "index", "value", "answer", "site", "kind"};
    fputs("],\n\"acc\":{", f);
    for (int k = 0; k < 7; k++) {
        fprintf(f, "%s\"%s\":[", k ? ",\n" : "", part[k]);
        for (size_t i = 0; i < R->nacc; i++) {
            const rec_access *a = &R->acc[i];
            const uint64_t v[7] = {a->vp, a->seg, a->index, a->value, a->answer, a->site, a->kind};
            js_u64(f, i ? "," : "", v[k]);
        }
        fputc(']', f);
    }
    /* Every violation recorded; the first BSPRAM_PRAM_REPORT_KEEP with the
     * lines of the program the report names (P->kept), the others' lines
     * are the page's to find among the accesses. */
    fputs("},\n\"violations\":[", f);
    for (size_t i = 0; i < R->nviol; i++) {
        const rec_violation *v = &R->viol[i];
        const char *at = "";
        for (size_t k = 0; k < P->nkept; k++)
            if (P->kept[k].step == v->step && P->kept[k].what == v->what && P->kept[k].vp[0] == v->vp[0] &&
                P->kept[k].vp[1] == v->vp[1])
                at = bare_site(P->kept[k].at);
        char cell[BSPRAM__PRAM_CELL_TEXT];
        const char *name = "";
        for (size_t k = 0; k < R->narr; k++)
            if (R->arr[k].seg == v->seg)
                name = R->arr[k].name;
        snprintf(cell, sizeof cell, "%s[%" PRIu64 "]", name, v->index);
        fprintf(f, "%s{\"step\":%" PRIu64 ",\"what\":\"%s\",\"vps\":[%" PRIu32 ",%" PRIu32 "],\"seg\":%" PRIu32
                   ",\"index\":%" PRIu64 ",\"cell\":",
                i ? "," : "", v->step, what_name(v->what), v->vp[0], v->vp[1], v->seg, v->index);
        js_string(f, cell);
        fputs(",\"at\":", f);
        js_string(f, at);
        fputc('}', f);
    }
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
