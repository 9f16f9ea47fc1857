/* Where the weakest model a run needed rose (pram.h, bspram_pram_stats_of:
 * weakest and weakest_step).
 *
 * The model a phase needed is read from what combining met (trace.c), at
 * O(1) per merge and with no pass over the requests. Which cell, which VPs
 * and which lines of the program needed it is a question for a teacher's
 * checker and for a run's page (run_report.c, record.c): a student is told
 * "step 3 needed CREW: VPs 4 and 9 both read cell A[2] at rank.c:42". It is
 * answered by one pass over the phase's requests — still in P->parts when
 * the phase ends — only when the weakest model rises (at most four times a
 * run: CREW, CRCW-common, CRCW-arbitrary, CRCW-combining) and only when the
 * answer is wanted. The cell named is the least (by array, then index) that
 * shows what the phase needed, the VPs the two least that did it there, so
 * the answer is the same for any thread count. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "pram/pram_internal.h"
#include "bsp/machine_internal.h"

/* One request of the kind that the rise is about. */
typedef struct need_item {
    uint64_t address, value;
    uint32_t label;
} need_item;

static int item_order(const void *pa, const void *pb)
{
    const need_item *a = pa, *b = pb;
    if (a->address != b->address)
        return a->address < b->address ? -1 : 1;
    if (a->label != b->label)
        return a->label < b->label ? -1 : 1;
    return (a->value > b->value) - (a->value < b->value);
}

/* Does a request of this kind take part in what `model` is needed for? */
static bool relevant(bspram_pram_model model, uint8_t kind)
{
    const bool update = kind >= bspram_kind_reduce(0);
    switch (model) {
    case BSPRAM_CREW: return kind == BSPRAM_READ;
    case BSPRAM_CRCW_COMBINING: return update;
    default: return kind != BSPRAM_READ && !update; /* common, arbitrary: the writes */
    }
}

/* In the group [g, e) of one cell (sorted by label, then value), two VPs
 * that show what `model` is needed for, or false. */
static bool shows(bspram_pram_model model, const need_item *g, const need_item *e, uint32_t vp[2])
{
    if (e - g < 2)
        return false;
    switch (model) {
    case BSPRAM_CRCW_COMBINING: /* two updates meet, one VP's two included */
        vp[0] = g[0].label;
        vp[1] = g[1].label;
        return true;
    case BSPRAM_CRCW_ARBITRARY: /* two values: the least VP's first, and the first that differs */
        for (const need_item *x = g + 1; x < e; x++)
            if (x->value != g->value) {
                vp[0] = g->label;
                vp[1] = x->label;
                return true;
            }
        return false;
    default: /* two VPs read (CREW) or write (common) the cell */
        for (const need_item *x = g + 1; x < e; x++)
            if (x->label != g->label) {
                vp[0] = g->label;
                vp[1] = x->label;
                return true;
            }
        return false;
    }
}

/* The least cell of the phase that shows it, with its VPs; false if none
 * (a phase whose merges were not all on this process). */
static bool find(bspram_pram *P, pram_need *need)
{
    size_t count = 0;
    for (uint64_t c = 0; c < P->p; c++)
        for (uint64_t i = 0, slots = bspram__batch_part_slots(&P->parts[c]); i < slots; i++)
            if (!bspram__batch_part_gap(&P->parts[c], i))
                count += relevant(need->model, bspram__batch_part_slot(&P->parts[c], i).kind);
    if (count < 2)
        return false;
    need_item *it = bspram__base_malloc(count * sizeof *it, "bspram_pram (the weakest model's site)");
    size_t k = 0;
    for (uint64_t c = 0; c < P->p; c++)
        for (uint64_t i = 0, slots = bspram__batch_part_slots(&P->parts[c]); i < slots; i++) {
            if (bspram__batch_part_gap(&P->parts[c], i))
                continue;
            const bspram_request qi = bspram__batch_part_slot(&P->parts[c], i), *q = &qi;
            if (relevant(need->model, q->kind))
                it[k++] = (need_item){q->address, q->value, q->label};
        }
    qsort(it, count, sizeof *it, item_order);
    bool found = false;
    for (size_t g = 0, e; g < count && !found; g = e) {
        for (e = g + 1; e < count && it[e].address == it[g].address;)
            e++;
        if (shows(need->model, it + g, it + e, need->vp)) {
            found = true;
            bspram__pram_cell_text(P, it[g].address, need->cell, sizeof need->cell);
            bspram__pram_sites(P, it[g].address, need->vp, need->at, sizeof need->at);
        }
    }
    free(it);
    return found;
}

void bspram__pram_note_need(bspram_pram *P, bspram_pram_model model, uint64_t step)
{
    if (P->nneeds == BSPRAM__PRAM_NEEDS)
        return; /* (the models rise at most four times) */
    pram_need *need = &P->needs[P->nneeds++];
    memset(need, 0, sizeof *need);
    need->model = model;
    need->step = step;
    /* Wanted by a checker's report or a page; over MPI ranks a cell's
     * requests may be on several processes: the step only. */
    if ((P->report_path || P->recorder) && !bspram__bsp_machine_spread(P->m))
        need->found = find(P, need);
}

void bspram__pram_need_text(const pram_need *n, char *buf, size_t len)
{
    if (!n->found) {
        snprintf(buf, len, "%s", "");
        return;
    }
    const bool one = n->vp[0] == n->vp[1];
    char vps[48];
    if (one)
        snprintf(vps, sizeof vps, "VP %" PRIu32, n->vp[0]);
    else
        snprintf(vps, sizeof vps, "VPs %" PRIu32 " and %" PRIu32, n->vp[0], n->vp[1]);
    switch (n->model) {
    case BSPRAM_CREW: snprintf(buf, len, "%s both read cell %s", vps, n->cell); break;
    case BSPRAM_CRCW_COMMON: snprintf(buf, len, "%s both write cell %s", vps, n->cell); break;
    case BSPRAM_CRCW_ARBITRARY:
        snprintf(buf, len, "%s write%s different values to cell %s", vps, one ? "s" : "", n->cell);
        break;
    default:
        if (one)
            snprintf(buf, len, "%s updates cell %s twice", vps, n->cell);
        else
            snprintf(buf, len, "%s both update cell %s", vps, n->cell);
        break;
    }
}
