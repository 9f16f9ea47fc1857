/* Violations of the exclusive and common rules (pram.h).
 *
 * They are found where combining meets them: Valiant's combining (1990, §4)
 * merges the requests for one cell on their way to its owner, and a merge
 * of two reads (EREW), two writes (EREW, CREW) or two different written
 * values (CRCW-common) is exactly a violation. So the engine watches its
 * merges (bspram_combiner_watch) and lists the conflicts, one per (cell,
 * kind), with the least pair of labels — the labels are VP ids — sorted by
 * cell: the same list for any thread count. No second pass over the
 * requests is made. DISTINCT: a VP's own repeated access to a cell in one
 * phase competes with no other VP and is no violation.
 *
 * Fatal mode ends the job on the batch's first (least) conflict with one
 * line, once the phase is recorded (its costs and the model it needed, for
 * a checker's report and a page: run_report.c); report mode counts them per
 * step (trace.c) and keeps the first BSPRAM_PRAM_REPORT_KEEP in full. The writes are decided by the arbitrary
 * rule in both modes (bspram__pram_write_kind), so report mode "goes on
 * under the CRCW-arbitrary rule" with nothing to redo.
 *
 * A violation names where the program made the accesses (pram.h: the
 * macros capture __FILE__ and __LINE__): a bulk call's site, or for a
 * per-VP step the site of each named VP's request, found in its lane's
 * buffer — a search made only for the violations printed or kept. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "pram/pram_internal.h"
#include "bsp/machine_internal.h"

void bspram__pram_watch(bspram_pram *P, bool is_read)
{
    unsigned w = 0;
    switch (P->cfg.model) {
    case BSPRAM_EREW:
        w = (is_read ? BSPRAM_WATCH_READS : BSPRAM_WATCH_WRITES) | BSPRAM_WATCH_DISTINCT;
        break;
    case BSPRAM_CREW:
        w = is_read ? 0 : BSPRAM_WATCH_WRITES | BSPRAM_WATCH_DISTINCT;
        break;
    case BSPRAM_CRCW_COMMON:
        w = is_read ? 0 : BSPRAM_WATCH_VALUES;
        break;
    default:
        break;
    }
    bspram_combiner_watch(P->C, w);
}

/* A site as text: the file's name without its directories, and the line. */
typedef struct site_text {
    char file[56];
    unsigned line; /* 0: not known */
} site_text;

/* The site of VP vp's request for `cell` in the phase just run. Over MPI
 * the VP's rank has it: every rank calls this alike and the ranks sum the
 * words of the text (the others give zeros), so every rank spells the same
 * line. */
static site_text site_of(bspram_pram *P, uint64_t cell, uint32_t vp)
{
    pram_site at = {NULL, 0};
    if (!P->per_vp) {
        at = P->site;
    } else {
        unsigned lo, hi;
        bspram__bsp_machine_lanes(P->m, &lo, &hi);
        for (unsigned l = lo; l < hi && !at.file; l++) {
            const pram_lane *L = &P->lanes[l];
            for (size_t i = 0; i < L->nrq; i++)
                if (L->rq[i].address == cell && L->rq[i].label == vp) {
                    at = L->site[i];
                    break;
                }
        }
    }
    union {
        uint64_t w[8];
        site_text t;
    } u;
    memset(&u, 0, sizeof u);
    if (at.file) {
        const char *slash = strrchr(at.file, '/');
        snprintf(u.t.file, sizeof u.t.file, "%s", slash ? slash + 1 : at.file);
        u.t.line = at.line;
    }
    if (P->per_vp && bspram__bsp_machine_spread(P->m))
        bspram__bsp_machine_sum(P->m, u.w, 8);
    return u.t;
}

/* " at f.c:42", " at f.c:42 and f.c:45", or "" if not known. */
static void spell_sites(const site_text s[2], char *buf, size_t len)
{
    buf[0] = 0;
    size_t o = 0;
    for (int i = 0; i < 2 && o < len; i++) {
        if (!s[i].line || (i == 1 && s[0].line == s[1].line && !strcmp(s[0].file, s[1].file)))
            continue;
        o += (size_t)snprintf(buf + o, len - o, "%s%s:%u", o ? " and " : " at ", s[i].file, s[i].line);
    }
}

void bspram__pram_sites(bspram_pram *P, uint64_t cell, const uint32_t vp[2], char *buf, size_t len)
{
    const site_text s[2] = {site_of(P, cell, vp[0]), site_of(P, cell, vp[1])};
    spell_sites(s, buf, len);
}

/* The sites of a conflict's two VPs, spelled. */
static void sites(bspram_pram *P, const bspram_conflict *x, char *buf, size_t len)
{
    bspram__pram_sites(P, x->address, x->label, buf, len);
}

/* The line of a violation, without "bspram: ". */
static void spell(const bspram_pram *P, uint64_t step, unsigned what, const uint32_t vp[2],
                  const char *at, const char *cell, char *buf, size_t len)
{
    const char *model = bspram_pram_model_name(P->cfg.model);
    if (what == BSPRAM_WATCH_VALUES) {
        if (vp[0] == vp[1]) /* one VP wrote the cell twice, with two values */
            snprintf(buf, len, "%s violation in step %" PRIu64 "%s: VP %" PRIu32
                     " writes different values to cell %s", model, step, at, vp[0], cell);
        else
            snprintf(buf, len, "%s violation in step %" PRIu64 "%s: VPs %" PRIu32 " and %" PRIu32
                     " write different values to cell %s", model, step, at, vp[0], vp[1], cell);
        return;
    }
    snprintf(buf, len, "%s violation in step %" PRIu64 "%s: VPs %" PRIu32 " and %" PRIu32
             " both %s cell %s", model, step, at, vp[0], vp[1],
             what == BSPRAM_WATCH_READS ? "read" : "write", cell);
}

uint64_t bspram__pram_conflicts(bspram_pram *P)
{
    size_t n = bspram_combiner_conflicts(P->C, P->conf, P->capconf);
    if (n == 0)
        return 0;
    if (n > P->capconf) {
        P->conf = bspram__grow(P->conf, &P->capconf, n, sizeof *P->conf, 16, "bspram_pram");
        bspram_combiner_conflicts(P->C, P->conf, P->capconf);
    }
    /* Fatal mode: the first is kept (a page shows it) and ends the run once
     * the phase is recorded, its costs and the model it needed with it
     * (bspram__pram_end_phase, bspram__pram_fatal_end). */
    const size_t keep = P->cfg.report ? n : 1;
    for (size_t i = 0; i < keep && P->nkept < BSPRAM_PRAM_REPORT_KEEP; i++) {
        pram_violation *v = &P->kept[P->nkept++];
        v->step = P->step;
        v->what = P->conf[i].what;
        v->vp[0] = P->conf[i].label[0];
        v->vp[1] = P->conf[i].label[1];
        sites(P, &P->conf[i], v->at, sizeof v->at);
        bspram__pram_cell_text(P, P->conf[i].address, v->cell, sizeof v->cell);
    }
    if (!P->cfg.report) {
        const pram_violation *v = &P->kept[P->nkept - 1];
        spell(P, v->step, v->what, v->vp, v->at, v->cell, P->fatal, sizeof P->fatal);
        P->fatal_pending = true;
    }
    return n;
}

void bspram__pram_violation_text(const bspram_pram *P, size_t i, char *buf, size_t len)
{
    const pram_violation *v = &P->kept[i];
    spell(P, v->step, v->what, v->vp, v->at, v->cell, buf, len);
}

uint64_t bspram_pram_report(const bspram_pram *P, FILE *out)
{
    BSPRAM_NONNULL(P);
    BSPRAM_NONNULL(out);
    const char *model = bspram_pram_model_name(P->cfg.model);
    const uint64_t total = P->stats.violations;
    if (total == 0) {
        fprintf(out, "%s: no violations\n", model);
        return 0;
    }
    uint64_t steps = 0;
    for (size_t i = 0; i < P->ntrace; i++)
        steps += P->trace[i].violations > 0;
    fprintf(out, "%s: %" PRIu64 " violation%s in %" PRIu64 " step%s\n", model, total,
            total == 1 ? "" : "s", steps, steps == 1 ? "" : "s");
    for (size_t i = 0; i < P->ntrace; i++)
        if (P->trace[i].violations)
            fprintf(out, "step %" PRIu64 ": %" PRIu64 "\n", P->trace[i].step, P->trace[i].violations);
    char line[512];
    for (size_t i = 0; i < P->nkept; i++) {
        const pram_violation *v = &P->kept[i];
        spell(P, v->step, v->what, v->vp, v->at, v->cell, line, sizeof line);
        fprintf(out, "%s\n", line);
    }
    if (total > P->nkept)
        fprintf(out, "... and %" PRIu64 " more\n", total - P->nkept);
    return total;
}
