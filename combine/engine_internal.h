/* bspram — the combining engine's state, shared by its rooms. Internal.
 *
 *   species.h    the key codec (species and address in one word)
 *   wire.h       what travels: forward wire records, compact reductions, replies
 *   group.c      combining at a component: grouping held requests by key
 *   reverse.c    the reverse flow: stored sources and fanning answers out
 *   forward.c    the forward phases: loading requests, routing with spreading,
 *                physical delivery and the adaptive shortcut
 *   owner.c      what the owner of a cell does: reads, updates, conflicts
 *   observe.c    the OBSERVE strategy's degree measurement before phase 1
 *   batch.c      one batch as supersteps of a running team; the host driver
 *   combiner.c   the combiner object: options, operations, names
 */
#ifndef BSPRAM_COMBINE_ENGINE_INTERNAL_H
#define BSPRAM_COMBINE_ENGINE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "combine/combine.h"
#include "combine/ops_internal.h"
#include "combine/species.h"
#include "combine/wire.h"
#include "combine/team_internal.h"
#include "hash/hash_internal.h"

#define BSPRAM__MAX_LEVELS (BSPRAM_MAX_PHASES + 2)
#define BSPRAM__SKETCH_K 4 /* observe.c: entries of a bottom-K sketch, 32 bytes */

/* The reverse-flow record of one component at one level (phase): the
 * sources of each READ/FETCH group it formed there (Valiant §2). */
typedef struct level_rec {
    uint32_t *first; /* first[g]..first[g+1]: sources of group g, unless single */
    uint8_t *kind;
    struct source {
        uint32_t comp, handle;
    } *src;
    uint64_t *contrib; /* [ns]: each source's value, kept only at a level with
                          a FETCH group (§5: the fan-out's multiprefix) */
    /* Counts of 32 bits, as first[] and the handles are: a level_rec per
     * component and level is 56 bytes (p·BSPRAM__MAX_LEVELS of them). */
    uint32_t ng, capg, ns, caps, capc;
    bool single;     /* no two sources met: group g's one source is source g */
} level_rec;

/* What a component keeps across the supersteps of a batch. */
typedef struct comp_state {
    level_rec lv[BSPRAM__MAX_LEVELS];
    wire *arrived;            /* requests that reached their final component early */
    uint32_t *arrived_src;
    uint8_t *arrived_level;
    size_t na, capa;
    unsigned flags;           /* this batch: BATCH_* of its own requests */
    unsigned ukind;           /* this batch: its first update species, or BSPRAM__NO_KIND */
    uint64_t sketch[BSPRAM__SKETCH_K]; /* OBSERVE: the bottom-K sketch (observe.c) */
} comp_state;

/* What a batch holds, known to every lane after phase 1. */
enum {
    BATCH_ANSWERS = 1,   /* a READ or FETCH: the reverse flow runs */
    BATCH_PHYSICAL = 2,  /* an address of a block or cyclic segment (§5) */
    BATCH_SPECIES = 4,   /* more than one update species: owners check conflicts */
};

/* One lane's view of the current batch. Every lane computes the same values
 * (a pure function of the options, the lane-independent batch counter and the
 * phase-1 reduction), so no lane writes state another reads. */
typedef struct batch_state {
    const bspram_request *req;  /* the array form: req[first[c] .. first[c+1]) */
    const uint64_t *first;
    uint64_t *results;
    const bspram_batch_part *parts; /* or the parts form (req = NULL) */
    bspram_basis basis;
    unsigned m_phases; /* m: phases of the basis */
    unsigned M;        /* forward supersteps */
    unsigned phase;    /* current forward phase, or reverse step */
    bool adaptive;
    unsigned observe;  /* OBSERVE: the observation's supersteps before phase 1 */
    uint64_t observed; /* OBSERVE: the degree they measured */
    unsigned flags;    /* BATCH_* over the whole batch, known after phase 1 */
    unsigned ukind;    /* its one update species, or BSPRAM__NO_KIND (none, or
                          more than one: BATCH_SPECIES), known after phase 1 */
    uint64_t seed;     /* the spreading key of this batch: (seed, batch number) */
    bspram__random3_key rkey; /* bspram_random3(seed, ·, ·, ·) inline (hash_internal.h) */
    uint64_t number;   /* batches this lane has run before */
} batch_state;

/* Component c's requests and where their answers go, as a part (the
 * parts form's own, or a view of the array form's). */
static inline bspram_batch_part bspram__batch_part(const batch_state *b, uint64_t c)
{
    if (b->parts)
        return b->parts[c];
    return (bspram_batch_part){.requests = b->req + b->first[c], .n = b->first[c + 1] - b->first[c],
                               .results = b->results ? b->results + b->first[c] : NULL};
}
static inline uint64_t *bspram__batch_results(const batch_state *b, uint64_t c)
{
    if (b->parts)
        return b->parts[c].results;
    return b->results ? b->results + b->first[c] : NULL;
}

/* A lane's scratch: the grouping table and item arrays, reused by every
 * component the lane serves, and the lane's batch state. */
typedef struct lane_scratch {
    struct tslot {
        uint64_t key;
        uint32_t stamp, group;
    } *t; /* one 16-byte slot per probe: key, stamp and group in one line */
    size_t tcap;
    uint32_t stamp;
    wire *items;
    uint32_t *isrc, *igroup;
    uint8_t *ilevel;
    size_t icap;
    wire *g;
    uint32_t *gcount, *ghandle;
    uint64_t *fslot;  /* owner.c: each record's first slot in its cell table */
    size_t capfslot;
    uint64_t *gaddr;  /* the owner's groups' addresses, and */
    void **gcell;     /* their cells (owner.c: looked up together) */
    size_t gcap;
    batch_state b;
    uint64_t *gdest;  /* forward.c: each group's destination (bit 63: final) */
    /* The record channel's partition (bspram__out_count): counts and
     * cursors by destination, and the destinations reached. */
    uint32_t *dcount;
    char **dcur;
    uint32_t *dtouch;
    size_t ntouch;
    /* The lane's records of this phase kept for one reservation per
     * destination (partition.c, bspram__combine_out_stage): each record and
     * its destination, in component and group order. The stage is counted
     * in 16-byte units: a record is sunit of them (1: compact records and
     * replies; 2: wire records), its destination in stage_dst at its first
     * unit; all staged records have one size. */
    compact_wire *stage;
    uint32_t *stage_dst;
    size_t nstage, capstage;
    unsigned sunit;
    /* Replies gathered before they are sent (reverse.c): staged at once
     * (reply_staged: the lane's runs, out_ready), nrep of them by the current
     * component, or else kept here. */
    struct pending_reply {
        uint64_t dst;
        reply r;
    } *rep;
    size_t nrep, caprep;
    bool reply_staged;
    bspram_conflict *conf; /* conflicts met by this lane in the current batch */
    size_t nconf, capconf;
    unsigned met;          /* BSPRAM__MET_* of the current batch (team_internal.h) */
    char pad[64];
} lane_scratch;

struct bspram_combiner {
    bspram_machine *m;
    bspram_space *s;
    const bspram_hash *hash; /* s's H, hashed inline (bspram__hashed_owner) */
    bspram_combine_options o;
    uint64_t p;
    int lanes;
    comp_state *cs;
    lane_scratch *ls;
    bspram_user_op_fn ufn[BSPRAM_MAX_OPS];
    void *uctx[BSPRAM_MAX_OPS];
    uint64_t uid[BSPRAM_MAX_OPS];   /* identities of the user operations */
    char uname[BSPRAM_MAX_OPS][32]; /* their names, for error messages */
    unsigned nops;
    unsigned watch;                 /* BSPRAM_WATCH_* */
    uint64_t observed;              /* OBSERVE: the lanes' agreed degree (observe.c) */
};

/* bspram_hashed_owner(C->s, address) without the call: H(t), in [0, p). */
static inline uint64_t bspram__hashed_owner(const bspram_combiner *C, uint64_t address)
{
    return bspram_hash_below(C->hash, address, C->p);
}

/* a ⊕ b for operation op of combiner C (Valiant §5: any commutative
 * associative operation can be applied when requests are combined). */
static inline uint64_t bspram__apply(const bspram_combiner *C, unsigned op, uint64_t a, uint64_t b)
{
    if (op < BSPRAM_BUILTIN_OPS)
        return bspram__op_apply_builtin(op, a, b);
    return C->ufn[op](a, b, C->uctx[op]);
}

/* "write(arbitrary)", "reduce(sum:u64#7)", … for error messages (combiner.c). */
const char *bspram__combine_kind_name(const bspram_combiner *C, unsigned kind, char *buf, size_t len);

/* batch.c: over MPI, every rank's copy of every live cell made whole (the
 * OR of what each rank's components own); nothing on one machine. */

/* observe.c: the OBSERVE strategy's supersteps before phase 1 (collective:
 * every lane calls it; label(t, j) names superstep j). Sets b->observed,
 * b->basis and b->m_phases; returns the number of supersteps. */
unsigned bspram__combine_observe(bspram_team *t, bspram_combiner *C, batch_state *b,
                                 void (*label)(bspram_team *, unsigned));

/* group.c */
void bspram__combine_items_reserve(lane_scratch *L, size_t n);
void bspram__combine_table_reset(lane_scratch *L, size_t n);
static inline size_t bspram__table_slot(uint64_t key, size_t mask)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask;
}
size_t bspram__combine_group(const bspram_combiner *C, lane_scratch *L, size_t n);
/* bspram__combine_group for an inbox whose runs all hold compact
 * reductions (group.c), none of which will be answered: *n receives the
 * records; the groups' H(t) only with need_owner (not at the owner). */
size_t bspram__combine_group_compact(const bspram_combiner *C, lane_scratch *L, const bspram__run *runs,
                                     size_t nr, size_t *n, bool need_owner);

/* reverse.c */
void bspram__combine_record_sources(comp_state *cs, lane_scratch *L, unsigned level, size_t n, size_t ng,
                                    bool answers);
/* Replies are made per component (bspram__combine_reply) and sent by
 * bspram__combine_send_replies: staged for the lane's runs as they are made
 * where the machine allows them (L->reply_staged, set by
 * bspram__combine_reply_begin for a reverse phase: a reply's run needs no
 * source, its record names its group), else gathered and partitioned by
 * destination for the component's own runs. */
void bspram__combine_reply_begin(const bspram_combiner *C, lane_scratch *L);
void bspram__combine_reply_slow(lane_scratch *L, uint64_t dst, uint32_t handle, uint32_t level, uint64_t value);
void bspram__combine_send_replies(const bspram_combiner *C, lane_scratch *L, bspram_component *self);
void bspram__combine_handle_replies(bspram_combiner *C, const batch_state *b, bspram_component *self,
                            uint64_t c, const bspram__run *runs, size_t nr);

/* forward.c */
bool bspram__combine_forward_step(bspram_component *self, void *combiner);
/* Read a delivered wire record of either size (len bytes at data, sent in
 * phase `sent`) into *w; returns whether it has reached its final
 * component. Inline: it runs once per request per phase. */
static inline bool bspram__unpack(const bspram_combiner *C, const batch_state *b, const void *data, uint64_t len,
                                  unsigned sent, wire *w, bool need_owner)
{
    if (len == sizeof(compact_wire)) {
        const compact_wire *cw = data;
        w->key = cw->key;
        w->value = cw->value;
        w->aux = 1;
        w->owner = need_owner ? (uint32_t)bspram__hashed_owner(C, bspram__key_address(cw->key)) : 0;
        w->handle = 0;
        return sent >= b->m_phases; /* hashed: at H(t) after phase m */
    }
    *w = *(const wire *)data;
    return (w->owner & BSPRAM__FINAL_FLAG) != 0;
}

/* The component that sent wire record w, which came in a run from run_src:
 * outside the adaptive strategy an answered record names it in its aux word
 * (wire.h), so that records from many components may share the lane's runs;
 * elsewhere the run's source is the record's. */
static inline uint32_t bspram__wire_source(const batch_state *b, const wire *w, uint32_t run_src)
{
    return !b->adaptive && bspram__answers(bspram__key_kind(w->key)) ? (uint32_t)w->aux : run_src;
}

/* Do all nr runs hold records of `size` bytes? */
static inline bool bspram__runs_of_size(const bspram__run *runs, size_t nr, uint32_t size)
{
    for (size_t i = 0; i < nr; i++)
        if (runs[i].size != size)
            return false;
    return true;
}

/* Records of one size from a component, partitioned by destination (the
 * record channel, router.h): pass 1 gives each record's destination
 * (bspram__out_count), one reservation per destination reached
 * (bspram__out_reserve) makes a run of exactly its records, and pass 2 writes
 * each record where its destination's cursor is (bspram__out_place), in the
 * order of pass 1, so every inbox holds them in issue order as single posts
 * would. The lane's counts by destination are zero between uses. */
static inline void bspram__out_count(lane_scratch *L, uint64_t dst)
{
    if (L->dcount[dst]++ == 0)
        L->dtouch[L->ntouch++] = (uint32_t)dst;
}
void bspram__combine_out_reserve(lane_scratch *L, bspram_component *self, uint32_t size);
static inline void *bspram__out_place(lane_scratch *L, uint64_t dst, uint32_t size)
{
    char *at = L->dcur[dst];
    L->dcur[dst] = at + size;
    return at;
}
/* A reply made (reverse.c, bspram__combine_send_replies): staged at once
 * where the lane's runs carry the reverse phase's replies. */
static inline void bspram__combine_reply(lane_scratch *L, uint64_t dst, uint32_t handle, uint32_t level,
                                         uint64_t value)
{
    if (!L->reply_staged || L->nstage == L->capstage) {
        bspram__combine_reply_slow(L, dst, handle, level, value);
        return;
    }
    const reply r = {handle, level, value};
    memcpy(&L->stage[L->nstage], &r, sizeof r);
    L->stage_dst[L->nstage++] = (uint32_t)dst;
    bspram__out_count(L, dst);
    L->nrep++;
}
/* The lane's runs (bsp/machine_internal.h, bspram__bsp_reserve_lane): a
 * component whose records are all compact reductions counts them by
 * destination into the lane's counts, as pass 1 does, and keeps them in the
 * lane's stage with their destinations (out_stage: room for n more, counted
 * for component self); out_flush reserves one run per destination the lane
 * reached and places the staged records in order. It runs after the lane's
 * last component of a phase, and before any other component of the lane
 * reserves or posts (so every destination receives in component order,
 * whatever the number of threads). */
void bspram__combine_out_stage(lane_scratch *L, bspram_component *self, size_t n);
void bspram__combine_out_flush(lane_scratch *L, bspram_machine *m, unsigned lane);
/* Room for n more staged units, not counted (forward.c counts the groups
 * it stages once it knows them, with bspram__bsp_account). */
void bspram__combine_out_stage_room(lane_scratch *L, size_t n);
/* Before staging records of `unit` 16-byte units: what the lane staged in
 * records of another size is flushed first, so that every destination
 * still receives in component order (a run has one record size). */
static inline void bspram__combine_out_unit(lane_scratch *L, bspram_machine *m, unsigned lane, unsigned unit)
{
    if (L->nstage && L->sunit != unit)
        bspram__combine_out_flush(L, m, lane);
    L->sunit = unit;
}
/* Before staging n more units: flush what the lane staged if the stage
 * would outgrow max(2^16, 256·p) units (20 bytes each: 20 MiB at p = 4096;
 * a wire record is two), so that it never holds a large phase's records a
 * second time beside the router's (160 MiB a lane for 2^24 operations). A flush
 * reserves a run per destination reached, 256 records a run on average: at
 * 64·p the extra runs cost 2 to 3 % more instructions per scatter-reduce
 * operation, at 16·p 4 to 11 %. The records count messages, never runs,
 * so they do not move. */
void bspram__combine_out_bound(lane_scratch *L, bspram_machine *m, unsigned lane, uint64_t p, size_t n);

/* Make the lane's counts by destination (p of them) when first needed;
 * false when p is too large for them (more than BSPRAM__OUT_MAX_P): the
 * caller then reserves a run per record. */
#define BSPRAM__OUT_MAX_P (UINT64_C(1) << 22)
bool bspram__combine_out_ready(lane_scratch *L, uint64_t p);

/* owner.c: the owner's level (reverse step 1). self NULL: no answers to send. */
void bspram__combine_owner_level(bspram_combiner *C, bspram_component *self, uint64_t c, unsigned lane,
                         const bspram__run *runs, size_t nr);

#endif
