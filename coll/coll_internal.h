/* The collectives' frame (not installed): what every algorithm file is
 * written with. An algorithm is a schedule of rounds; in each round a member
 *   - names its window: where the round's puts to it land (bspram__coll_window),
 *   - puts to other members at byte offsets of their windows (bspram__coll_put),
 *   - ends the round (bspram__coll_round), a bsp_sync of the whole machine,
 * and computes locally between rounds. Ranks are the group's (0..n−1); the
 * frame maps them to pids. An algorithm never calls bsp_sync or bsp_put
 * itself, and never sees the group.
 *
 * A call (calls.c) checks the arguments, picks the algorithm (select.c),
 * opens the frame (bspram__coll_begin), runs the algorithm and closes the frame
 * (bspram__coll_end), which takes part in the rounds other groups still need.
 */
#ifndef BSPRAM_COLL_COLL_INTERNAL_H
#define BSPRAM_COLL_COLL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bsp/bsplib_internal.h"
#include "coll/bsp_coll.h"
#include "combine/combine.h"
#include "coll/gl_cache.h"

/* The group behind a bsp_coll_group * (group.c). */
struct bsp_coll_group {
    unsigned n, rank;
    bsp_pid_t *members; /* [rank] → pid */
    uint64_t hash;      /* of the member list (the agreement check names a group by it) */
};

/* "0 1 2 3": a member list as text, cut with "…" to fit len (group.c). */
void bspram__coll_list_text(char *buf, size_t len, const bsp_pid_t *m, unsigned n);

/* The most argument words a call's signature covers. */
#define COLL_SIG_WORDS 8

/* One collective call of one process. */
typedef struct coll_call {
    bsplib_proc *me;
    const char *name;         /* "bsp_coll_allgather": the records' label */
    unsigned n, rank;         /* group size, this process's rank */
    const bsp_pid_t *members; /* rank → pid; NULL: rank = pid */
    const bsp_coll_group *group; /* NULL: the whole machine */
    unsigned sig;             /* the arguments' signature (frame.c) */
    unsigned mask;            /* the bits of sig this process vouches for */
    unsigned tag;             /* what every round's tag says of them: s and ~s,
                                 masked (bspram__coll_round) */
    size_t *log;              /* the process's log[2] (coll_state) if it keeps
                                 the call's place in the log, else NULL */
    unsigned nwords;          /* the arguments that must agree, as words (the
                                 caller's array, alive during the call): */
    const uint64_t *words;
    int grouped;              /* a group call: padded to the largest group */
    int then;                 /* rounds follow the running algorithm (set by a
                                 composite around its first part) */
    int rounds;               /* rounds ended so far */
    unsigned more;            /* some process has rounds to come (the last OR) */
    const struct coll_desc *desc; /* the call's arguments, for error lines */
} coll_call;

/* A call's arguments as the user gave them (calls.c formats them only for
 * an error line: formatting on every call would cost more than a round). */
typedef struct coll_desc {
    const bsp_coll_group *g;
    const void *send;
    const void *recv;
    size_t size;        /* bytes, block or count, named by size_name */
    const char *size_name;
    long root;          /* −1: none */
    long op;            /* −1: none */
    const bsp_coll_options *opt;
    const char *text;   /* or a ready text (groups) */
    const char *const *names; /* the signature's words' names, for the line
                                 that names the arguments that differ */
} coll_desc;

/* The arguments as text ("g=…, send=…, …"); without the buffers and the
 * group (which differ between processes) if !buffers. */
void bspram__coll_describe(const coll_call *c, char *buf, size_t len, int buffers);

/* A reduction's operation, resolved (ops.c). */
typedef struct coll_op {
    unsigned id;
    bspram_user_op_fn user; /* NULL: built in */
    void *ctx;
    uint64_t identity;
} coll_op;

/* The resolved arguments of an algorithm: what the call and the options
 * say, with defaults filled in (calls.c). */
typedef struct coll_args {
    const void *send;  /* never BSP_COLL_IN_PLACE here: resolved by calls.c */
    void *recv;        /* (for broadcast, buf is recv, and send == recv) */
    size_t block;      /* bytes per block; reductions: 8·count */
    size_t count;      /* words (reductions and scans) */
    unsigned root;     /* a rank */
    unsigned op;       /* a reduction's operation id, */
    coll_op fold;      /* resolved once per call (calls.c), not per algorithm */
    int exclusive;     /* scan: exclusive */
    unsigned radix, ports;
    bsp_coll_tradeoff tradeoff;
} coll_args;

/* ---- the frame (frame.c) ---- */

/* What a call is, in its signature: the operations (bsp_coll_op), then: */
enum { COLL_CODE_EXSCAN = 8, COLL_CODE_GROUP = 9, COLL_CODE_SDP = 10 };

/* Open a call: `name` labels its records; `desc` holds the arguments
 * (printed in error lines, desc->names naming the words); sig_words (at
 * most COLL_SIG_WORDS) are the arguments that must agree: on the whole
 * machine every process's, in a group call (g not NULL) the members' of
 * each group — groups may differ from each other. The first round's
 * barrier checks them (frame.c), with the code (the operation,
 * COLL_CODE_EXSCAN, COLL_CODE_GROUP or COLL_CODE_SDP). */
void bspram__coll_begin(coll_call *c, bsplib_proc *me, const char *name, const bsp_coll_group *g,
                unsigned code, const uint64_t *sig_words, size_t nsig, const coll_desc *desc);

/* The same in parts, for a call that keeps its signature (calls.c, repeating
 * the last call): the signature of code and sig_words — its bits and the
 * mask of those this process vouches for — and the frame opened with them
 * (bspram__coll_open) on a call whose me, name, n, rank, members, group,
 * grouped and desc the caller has set. */
void bspram__coll_signature(const bsp_coll_group *g, unsigned code, const uint64_t *sig_words, size_t nsig,
                            unsigned *sig, unsigned *mask);
static inline void bspram__coll_open(coll_call *c, unsigned sig, unsigned mask, const uint64_t *sig_words,
                                     size_t nsig);

/* Window puts to this member land in [base, base + size) at the end of this
 * round. (Inline, as the put below: every round of every algorithm calls
 * them, and an 8-byte round has few instructions besides.) */
static inline void bspram__coll_window(coll_call *c, void *base, size_t size)
{
    bsplib_coll_window(c->me, base, size);
}

/* Put n bytes from src at `offset` of rank `to`'s window (src copied now). */
static inline void bspram__coll_put(coll_call *c, unsigned to, size_t offset, const void *src, size_t n)
{
    bspram__bsp_bsplib_coll_put(c->me, c->members ? c->members[to] : to, offset, src, n, c->name);
}

/* The same put by reference for blocks of 4 KiB and more where the
 * processes share memory: the receiver copies from src at the round's end
 * (one copy instead of two, for one more barrier). src must stay unchanged
 * until the round ends and lie outside every window of the round (not in
 * place). */
void bspram__coll_put_ref(coll_call *c, unsigned to, size_t offset, const void *src, size_t n);

/* A round's bits of the barrier's tag (frame.c): MORE, and the signature
 * s and its complement ~s. */
enum { COLL_TAG_MORE = 1u << 9, COLL_SIG_SHIFT = 10, COLL_NSIG_SHIFT = 19 };

/* Right after a round's barrier, before its puts land: where the OR of the
 * signatures shows a difference, the calls are compared (frame.c). */
void bspram__coll_check_signatures(void *arg, unsigned all);

/* End a round; `last`: this member has no round after it. (Inline: every
 * round of every algorithm ends here.) */
static inline unsigned coll_sig_tag(unsigned sig, unsigned mask)
{
    return (sig & mask) << COLL_SIG_SHIFT | (~sig & mask) << COLL_NSIG_SHIFT;
}
static inline void bspram__coll_round(coll_call *c, bool last)
{
    unsigned bits = c->tag | (!last || c->then ? COLL_TAG_MORE : 0);
    unsigned all = bspram__bsp_bsplib_coll_sync(c->me, c->name, bits, c->rounds == 0,
                                                bspram__coll_check_signatures, c);
    c->rounds++;
    c->more = all & COLL_TAG_MORE;
}

/* Close the call: take part in the rounds other groups still need (group
 * calls take at least one superstep), then note the call's records. */
static inline void bspram__coll_end(coll_call *c);

#define COLL_OPS 8 /* bsp_coll_op's values */

/* A process's state of the collectives: its slot BSPLIB_EXT_COLL
 * (bsp/bsplib_internal.h, "The extensions' state"), made at its first use
 * and freed at bsp_end (frame.c). */
typedef struct coll_state {
    void *scratch[3]; /* grown as the algorithms need (bspram__coll_scratch) */
    size_t scratch_cap[3];
    size_t log[2];    /* process lo of each rank: where the records of the
                         latest call start and end in the router's log */
    int gl_ready;     /* g and l below are resolved for this section (gl.c) */
    double g, l;      /* ns per byte, ns per superstep: the selection's */
    struct coll_last_choice { /* the last choice per operation (select.c) */
        int valid;
        unsigned n, ports;
        size_t block;
        double g, l;
        bsp_coll_choice choice;
    } last[COLL_OPS];
    /* The last call of each kind on the whole machine (calls.c): its
     * arguments as given, and what they resolved to. */
    struct coll_last_call {
        int valid;
        const void *send, *recv;
        size_t size;
        unsigned root, op;
        bsp_coll_options given;
        const struct coll_entry *e;
        struct coll_args a;
        struct coll_desc desc;
        unsigned sig, mask;
        uint64_t words[7]; /* the signature's words (calls.c) */
        coll_call c;       /* the call, ready to open again (calls.c) */
    } last_call[COLL_OPS + 1]; /* the operations and the exclusive scan */
} coll_state;

/* This process's state, made at its first use. */
coll_state *bspram__coll_state_make(bsplib_proc *me);
static inline coll_state *coll_state_of(bsplib_proc *me)
{
    coll_state *s = (coll_state *)bsplib_ext(me, BSPLIB_EXT_COLL);
    return __builtin_expect(s != NULL, 1) ? s : bspram__coll_state_make(me);
}

static inline void bspram__coll_open(coll_call *c, unsigned sig, unsigned mask, const uint64_t *sig_words,
                                     size_t nsig)
{
    c->nwords = nsig < COLL_SIG_WORDS ? (unsigned)nsig : COLL_SIG_WORDS;
    c->words = sig_words; /* the caller's, alive until bspram__coll_end */
    c->sig = sig;
    c->mask = mask;
    c->tag = coll_sig_tag(sig, mask);
    c->then = 0;
    c->rounds = 0;
    c->more = 0;
    bsplib_proc *me = c->me;
    c->log = me->pid == me->world->lo ? coll_state_of(me)->log : NULL; /* the rank's first process keeps it */
    if (c->log)
        c->log[0] = bspram__router_log(me->router)->n;
}

static inline void bspram__coll_end(coll_call *c)
{
    c->then = 0;
    bspram__coll_window(c, NULL, 0); /* nothing lands here from now on */
    if (c->grouped && c->rounds == 0)
        bspram__coll_round(c, true);
    while (c->more)
        bspram__coll_round(c, true);
    if (c->log)
        c->log[1] = bspram__router_log(c->me->router)->n;
}

/* Scratch buffer `which` (< 3) of this process, at least `size` bytes
 * (contents not kept when it grows). */
void *bspram__coll_scratch(bsplib_proc *me, unsigned which, size_t size);
static inline void *coll_scratch(coll_call *c, unsigned which, size_t size)
{
    const coll_state *s = (const coll_state *)bsplib_ext(c->me, BSPLIB_EXT_COLL);
    if (__builtin_expect(s && size <= s->scratch_cap[which], 1)) /* as big as it ever was: no call */
        return s->scratch[which];
    return bspram__coll_scratch(c->me, which, size);
}

/* A fatal error of this call: "<name>(<args>): <message> (superstep S, pid P)". */
_Noreturn void bspram__coll_fail(const coll_call *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- operations (ops.c; coll_op above) ---- */

/* Resolve op id for a call (fatal with the call's line if unknown). */
coll_op bspram__coll_op_get(const coll_call *c, unsigned id);
/* acc[i] ← acc[i] ⊕ x[i] (left ⊕ right: acc is the lower ranks' part). */
void bspram__coll_op_fold(const coll_op *op, uint64_t *acc, const uint64_t *x, size_t count);
/* acc[i] ← x[i] ⊕ acc[i] (x is the lower ranks' part). */
void bspram__coll_op_fold_left(const coll_op *op, uint64_t *acc, const uint64_t *x, size_t count);

/* ---- pairing off for recursive doubling and halving on any n (pairing.c) ---- */

typedef struct coll_pairing {
    unsigned f, np, r; /* n' = 2^f = 2^⌊log2 n⌋, r = n − n' */
    int s;             /* this member's survivor rank, or −1 (a paired rank that is not) */
    unsigned me;
    unsigned root_pair, root; /* pair root_pair's survivor is root (else none: UINT_MAX) */
} coll_pairing;

coll_pairing bspram__coll_pairing(unsigned n, unsigned me);
/* The same, but the root stands for its pair, whichever member it is (a
 * rooted collective then needs no round more to reach it). */
coll_pairing bspram__coll_pairing_rooted(unsigned n, unsigned me, unsigned root);
/* The rank of survivor s: 2s for a pair (the root for the root's), s + r past them. */
static inline unsigned coll_survivor(const coll_pairing *pp, unsigned s)
{
    return s < pp->r ? (s == pp->root_pair ? pp->root : 2 * s) : s + pp->r;
}
/* The pairing-off round (r > 0): 2i+1's operand (acc, count words) folded
 * into 2i's acc, received in `in`. */
void bspram__coll_pair_off(coll_call *c, const coll_pairing *pp, const coll_op *op, uint64_t *acc,
                           uint64_t *in, size_t count, bool last);
/* The hand-back round (r > 0): 2i's acc copied into 2i+1's. */
void bspram__coll_hand_back(coll_call *c, const coll_pairing *pp, uint64_t *acc, size_t count, bool last);

/* ---- the reduce-scatter by recursive halving (halving.c) ---- */

/* The first word of piece j of n' (W words): ⌊j·W/n'⌋, without overflow. */
size_t bspram__coll_piece_word(size_t j, size_t np, size_t W);
/* The most words in an aligned block of q pieces whose index has parity
 * `parity` (2: any): what a halving or gather round sends at most. */
uint64_t bspram__coll_most_words(uint64_t np, uint64_t W, uint64_t q, int parity);
/* The f halving rounds (*done counts the rounds, the last of `rounds`
 * ends the collective): survivor pp->s ends holding pieces [*lo, *hi) of
 * acc reduced over everyone; `in` receives W words at most. */
void bspram__coll_halve(coll_call *c, const coll_pairing *pp, const coll_op *op, uint64_t *acc, uint64_t *in,
                        size_t W, size_t *lo, size_t *hi, unsigned *done, unsigned rounds);

/* ---- small arithmetic of the schedules ---- */

/* ⌈log_base n⌉ for n ≥ 1, base ≥ 2 (0 for n = 1). */
unsigned bspram__coll_ceil_log(uint64_t n, uint64_t base);
static inline uint64_t coll_ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* memcpy, with a word's copy inline: an 8-byte collective's blocks are
 * words, and memcpy of a size known only at run time is a call into the C
 * library, several times the two instructions of the copy. */
static inline void coll_copy(void *to, const void *from, size_t n)
{
    if (n == 8)
        memcpy(to, from, 8);
    else
        memcpy(to, from, n);
}

/* ---- the algorithms (one file each; each opens with its paper and cost) ----
 * Every one takes the frame and the resolved arguments, and runs on any n
 * ≥ 1 (n = 1: no round; n ≥ 2: at least one). a->send may alias a->recv:
 * equal to it (in place), or, for allgather and gather, pointing at the own
 * block inside it. Each also has its cost formula, coll_predict_<name>,
 * giving the C1 and C2 its schedule makes (predict.c collects them). */
void bspram__coll_alltoall_bruck(coll_call *c, const coll_args *a);          /* alltoall_bruck.c */
void bspram__coll_alltoall_exchange(coll_call *c, const coll_args *a);       /* alltoall_exchange.c: n = 2^d */
void bspram__coll_alltoall_direct(coll_call *c, const coll_args *a);         /* alltoall_direct.c */
void bspram__coll_allgather_bruck(coll_call *c, const coll_args *a);         /* allgather_bruck.c */
void bspram__coll_allgather_ring(coll_call *c, const coll_args *a);          /* allgather_ring.c */
void bspram__coll_allgather_direct(coll_call *c, const coll_args *a);        /* allgather_direct.c */
void bspram__coll_broadcast_binomial(coll_call *c, const coll_args *a);      /* broadcast_binomial.c */
void bspram__coll_broadcast_scatter_allgather(coll_call *c, const coll_args *a);
void bspram__coll_broadcast_direct(coll_call *c, const coll_args *a);        /* broadcast_direct.c */
void bspram__coll_scatter_binomial(coll_call *c, const coll_args *a);        /* scatter_binomial.c */
void bspram__coll_scatter_direct(coll_call *c, const coll_args *a);          /* scatter_direct.c */
void bspram__coll_gather_binomial(coll_call *c, const coll_args *a);         /* gather_binomial.c */
void bspram__coll_gather_direct(coll_call *c, const coll_args *a);           /* gather_direct.c */
void bspram__coll_reduce_binomial(coll_call *c, const coll_args *a);         /* reduce_binomial.c */
void bspram__coll_reduce_direct(coll_call *c, const coll_args *a);           /* reduce_direct.c */
void bspram__coll_reduce_rabenseifner(coll_call *c, const coll_args *a);     /* reduce_rabenseifner.c */
void bspram__coll_allreduce_doubling(coll_call *c, const coll_args *a);      /* allreduce_doubling.c */
void bspram__coll_allreduce_dissemination(coll_call *c, const coll_args *a); /* allreduce_dissemination.c */
void bspram__coll_allreduce_rabenseifner(coll_call *c, const coll_args *a);  /* allreduce_rabenseifner.c */
void bspram__coll_scan_dissemination(coll_call *c, const coll_args *a);      /* scan_dissemination.c */
void bspram__coll_scan_binomial(coll_call *c, const coll_args *a);           /* scan_binomial.c */
void bspram__coll_scan_direct(coll_call *c, const coll_args *a);             /* scan_direct.c */

typedef struct coll_prediction {
    uint64_t c1, c2;
} coll_prediction;
#define COLL_PREDICT(name) \
    coll_prediction bspram__coll_predict_##name(uint64_t n, uint64_t b, unsigned radix, unsigned ports, \
                                        bsp_coll_tradeoff tradeoff)
COLL_PREDICT(alltoall_bruck);
COLL_PREDICT(alltoall_exchange);
COLL_PREDICT(allgather_bruck);
COLL_PREDICT(allgather_ring);
COLL_PREDICT(allgather_direct);
COLL_PREDICT(broadcast_binomial);
COLL_PREDICT(broadcast_scatter_allgather);
COLL_PREDICT(broadcast_direct);
COLL_PREDICT(scatter_binomial);
COLL_PREDICT(scatter_direct);
COLL_PREDICT(gather_binomial);
COLL_PREDICT(gather_direct);
COLL_PREDICT(reduce_binomial);
COLL_PREDICT(reduce_direct);
COLL_PREDICT(reduce_rabenseifner);
COLL_PREDICT(allreduce_doubling);
COLL_PREDICT(allreduce_dissemination);
COLL_PREDICT(allreduce_rabenseifner);
COLL_PREDICT(scan_dissemination);
COLL_PREDICT(scan_binomial);
COLL_PREDICT(scan_direct);

/* How an algorithm's schedule has a radix (coll_entry.radix). */
typedef enum coll_radix_rule {
    COLL_RADIX_NONE = 0, /* none: its formula ignores the radix; choices report 0 */
    COLL_RADIX_CHOSEN,   /* the caller's, 2 ≤ r ≤ n (default 2); the selection
                            tries each: alltoall's BRUCK */
    COLL_RADIX_N,        /* fixed at n (at least 2), which the caller may not
                            give, and reported: alltoall's DIRECT, which is
                            Bruck's index with r = n */
} coll_radix_rule;

/* The table of algorithms (calls.c): per operation and algorithm, the
 * function, its formula, its radix and whether it takes more than one port. */
typedef struct coll_entry {
    void (*run)(coll_call *c, const coll_args *a);
    coll_prediction (*predict)(uint64_t n, uint64_t b, unsigned radix, unsigned ports,
                               bsp_coll_tradeoff tradeoff);
    coll_radix_rule radix;
    int ports;  /* takes k ≥ 1 ports (else one-port only) */
} coll_entry;
#define COLL_ALGORITHMS 10 /* bsp_coll_algorithm's values, AUTO included */
extern const coll_entry bspram__coll_table[COLL_OPS][COLL_ALGORITHMS];

/* The radix e's schedule runs with on n members, from the caller's `given`
 * (0: none). The one place that knows COLL_RADIX_N's r = n. */
static inline unsigned coll_radix(const coll_entry *e, unsigned n, unsigned given)
{
    if (e->radix == COLL_RADIX_N)
        return n > 2 ? n : 2;
    return given ? given : 2;
}

/* The largest radix the selection tries for e on n members (from
 * coll_radix(e, n, 0) up). */
static inline unsigned coll_radix_max(const coll_entry *e, unsigned n)
{
    return e->radix == COLL_RADIX_CHOSEN && n > 2 ? n : coll_radix(e, n, 0);
}

/* The radix a choice of e reports, when its schedule runs with r. */
static inline unsigned coll_radix_reported(const coll_entry *e, unsigned r)
{
    return e->radix == COLL_RADIX_NONE ? 0 : r;
}

/* bsp_coll_select with this section's g and l, remembered per operation. */
bsp_coll_choice bspram__coll_select(coll_state *cs, bsp_coll_op op, unsigned n, size_t block,
                                    unsigned ports);

/* ---- g and l for the selection (gl.c, gl_cache.c, gl_probe.c) ---- */

/* Collective, at the first call of a section that may select: this
 * section's g and l into cs (probing and caching them if nothing usable is
 * known for this machine and P, gl.c). The probe runs on a router of its
 * own (gl_probe.c): the section's superstep in progress and its records
 * stay as they are. */
void bspram__coll_gl_resolve(bsplib_proc *me, coll_state *cs);
/* Without probing (outside a section, or before the section's first call):
 * what is known for P, else the defaults; p = 0: bsp_nprocs(), asked only
 * when the parameters are not fixed (so that BSPRAM_PROBE=0 or
 * BSPRAM_PARAMS keeps a program outside its sections from starting MPI). */
void bspram__coll_gl_static(unsigned p, double *g, double *l);
/* The g and l bsp_coll_select and bsp_coll_predict use for "the probe's":
 * the calling process's section's if resolved, else bspram__coll_gl_static
 * for its P (outside a section: bsp_nprocs()). */
void bspram__coll_gl_current(double *g, double *l);

/* The probe (collective, on a router of its own): g in ns per byte, l in
 * ns, and the load, pid 0's on every process. */
void bspram__coll_gl_probe(bsplib_proc *me, double *g, double *l, coll_gl_load *load);


/* The ports of a forced algorithm when none are given: 1, but n − 1 for
 * DIRECT. */
void bspram__coll_default_ports(bsp_coll_algorithm alg, unsigned n, unsigned *ports);

#endif
