/* Steps, their costs, and the per-step trace (pram.h).
 *
 * Every cost is read back from the router's records, never computed from a
 * formula: a phase's supersteps are the records its batch appended, and its
 * charge the sum of their max(q, r) — Valiant's (1990, §3) cost of an
 * h-relation on his router. The slowdown divides the total by
 * steps × ceil(n/p), the time an ideal emulation with slack ceil(n/p) would
 * take (each component doing its VPs' accesses one after the other).
 *
 * The weakest model a run needed is read from what combining met: a merge
 * of two requests for one cell is a concurrent access (Valiant 1990, §4),
 * so the engine says after each batch whether two VPs read one cell, wrote
 * one cell, wrote different values there, or combined updates
 * (bspram__combine_met) — whatever the PRAM's model, at O(1) per merge.
 *
 * The machine's log is emptied when it holds many records
 * (bspram_machine_clear_records, which first gives them to BSPRAM_TRACE),
 * so a run of millions of steps keeps only its per-step trace. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "base/output.h"
#include "pram/pram_internal.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

/* The weakest model under which a phase whose merges met `met` is legal
 * (pram.h: EREW < CREW < CRCW-common < CRCW-arbitrary/priority <
 * CRCW-combining). */
static bspram_pram_model needed(unsigned met)
{
    if (met & BSPRAM__MET_UPDATES)
        return BSPRAM_CRCW_COMBINING;
    if (met & BSPRAM__MET_VALUES)
        return BSPRAM_CRCW_ARBITRARY;
    if (met & BSPRAM__MET_WRITES)
        return BSPRAM_CRCW_COMMON;
    if (met & BSPRAM__MET_READS)
        return BSPRAM_CREW;
    return BSPRAM_EREW;
}

uint64_t bspram__pram_issued(const bspram_pram *P)
{
    uint64_t issued = 0; /* components that run elsewhere (over MPI) have n = 0 here */
    for (uint64_t c = 0; c < P->p; c++)
        issued += P->parts[c].n;
    bspram__bsp_machine_sum(P->m, &issued, 1);
    return issued;
}

/* A read phase whose reads met at cells, run in one phase of the engine
 * because the program asked for it (a degree hint, or a fixed one-phase
 * basis): every read of a cell then goes to its owner, so a cell that d VPs
 * read costs d — O(p) for a cell all components read — where more phases
 * would have combined them on the way (Valiant 1992, §2; docs/pram.md).
 * Warned once per PRAM, when the charge is 8 times the ideal and more. */
static void warn_hint(bspram_pram *P, uint64_t step, bspram_totals tot, uint64_t issued)
{
    const bspram_combine_options *o = &P->cfg.combine;
    const bool hinted = o->strategy == BSPRAM_STRATEGY_AUTO && o->degree_hint > 0;
    const bool fixed = o->strategy == BSPRAM_STRATEGY_FIXED && o->basis.m == 1;
    const uint64_t ideal = 2 * ((issued + P->p - 1) / P->p);
    if (P->warned_hint || (!hinted && !fixed) || tot.supersteps != 2 || P->p < 2 || tot.charge < 8 * ideal ||
        tot.charge < 64)
        return;
    P->warned_hint = true;
    if (bspram_rank() != 0)
        return;
    char how[48];
    if (hinted)
        snprintf(how, sizeof how, "degree_hint = %" PRIu64, (uint64_t)o->degree_hint);
    else
        snprintf(how, sizeof how, "the fixed basis %" PRIu64, P->p);
    fprintf(stderr, "bspram: warning: step %" PRIu64 ": its concurrent reads cost a charge of %" PRIu64
            " against the ideal %" PRIu64 ": with %s the engine runs one phase, which sends every read of a "
            "cell to its owner (O(p) for a cell all VPs read); a degree hint helps only where no cell is read "
            "by many VPs: use config.combine.degree_hint = 0 or the ADAPTIVE strategy (bspram pram: --basis "
            "auto:0 or adaptive)\n", step, tot.charge, ideal, how);
}

bspram_pram_step_record *bspram__pram_begin_phase(bspram_pram *P, pram_phase phase, bool fresh)
{
    if (!fresh && phase == PHASE_WRITE && P->phase == PHASE_READ) {
        P->phase = PHASE_WRITE; /* the write phase of the gather's step */
        return &P->trace[P->ntrace - 1];
    }
    P->trace = bspram__grow(P->trace, &P->captrace, P->ntrace + 1, sizeof *P->trace, 64, "bspram_pram");
    bspram_pram_step_record *rec = &P->trace[P->ntrace++];
    memset(rec, 0, sizeof *rec);
    rec->step = ++P->step;
    P->stats.steps++;
    P->phase = phase;
    return rec;
}

void bspram__pram_close_step(bspram_pram *P) { P->phase = PHASE_NONE; }

size_t bspram__pram_log_mark(bspram_pram *P)
{
    size_t n;
    bspram_machine_records(P->m, &n);
    return n;
}

void bspram__pram_end_phase(bspram_pram *P, bspram_pram_step_record *rec, size_t mark, bool is_read,
                            bool answered, uint64_t issued, uint64_t violations)
{
    size_t n;
    const bspram_record *r = bspram_machine_records(P->m, &n);
    bspram_totals tot = bspram_records_total(r + mark, n - mark);
    rec->supersteps += tot.supersteps;
    rec->charge += tot.charge;
    rec->violations += violations;
    if (is_read)
        rec->reads += issued;
    else
        rec->writes += issued;
    P->stats.supersteps += tot.supersteps;
    P->stats.charge += tot.charge;
    P->stats.work += issued;
    P->stats.ideal += (issued + P->p - 1) / P->p * (answered ? 2 : 1); /* pram.h: the overhead */
    P->stats.violations += violations;
    const unsigned met = bspram__combine_met(P->C);
    const bspram_pram_model need = needed(met);
    if (need > P->stats.weakest) {
        P->stats.weakest = need;
        P->stats.weakest_step = rec->step;
        bspram__pram_note_need(P, need, rec->step); /* while the requests are in P->parts */
    }
    if (is_read && (met & BSPRAM__MET_READS))
        warn_hint(P, rec->step, tot, issued);
    if (P->recorder)
        bspram__pram_record_phase(P, rec->step, is_read, tot.supersteps, tot.charge, violations);
    if (n > BSPRAM__PRAM_KEEP_RECORDS)
        bspram_machine_clear_records(P->m);
    if (P->fatal_pending && !P->fatal_later) /* a violation in fatal mode: the phase is counted and recorded */
        bspram__pram_fatal_end(P);
}

bspram_pram_stats bspram_pram_stats_of(const bspram_pram *P)
{
    BSPRAM_NONNULL(P);
    bspram_pram_stats s = P->stats;
    s.slowdown = s.steps ? (double)s.charge / ((double)s.steps * (double)P->per) : 0.0;
    s.overhead = s.ideal ? (double)s.charge / (double)s.ideal : 0.0;
    return s;
}

const bspram_pram_step_record *bspram_pram_trace(const bspram_pram *P, size_t *n)
{
    BSPRAM_NONNULL(P);
    BSPRAM_NONNULL(n);
    *n = P->ntrace;
    return P->trace;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int write_trace(const bspram_pram *P, const char *path);

int bspram_pram_write_trace(const bspram_pram *P, const char *path)
{
    BSPRAM_NONNULL(P);
    BSPRAM_NONNULL(path);
    /* Over MPI every rank has the trace: rank 0 writes the file, and every
     * rank returns when it is complete, with rank 0's result. */
    uint64_t status[2] = {0, 0};
    if (bspram_rank() == 0 && write_trace(P, path) != 0)
        status[0] = 1, status[1] = (uint64_t)errno;
    bspram__bsp_machine_sum(P->m, status, 2);
    if (status[0]) {
        errno = (int)status[1];
        return -1;
    }
    return 0;
}

static int write_trace(const bspram_pram *P, const char *path)
{
    bspram_output out;
    if (bspram__base_output_open(&out, path) != 0)
        return -1;
    FILE *f = out.f;
    const int json = ends_with(path, ".json");
    if (json)
        fputs("[", f);
    else
        fputs("step,reads,writes,violations,supersteps,charge\n", f);
    for (size_t i = 0; i < P->ntrace; i++) {
        const bspram_pram_step_record *r = &P->trace[i];
        if (json)
            fprintf(f, "%s\n{\"step\":%" PRIu64 ",\"reads\":%" PRIu64 ",\"writes\":%" PRIu64
                    ",\"violations\":%" PRIu64 ",\"supersteps\":%" PRIu64 ",\"charge\":%" PRIu64 "}",
                    i ? "," : "", r->step, r->reads, r->writes, r->violations, r->supersteps, r->charge);
        else
            fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->step,
                    r->reads, r->writes, r->violations, r->supersteps, r->charge);
    }
    if (json)
        fputs("\n]\n", f);
    return bspram__base_output_close(&out);
}
