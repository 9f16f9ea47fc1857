/* The MPI transport: the router's lanes spread over MPI ranks in blocks,
 * each rank running its lanes on threads of its own (transport.h).
 *
 * Lanes. A router of L lanes on a job of N ranks uses the first A = min(L, N)
 * ranks; rank ρ < A runs lanes [ρL/A, (ρ+1)L/A) — the same block rule the
 * router uses for components over lanes — and the others take no part (a
 * communicator of the A ranks, made by those ranks alone). Components are
 * spread over lanes as on one machine, so a component's lane, its inbox order
 * and every record are those of a shared-memory run with L lanes.
 *
 * Allreduce (one per exchange): a lane that posted packs its outboxes first
 * (step 1 below); the rank's lanes meet in a local barrier
 * (barrier_internal.h) that ORs their tags; the rank's first lane folds their
 * statistics and brings tag, statistics and what its lanes packed to one
 * reduction of W words (W_TAG and the rest; reduce()) whose operation ORs the tag,
 * sums the sums and takes the maxima (bspram__stats_fold), sums the bytes
 * packed, takes the most destination ranks of any rank, and — on a small
 * job, n·n·Tmax ≤ COUNTS_MAX — sums the matrix of byte counts to which each
 * rank brings its own row; a second local barrier hands the result to the
 * lanes. With one lane per rank (BSPlib's usual shape) the local barriers
 * vanish: an empty exchange is one reduction of 96 + 8·n² bytes (among the
 * ranks of a node in shared memory, mpi_node.h; between nodes, or ranks
 * alone, on a power of two of them log2 n MPI_Sendrecv, and one
 * MPI_Allreduce on other numbers: reduce()), and a small one may be that
 * reduction alone, its runs inline (INLINE_MAX).
 *
 * Delivery, after an allreduce that says some lane posted:
 *   1. every local lane packs its outboxes (before the allreduce),
 *      destination by destination in increasing order, as runs: a run header
 *      {dst, count, counted bytes, size} and the outbox's entries as the
 *      router stored them (router_internal.h, bspram__entry) — one memcpy per
 *      chunk. Runs sorted by destination are grouped by destination rank;
 *   2. the first lane moves (but for the runs that came inline), for each
 *      local lane index t, the packed runs of
 *      lane t of every rank, into receive buffers kept by superstep parity
 *      (payloads stay valid until the receiver's next exchange ends, as on
 *      shared memory), by one of four ways picked alike on every rank from
 *      the allreduce's result (pick()):
 *        counts    the counts came in the allreduce: an MPI_Irecv and an
 *                  MPI_Isend for each non-empty pair, one MPI_Waitall (known());
 *        nbx       MPI_Issend of each non-empty pair's runs, MPI_Iprobe and
 *                  MPI_Recv until an MPI_Ibarrier entered once the sends
 *                  completed ends (Hoefler, Siebert and Lumsdaine's
 *                  non-blocking consensus; nbx()), where every rank sends
 *                  to few ranks;
 *        alltoall  an MPI_Alltoall of the counts, then one MPI_Alltoallv;
 *        get       an MPI_Alltoall of the counts, then MPI_Get from the
 *                  window the runs were packed into, for a superstep that
 *                  moves many bytes (exchange());
 *   3. every local lane walks the received segments in the order of their
 *      source lane — rank by rank, lane by lane — keeps the runs of its own
 *      destinations, and builds its inboxes pointing into the receive buffers.
 *      Sources in increasing lane order, and each outbox in (source, issue)
 *      order, give every inbox the order (source component, issue).
 * Messages between lanes of one rank go through MPI too (to itself): one path.
 *
 * shares_memory is false: puts carry registration references, not addresses.
 * There is no one-sided read (bsp_direct_get is refused).
 *
 * Threads: MPI is called by a rank's first lane only, which runs on the
 * thread that initialised MPI in the library's programs (BSPlib's pid of the
 * rank, the machine's thread 0), and by a fatal error's MPI_Abort from any
 * thread: the library asks for MPI_THREAD_MULTIPLE and needs at least
 * MPI_THREAD_SERIALIZED.
 */
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "base/abort.h"
#include "base/environment.h"
#include "base/error.h"
#include "base/grow.h"
#include "base/number.h"
#include "router/barrier_internal.h"
#include "router/mpi.h"
#include "router/mpi_node.h"
#include "router/router_internal.h"
#include "router/router.h"

/* The words of the counts' MPI_Alltoall per pair of a lane index t and a
 * rank ρ: bytes of t's runs for ρ, their offset in t's runs, t's whole runs
 * if they did not fit its window (else 0). */
enum { COUNT_WORDS = 3 };

/* The allreduce's words: the tag (OR), the statistics (bspram__stats_fold),
 * the bytes packed (sum), the most destination ranks of a rank (maximum),
 * then on a small job the counts: word COUNTS + (σ·n + ρ)·Tmax + t holds the
 * bytes of lane index t of rank σ for rank ρ (sum; rank σ alone writes it).
 * Up to COUNTS_MAX counts the allreduce carries them: at most 512 bytes
 * more in a reduction that is latency-bound at that size, against a whole
 * MPI_Alltoall (a collective as costly as the reduction) that they save. */
enum { W_TAG = 0, W_STATS = 1, W_BYTES = 9, W_DESTS = 10, W_INLINE = 11, COUNTS = 12, COUNTS_MAX = 64 };

/* Inline runs: on the node's reduction and the recursive-doubling one (a
 * power of two ranks or nodes), with the counts in the reduction and no way
 * forced,
 * a rank whose lanes packed at most
 * INLINE_MAX bytes (and fewer than the MPI_Get threshold) appends its runs
 * to the reduction's own messages and sets its bit in W_INLINE (OR). The
 * reduction then gathers every such rank's runs on every rank, as a
 * recursive-doubling allgather does, and the superstep is that reduction
 * alone: log2 n messages per rank where it was log2 n and then one round of
 * point-to-point messages — half the latencies of a small collective
 * (bench/mpi_small.sh). A rank receives n·INLINE_MAX bytes at most, of which
 * it keeps its own. In the appended area a lane index's runs are a segment:
 * two words {σ·Tmax + t, bytes}, then the bytes, padded to a word. */
enum { INLINE_MAX = 1024, SEG_WORDS = 2 };

/* BSPRAM_MPI_NODE unset: the nodes are MPI's (MPI_COMM_TYPE_SHARED). */
#define NODES_BY_MPI UINT64_MAX

/* A superstep's way (header comment), and BSPRAM_MPI_EXCHANGE's values. */
enum { WAY_AUTO, WAY_COUNTS, WAY_NBX, WAY_ALLTOALL, WAY_GET };
static const char *const WAY_NAMES[] = {"auto", "counts", "nbx", "alltoall", "get"};

/* Without the counts in the allreduce, NBX where every rank sends to at most
 * one rank in NBX_SPARSE (besides itself): its MPI_Ibarrier costs what the
 * MPI_Alltoall of counts costs on few ranks, and less than it as the counts
 * grow with the ranks (bench/RESULTS.md, "Over MPI"). */
enum { NBX_SPARSE = 8 };

/* The MPI_Get path from this many bytes sent per rank in a superstep, on
 * average (bench/RESULTS.md, "Over MPI": it wins from about 1 KiB per
 * message on 2 ranks; MPI_Alltoallv wins below). BSPRAM_MPI_GET sets it. */
enum { GET_BYTES = 4096 };

/* The header of a run: one destination's messages from one lane. */
typedef struct run_header {
    uint32_t dst, count;
    uint64_t counted; /* what the records count of them */
    uint64_t size;    /* bytes of entries after the header */
} run_header;

typedef struct mpi_lane {
    _Alignas(64) char *pack; /* this exchange's runs: in the lane's window, or in `spill` */
    uint64_t total;          /* their bytes */
    char *spill;             /* runs that did not fit the window */
    size_t cap_spill;
    uint64_t *to_rank;       /* [n] bytes of pack for each rank, in rank order */
    uint32_t *order;         /* the touched destinations, sorted */
    size_t cap_order;
    const run_header **runs; /* the runs for this lane's block, in source order */
    size_t cap_runs;
    uint64_t *cursor;        /* [block + 1] */
    size_t cap_cursor;
    bool packed;             /* pack ran for this exchange (in the allreduce) */
} mpi_lane;

typedef struct mpi_state {
    MPI_Comm comm, rd_comm;
    MPI_Datatype words;      /* the W words of an allreduce */
    MPI_Op fold;
    unsigned W;              /* words_of */
    bool counts;             /* the allreduce carries the counts */
    int way_env;             /* BSPRAM_MPI_EXCHANGE (rank 0's), WAY_AUTO if unset */
    bool inline_ok;          /* runs may ride in the reduction (INLINE_MAX) */
    bspram_mpi_node *node;   /* the reduction in shared memory (mpi_node.h), or NULL */
    int nodes, leader;       /* with node, on several nodes: their number (the leaders'), and
                                this leader's rank among them (-1: not a leader) */
    size_t appended;         /* bytes after the W words of vec, then of result */
    const char **seg;        /* [n × Tmax] rank σ's inline runs of lane index t, or NULL */
    int way;                 /* this exchange's, from pick() */
    int rank, n;             /* in comm */
    unsigned lanes, lo, hi, T, Tmax;
    unsigned *lane_of_rank;  /* [n + 1]: rank ρ runs lanes [lane_of_rank[ρ], lane_of_rank[ρ+1]) */
    bspram_barrier barrier;  /* the rank's lanes (T > 1) */
    bspram__stats *slot;     /* [T] statistics brought to the allreduce */
    uint64_t *vec, *result, *in; /* [W] brought to the allreduce, its result, a peer's part;
                                    with inline_ok each with room for n ranks' inline runs */
    MPI_Request *req;        /* [2·n·Tmax] */
    uint64_t *used;          /* [Tmax] bytes received into rbuf[par][t] (nbx) */
    uint64_t *sendcnt, *recvcnt; /* [n × Tmax × COUNT_WORDS]: lane index t to rank ρ at
                                    [(ρ·Tmax + t)·COUNT_WORDS] (COUNT_WORDS says what) */
    uint64_t get_bytes;      /* the MPI_Get path from this average (GET_BYTES) */
    MPI_Win *win;            /* [Tmax] lane index t's runs, read by MPI_Get */
    char **wbase;            /* [Tmax] this rank's part of window t */
    uint64_t *wcap;          /* [Tmax] its bytes */
    int *scounts, *sdispls, *rcounts; /* [n] */
    int *rdispls;            /* [Tmax × n]: where lane t of rank ρ's segment starts */
    int *rlen;               /* [Tmax × n] its length */
    char **rbuf[2];          /* [Tmax] receive buffers by parity */
    size_t *rcap[2];
    mpi_lane *lane;          /* [T] */
} mpi_state;

static void check(int err, const char *call)
{
    if (err != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(err, text, &len);
        bspram__base_fatal("%s: %.*s", call, len, text);
    }
}

static void mpi_abort(int status);

/* The superstep this rank is in (the exchanges its first lane has begun in
 * the latest router), for the line of a rank that the MPI runtime stops. */
static atomic_uint_fast64_t superstep_now;
static int world_rank = -1;

/* What a rank prints when the MPI runtime stops it (SIGTERM: another rank
 * died or aborted): its rank and superstep; then it dies of the signal. Only
 * async-signal-safe calls. */
static void stopped(int sig)
{
    char line[160] = "bspram: MPI rank ", *at = line + strlen(line);
    char digits[24];
    uint64_t values[2] = {(uint64_t)(world_rank < 0 ? 0 : world_rank),
                          (uint64_t)atomic_load_explicit(&superstep_now, memory_order_relaxed)};
    for (int k = 0; k < 2; k++) {
        if (k == 1) {
            const char *mid = " stopped by the MPI runtime in superstep ";
            memcpy(at, mid, strlen(mid));
            at += strlen(mid);
        }
        int n = 0;
        uint64_t v = values[k];
        do
            digits[n++] = (char)('0' + v % 10);
        while ((v /= 10) && n < 24);
        while (n)
            *at++ = digits[--n];
    }
    const char *tail = " (another rank ended or failed)\n";
    memcpy(at, tail, strlen(tail));
    at += strlen(tail);
    ssize_t w = write(STDERR_FILENO, line, (size_t)(at - line));
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

void bspram__router_mpi_start(void)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (down)
        bspram__base_fatal("bspram: MPI was finalised; the library needs it until the program ends");
    if (up)
        return;
    int provided = 0;
    check(MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    if (provided < MPI_THREAD_SERIALIZED)
        bspram__base_fatal("MPI_Init_thread: the MPI library gives thread level %d; bspram needs "
                     "MPI_THREAD_SERIALIZED or more", provided);
    /* Errors come back to us and end the job with one line (check). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bspram__base_set_abort(mpi_abort); /* a fatal error on any rank ends every rank */
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stopped;
    sigaction(SIGTERM, &sa, NULL);
    atexit(bspram__router_mpi_stop);
}

void bspram__router_mpi_stop(void)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down)
        MPI_Finalize();
}

unsigned bspram__router_mpi_rank(void)
{
    bspram__router_mpi_start();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return (unsigned)rank;
}

unsigned bspram__router_mpi_size(void)
{
    bspram__router_mpi_start();
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return (unsigned)n;
}

/* The allreduce's operation on one vector of W words (W_TAG and the rest). */
static void fold_vector(const uint64_t *a, uint64_t *b, size_t W)
{
    b[W_TAG] |= a[W_TAG];
    bspram__stats x, acc;
    memcpy(&x, a + W_STATS, sizeof x);
    memcpy(&acc, b + W_STATS, sizeof acc);
    bspram__stats_fold(&acc, &x);
    memcpy(b + W_STATS, &acc, sizeof acc);
    b[W_BYTES] += a[W_BYTES];
    if (a[W_DESTS] > b[W_DESTS])
        b[W_DESTS] = a[W_DESTS];
    b[W_INLINE] |= a[W_INLINE];
    for (size_t w = COUNTS; w < W; w++)
        b[w] += a[w];
}

/* The same as an MPI_Op (MPI_Allreduce). */
static void fold_words(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int bytes = 0;
    MPI_Type_size(*type, &bytes);
    const size_t W = (size_t)bytes / sizeof(uint64_t);
    for (int k = 0; k < *len; k++)
        fold_vector((const uint64_t *)in + (size_t)k * W, (uint64_t *)inout + (size_t)k * W, W);
}

_Static_assert(sizeof(bspram__stats) == (W_BYTES - W_STATS) * sizeof(uint64_t), "the statistics are eight words");

/* The bytes after the W words that one rank's inline runs may take:
 * INLINE_MAX, and per lane index a segment's header and padding; and every
 * rank's. */
static size_t inline_own(const mpi_state *s)
{
    return s->inline_ok ? INLINE_MAX + (size_t)s->Tmax * (SEG_WORDS + 1) * 8 : 0;
}

static size_t inline_room(const mpi_state *s)
{
    return (size_t)s->n * inline_own(s);
}

static unsigned block_first(unsigned lanes, unsigned active, unsigned rho)
{
    return (unsigned)((uint64_t)lanes * rho / active);
}

static void *mpi_open(unsigned lanes, unsigned *lo, unsigned *hi)
{
    bspram__router_mpi_start();
    int world_rank = 0, world_n = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_n);
    unsigned active = lanes < (unsigned)world_n ? lanes : (unsigned)world_n;
    if ((unsigned)world_rank >= active) { /* no lanes here: no part in this router */
        *lo = *hi = 0;
        return NULL;
    }
    mpi_state *s = bspram__base_calloc(1, sizeof *s, "the MPI transport");
    MPI_Group world, group;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{0, (int)active - 1, 1}};
    MPI_Group_range_incl(world, 1, range, &group);
    check(MPI_Comm_create_group(MPI_COMM_WORLD, group, 0, &s->comm), "MPI_Comm_create_group");
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
    /* The allreduce's own messages (reduce()) on a communicator of their
     * own, where nbx()'s MPI_Iprobe of any tag cannot find them. */
    check(MPI_Comm_dup(s->comm, &s->rd_comm), "MPI_Comm_dup");
    s->rank = world_rank;
    s->n = (int)active;
    s->lanes = lanes;
    s->lane_of_rank = bspram__base_calloc(active + 1, sizeof *s->lane_of_rank, "the MPI transport");
    for (unsigned rho = 0; rho <= active; rho++)
        s->lane_of_rank[rho] = block_first(lanes, active, rho);
    s->lo = *lo = s->lane_of_rank[s->rank];
    s->hi = *hi = s->lane_of_rank[s->rank + 1];
    s->T = s->hi - s->lo;
    s->Tmax = (lanes + active - 1) / active;
    bspram__router_barrier_init(&s->barrier, s->T);
    s->slot = bspram__base_calloc(s->T, sizeof *s->slot, "the MPI transport");
    size_t nt = (size_t)s->n * s->Tmax;
    s->counts = nt * (size_t)s->n <= COUNTS_MAX;
    s->W = COUNTS + (s->counts ? (unsigned)(nt * (size_t)s->n) : 0);
    /* Rank 0's settings: every rank must take the same way. */
    uint64_t set[3] = {GET_BYTES, WAY_AUTO, NODES_BY_MPI};
    const bspram_environment env = bspram__base_environment_read();
    const char *v = env.mpi_get;
    if (s->rank == 0 && v && bspram__base_parse_u64(v, 0, UINT64_MAX / 65536, &set[0]) != 0)
        bspram__base_fatal("BSPRAM_MPI_GET=%s is not a whole number of bytes in "
                     "[0, 2^48)", v);
    if (s->rank == 0 && env.mpi_exchange) {
        set[1] = WAY_GET;
        for (unsigned k = WAY_COUNTS; k < WAY_GET; k++)
            if (strcmp(env.mpi_exchange, WAY_NAMES[k]) == 0)
                set[1] = k;
        if (set[1] == WAY_GET)
            bspram__base_fatal("BSPRAM_MPI_EXCHANGE=%s is none of counts, nbx, "
                         "alltoall", env.mpi_exchange);
    }
    if (s->rank == 0 && env.mpi_node && bspram__base_parse_u64(env.mpi_node, 0, 65536, &set[2]) != 0)
        bspram__base_fatal("BSPRAM_MPI_NODE=%s is not a whole number of ranks in "
                           "[0, 65536]", env.mpi_node);
    check(MPI_Bcast(set, 3, MPI_UINT64_T, 0, s->comm), "starting the MPI transport: MPI_Bcast");
    s->get_bytes = set[0];
    s->way_env = (int)set[1];
    s->inline_ok = s->counts && s->way_env == WAY_AUTO;
    if (set[2] != 0 && set[2] != 1) { /* (0 and 1: every rank alone, the reduction by messages) */
        const size_t head = (size_t)s->W * sizeof(uint64_t);
        s->node = bspram__mpi_node_open(s->comm, set[2] == NODES_BY_MPI ? 0 : (unsigned)set[2],
                                        head + inline_own(s), head + inline_room(s));
    }
    if (s->node && !bspram__mpi_node_whole(s->node)) { /* the leaders reduce by messages */
        int lead = bspram__mpi_node_rank(s->node) == 0;
        MPI_Allreduce(&lead, &s->nodes, 1, MPI_INT, MPI_SUM, s->comm);
        s->leader = -1;
        if (lead)
            MPI_Comm_rank(bspram__mpi_node_leaders(s->node), &s->leader);
    }
    /* Inline runs ride the recursive doubling or the node's slots. */
    const int by_messages = !s->node ? s->n : bspram__mpi_node_whole(s->node) ? 1 : s->nodes;
    s->inline_ok &= !(by_messages & (by_messages - 1));
    const size_t room = s->W + inline_room(s) / 8;
    s->vec = bspram__base_calloc(room, sizeof *s->vec, "the MPI transport");
    s->result = bspram__base_calloc(room, sizeof *s->result, "the MPI transport");
    s->in = bspram__base_calloc(room, sizeof *s->in, "the MPI transport");
    s->seg = bspram__base_calloc(nt, sizeof *s->seg, "the MPI transport");
    s->req = bspram__base_calloc(2 * nt, sizeof *s->req, "the MPI transport");
    s->used = bspram__base_calloc(s->Tmax, sizeof *s->used, "the MPI transport");
    MPI_Type_contiguous((int)s->W, MPI_UINT64_T, &s->words);
    MPI_Type_commit(&s->words);
    MPI_Op_create(fold_words, 1, &s->fold);
    s->sendcnt = bspram__base_calloc(nt * COUNT_WORDS, sizeof *s->sendcnt, "the MPI transport");
    s->recvcnt = bspram__base_calloc(nt * COUNT_WORDS, sizeof *s->recvcnt, "the MPI transport");
    s->win = bspram__base_calloc(s->Tmax, sizeof *s->win, "the MPI transport");
    s->wbase = bspram__base_calloc(s->Tmax, sizeof *s->wbase, "the MPI transport");
    s->wcap = bspram__base_calloc(s->Tmax, sizeof *s->wcap, "the MPI transport");
    for (unsigned t = 0; t < s->Tmax; t++)
        s->win[t] = MPI_WIN_NULL;
    s->scounts = bspram__base_calloc((size_t)s->n, sizeof(int), "the MPI transport");
    s->sdispls = bspram__base_calloc((size_t)s->n, sizeof(int), "the MPI transport");
    s->rcounts = bspram__base_calloc((size_t)s->n, sizeof(int), "the MPI transport");
    s->rdispls = bspram__base_calloc(nt, sizeof(int), "the MPI transport");
    s->rlen = bspram__base_calloc(nt, sizeof(int), "the MPI transport");
    for (int par = 0; par < 2; par++) {
        s->rbuf[par] = bspram__base_calloc(s->Tmax, sizeof *s->rbuf[par], "the MPI transport");
        s->rcap[par] = bspram__base_calloc(s->Tmax, sizeof *s->rcap[par], "the MPI transport");
    }
    s->lane = aligned_alloc(64, sizeof *s->lane * (s->T ? s->T : 1));
    if (!s->lane)
        bspram__base_fatal("the MPI transport (%u lanes): out of memory", lanes);
    memset(s->lane, 0, sizeof *s->lane * (s->T ? s->T : 1));
    for (unsigned i = 0; i < s->T; i++)
        s->lane[i].to_rank = bspram__base_calloc((size_t)s->n, sizeof(uint64_t), "the MPI transport");
    return s;
}

static void mpi_close(void *state)
{
    mpi_state *s = state;
    if (!s)
        return;
    for (unsigned i = 0; i < s->T; i++) {
        free(s->lane[i].spill);
        free(s->lane[i].to_rank);
        free(s->lane[i].order);
        free(s->lane[i].runs);
        free(s->lane[i].cursor);
    }
    for (int par = 0; par < 2; par++) {
        for (unsigned t = 0; t < s->Tmax; t++)
            free(s->rbuf[par][t]);
        free(s->rbuf[par]);
        free(s->rcap[par]);
    }
    free(s->lane);
    free(s->sendcnt);
    free(s->recvcnt);
    free(s->scounts);
    free(s->sdispls);
    free(s->rcounts);
    free(s->rdispls);
    free(s->rlen);
    free(s->slot);
    free(s->vec);
    free(s->result);
    free(s->in);
    free(s->seg);
    free(s->req);
    free(s->used);
    free(s->lane_of_rank);
    bspram__router_barrier_destroy(&s->barrier);
    free(s->wbase);
    free(s->wcap);
    int down = 0;
    MPI_Finalized(&down);
    if (!down) {
        for (unsigned t = 0; t < s->Tmax; t++) /* collective, like the router's destruction */
            if (s->win[t] != MPI_WIN_NULL)
                MPI_Win_free(&s->win[t]);
        MPI_Op_free(&s->fold);
        MPI_Type_free(&s->words);
        MPI_Comm_free(&s->rd_comm);
        MPI_Comm_free(&s->comm);
    }
    bspram__mpi_node_close(s->node);
    free(s->win);
    free(s);
}

static void pack(bspram_router *r, mpi_state *s, unsigned lane, unsigned par);


/* Folds every other rank of the node's publication into vec (a leader: its
 * node's) or, where the node is the whole job, into result. */
static void fold_node(mpi_state *s, uint64_t *into)
{
    const size_t head = (size_t)s->W * sizeof *s->result;
    const int me = bspram__mpi_node_rank(s->node);
    for (int peer = 0; peer < bspram__mpi_node_size(s->node); peer++) {
        if (peer == me)
            continue;
        size_t got = 0;
        const uint64_t *in = bspram__mpi_node_peer(s->node, peer, &got);
        fold_vector(in, into, s->W);
        memcpy((char *)into + head + s->appended, in + s->W, got - head);
        s->appended += got - head;
    }
}

/* result ← the reduction of every rank's vec (fold_words), and after its W
 * words every rank's appended inline runs (s->appended bytes of vec, then
 * of result); work(arg), if not NULL, once nobody waits for this rank (after
 * its publication to its node; else first).
 *   - The job on one node: in shared memory, each rank publishes its vector
 *     and reads every other's (mpi_node.h).
 *   - On several nodes: each node's leader folds its node's publications,
 *     reduces with the other leaders by messages (below), and publishes the
 *     result, which the node's other ranks copy.
 *   - By messages, on a power of two ranks (or leaders): recursive doubling,
 *     one MPI_Sendrecv with each of log2 n peers — the pattern of a barrier
 *     by recursive doubling; on 2 ranks of this project's test machine 1.2×
 *     Open MPI's MPI_Barrier, where its MPI_Allreduce of the same words took
 *     1.35–1.45× (on 4 oversubscribed ranks both within noise of the
 *     barrier; bench/mpi_reduce.c, bench/RESULTS.md, "Over MPI"). The
 *     operation is commutative and associative on integers, so every rank
 *     folds the same result. Otherwise MPI_Allreduce. */
static void reduce(mpi_state *s, void (*work)(void *), void *arg, const char *call, const char *call_sendrecv)
{
    const size_t head = (size_t)s->W * sizeof *s->result;
    MPI_Comm comm = s->comm, rd_comm = s->rd_comm;
    int n = s->n, rank = s->rank;
    if (s->node) {
        bspram__mpi_node_publish(s->node, s->vec, head + s->appended);
        if (work) /* nobody waits for this rank now */
            work(arg);
        if (bspram__mpi_node_whole(s->node)) { /* the job on one node: each rank reads all */
            memcpy(s->result, s->vec, head + s->appended);
            fold_node(s, s->result);
            return;
        }
        comm = rd_comm = bspram__mpi_node_leaders(s->node);
        if (comm == MPI_COMM_NULL) { /* not a leader: the leader's result */
            size_t got = 0;
            const void *all = bspram__mpi_node_result(s->node, &got);
            memcpy(s->result, all, got);
            s->appended = got - head;
            return;
        }
        fold_node(s, s->vec); /* the leader: its node's part, then with the other leaders */
        n = s->nodes;
        rank = s->leader;
    } else if (work) {
        work(arg);
    }
    if (n & (n - 1)) { /* (no inline runs: inline_ok) */
        check(MPI_Allreduce(s->vec, s->result, 1, s->words, s->fold, comm), call);
    } else {
        memcpy(s->result, s->vec, head + s->appended);
        const int room = (int)(head + inline_room(s));
        for (int m = 1; m < n; m <<= 1) {
            const int peer = rank ^ m;
            MPI_Status st;
            check(MPI_Sendrecv(s->result, (int)(head + s->appended), MPI_BYTE, peer, 0, s->in, room, MPI_BYTE,
                               peer, 0, rd_comm, &st),
                  call_sendrecv);
            int got = 0;
            MPI_Get_count(&st, MPI_BYTE, &got);
            fold_vector(s->in, s->result, s->W);
            memcpy((char *)s->result + head + s->appended, (const char *)s->in + head, (size_t)got - head);
            s->appended += (size_t)got - head;
        }
    }
    if (s->node)
        bspram__mpi_node_publish_result(s->node, s->result, head + s->appended);
}

/* The segments of every rank's inline runs (reduce()), indexed in s->seg. */
static void index_inline(mpi_state *s)
{
    memset(s->seg, 0, (size_t)s->n * s->Tmax * sizeof *s->seg);
    const char *at = (const char *)(s->result + s->W), *end = at + s->appended;
    while (at < end) {
        uint64_t h[SEG_WORDS];
        memcpy(h, at, sizeof h);
        s->seg[h[0]] = at + sizeof h;
        at += sizeof h + ((h[1] + 7) & ~(uint64_t)7);
    }
}

/* Appends this rank's runs to vec for reduce(), if they are few enough
 * (INLINE_MAX); says whether it did. */
static bool append_inline(mpi_state *s)
{
    uint64_t all = 0;
    for (unsigned t = 0; t < s->T; t++)
        if (s->lane[t].packed)
            all += s->lane[t].total;
    if (!s->inline_ok || all > INLINE_MAX || all >= s->get_bytes)
        return false;
    char *at = (char *)(s->vec + s->W);
    for (unsigned t = 0; t < s->T; t++) {
        const mpi_lane *me = &s->lane[t];
        if (!me->packed || !me->total)
            continue;
        const uint64_t h[SEG_WORDS] = {(uint64_t)s->rank * s->Tmax + t, me->total};
        memcpy(at, h, sizeof h);
        memcpy(at + sizeof h, me->pack, me->total);
        at += sizeof h + ((me->total + 7) & ~(uint64_t)7);
    }
    s->appended = (size_t)(at - (char *)(s->vec + s->W));
    return true;
}

/* This exchange's way (header comment), alike on every rank: from the
 * allreduce's result and rank 0's settings. */
static int pick(const mpi_state *s)
{
    if (s->result[W_INLINE]) /* the counts way, less the inline ranks' sends */
        return WAY_COUNTS;
    if (s->result[W_BYTES] / (uint64_t)s->n >= s->get_bytes)
        return WAY_GET;
    if (s->way_env == WAY_ALLTOALL || s->way_env == WAY_NBX)
        return s->way_env;
    if (s->counts)
        return WAY_COUNTS;
    return s->result[W_DESTS] * NBX_SPARSE <= (uint64_t)s->n ? WAY_NBX : WAY_ALLTOALL;
}

static unsigned mpi_allreduce(bspram_router *r, unsigned lane, unsigned tag, bspram__stats *stats)
{
    mpi_state *s = r->tstate;
    const unsigned i = lane - s->lo;
    /* A lane that posted packs now, so that the allreduce carries what it
     * sends; in a barrier no lane has the bit. */
    s->lane[i].packed = (tag & BSPRAM__TAG_POSTED) != 0;
    if (s->lane[i].packed)
        pack(r, s, lane, (unsigned)(r->lane[lane].step & 1));
    unsigned local = tag;
    if (s->T > 1) {
        if (stats)
            s->slot[i] = *stats;
        local = bspram__router_barrier_wait_doing(&s->barrier, i, tag, i == 0 ? bspram__router_waiting : NULL, r);
    }
    if (i == 0) {
        atomic_store_explicit(&superstep_now, r->lane[lane].step, memory_order_relaxed);
        uint64_t *v = s->vec;
        memset(v, 0, (size_t)s->W * sizeof *v);
        s->appended = 0;
        v[W_TAG] = local;
        if (stats) {
            bspram__stats acc = *stats;
            for (unsigned k = 1; k < s->T; k++)
                bspram__stats_fold(&acc, &s->slot[k]);
            memcpy(v + W_STATS, &acc, sizeof acc);
        }
        if (local & BSPRAM__TAG_POSTED) { /* what this rank's lanes packed */
            const size_t nt = (size_t)s->n * s->Tmax;
            for (int rho = 0; rho < s->n; rho++) {
                uint64_t to = 0;
                for (unsigned t = 0; t < s->T; t++) {
                    const mpi_lane *me = &s->lane[t];
                    if (!me->packed)
                        continue;
                    to += me->to_rank[rho];
                    if (s->counts)
                        v[COUNTS + (size_t)s->rank * nt + (size_t)rho * s->Tmax + t] = me->to_rank[rho];
                }
                v[W_BYTES] += to;
                v[W_DESTS] += rho != s->rank && to;
            }
            if (append_inline(s))
                v[W_INLINE] = (uint64_t)1 << s->rank;
        }
        reduce(s, s->T > 1 ? NULL : bspram__router_waiting, r, "a superstep's exchange: MPI_Allreduce",
               "a superstep's exchange: MPI_Sendrecv");
        s->way = pick(s);
        if (s->result[W_INLINE])
            index_inline(s);
    }
    if (s->T > 1) /* hand the result to the rank's lanes */
        bspram__router_barrier_wait(&s->barrier, i, 0);
    unsigned all = (unsigned)s->result[W_TAG];
    if (stats && i == 0 && (all & BSPRAM__TAG_STATS))
        memcpy(stats, s->result + W_STATS, sizeof *stats);
    return all;
}

static int mpi_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Step 1: lane `lane`'s outboxes as runs, in destination order. */
static void pack(bspram_router *r, mpi_state *s, unsigned lane, unsigned par)
{
    bspram__lane *ln = &r->lane[lane];
    mpi_lane *me = &s->lane[lane - s->lo];
    size_t n = ln->n_touched[par];
    me->order = bspram__grow(me->order, &me->cap_order, n, sizeof *me->order, 256, "a superstep's exchange over MPI");
    memcpy(me->order, ln->touched[par], n * sizeof *me->order);
    if (n > 1)
        qsort(me->order, n, sizeof *me->order, mpi_cmp_u32);
    size_t total = 0;
    for (size_t k = 0; k < n; k++) {
        const bspram__outbox *o = bspram__lane_outbox(ln, par, me->order[k]);
        total += sizeof(run_header);
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next)
            total += ch->used;
    }
    /* Into the lane's window if they fit (an MPI_Get may read them there),
     * else aside (exchange() regrows the window if the MPI_Get path needs it). */
    const unsigned i = lane - s->lo;
    if (total + 1 <= s->wcap[i]) {
        me->pack = s->wbase[i];
    } else {
        me->spill = bspram__grow(me->spill, &me->cap_spill, total + 1, 1, 4096, "a superstep's exchange over MPI");
        me->pack = me->spill;
    }
    me->total = total;
    memset(me->to_rank, 0, (size_t)s->n * sizeof *me->to_rank);
    char *at = me->pack;
    int rho = 0;
    for (size_t k = 0; k < n; k++) {
        const uint32_t dst = me->order[k];
        const bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
        unsigned d = bspram__router_lane_of(r, dst);
        while (d >= s->lane_of_rank[rho + 1])
            rho++;
        run_header h = {dst, (uint32_t)o->count, o->bytes, 0};
        if (o->count > UINT32_MAX)
            bspram__base_fatal("a superstep's exchange: more than 2^32 - 1 messages from lane %u to "
                         "component %u in one superstep (the MPI transport's limit)", lane, dst);
        char *head = at;
        at += sizeof h;
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next) {
            memcpy(at, (const char *)(ch + 1), ch->used);
            at += ch->used;
        }
        h.size = (uint64_t)(at - head) - sizeof h;
        memcpy(head, &h, sizeof h);
        me->to_rank[rho] += (uint64_t)(at - head);
    }
}

static int as_count(uint64_t n, const char *what)
{
    if (n > INT_MAX)
        bspram__base_fatal("over MPI: %s of %llu bytes; MPI counts stop at "
                     "2^31 - 1 (the MPI transport's limit)", what, (unsigned long long)n);
    return (int)n;
}

/* Lane index t's window made large enough for every rank's runs (all ranks
 * alike: collective). The runs already packed move into the new window. */
static void regrow(mpi_state *s, unsigned t)
{
    mpi_lane *me = t < s->T ? &s->lane[t] : NULL;
    if (me && me->pack != me->spill) { /* in the old window: keep them aside */
        me->spill = bspram__grow(me->spill, &me->cap_spill, me->total + 1, 1, 4096,
                                 "a superstep's exchange over MPI");
        memcpy(me->spill, me->pack, me->total);
        me->pack = me->spill;
    }
    if (s->win[t] != MPI_WIN_NULL)
        check(MPI_Win_free(&s->win[t]), "a superstep's exchange: MPI_Win_free");
    uint64_t want = me ? me->total + 1 : 0, cap = s->wcap[t];
    if (want > cap)
        cap = (want + 65535) & ~(uint64_t)65535; /* no slack: MPI may touch every page it allocates */
    void *base = NULL;
    check(MPI_Win_allocate((MPI_Aint)cap, 1, MPI_INFO_NULL, s->comm, &base, &s->win[t]),
          "a superstep's exchange: MPI_Win_allocate");
    MPI_Win_set_errhandler(s->win[t], MPI_ERRORS_RETURN); /* errors end in one line (check) */
    s->wbase[t] = base;
    s->wcap[t] = cap;
    if (me) {
        memcpy(s->wbase[t], me->spill, me->total);
        me->pack = s->wbase[t];
        /* The runs live in the window from now on: the spill's pages would
         * only double what the rank holds of a superstep's messages. */
        free(me->spill);
        me->spill = NULL;
        me->cap_spill = 0;
    }
}

/* Step 2 (the rank's first lane), ways alltoall and get. The counts first:
 * one MPI_Alltoall of COUNT_WORDS words per pair of a lane index and a rank.
 * Then the runs, by the way bench/mpi_exchange.sh measured faster for the
 * superstep's volume (pick()):
 *   few bytes  one MPI_Alltoallv per lane index (a round of messages);
 *   many       each receiver MPI_Gets its runs from the senders' windows,
 *              between two MPI_Win_fence per lane index: one copy on a
 *              node's shared memory where MPI_Alltoallv makes two. */
static void exchange(mpi_state *s, unsigned par, bool get)
{
    const int n = s->n;
    const unsigned Tm = s->Tmax;
    memset(s->sendcnt, 0, (size_t)n * Tm * COUNT_WORDS * sizeof *s->sendcnt);
    for (unsigned t = 0; t < s->T; t++) {
        const mpi_lane *me = &s->lane[t];
        uint64_t off = 0;
        for (int rho = 0; rho < n; rho++) {
            uint64_t *w = s->sendcnt + ((size_t)rho * Tm + t) * COUNT_WORDS;
            w[0] = me->to_rank[rho];
            w[1] = off;
            w[2] = me->pack == me->spill ? me->total + 1 : 0;
            off += me->to_rank[rho];
        }
    }
    check(MPI_Alltoall(s->sendcnt, (int)(Tm * COUNT_WORDS), MPI_UINT64_T, s->recvcnt,
                       (int)(Tm * COUNT_WORDS), MPI_UINT64_T, s->comm),
          "a superstep's exchange: MPI_Alltoall");
    for (unsigned t = 0; t < Tm; t++) {
        uint64_t off = 0;
        for (int rho = 0; rho < n; rho++) {
            s->scounts[rho] = t < s->T ? as_count(s->lane[t].to_rank[rho], "a lane's messages to one rank") : 0;
            s->sdispls[rho] = as_count(off, "a lane's messages to all ranks");
            off += (uint64_t)s->scounts[rho];
        }
        uint64_t in = 0;
        bool grow = false;
        for (int rho = 0; rho < n; rho++) {
            const uint64_t *w = s->recvcnt + ((size_t)rho * Tm + t) * COUNT_WORDS;
            s->rcounts[rho] = as_count(w[0], "a lane's messages to one rank");
            s->rdispls[(size_t)t * n + rho] = (int)in;
            s->rlen[(size_t)t * n + rho] = s->rcounts[rho];
            in += (uint64_t)s->rcounts[rho];
            grow |= w[2] != 0;
        }
        as_count(in, "messages received from one lane index");
        s->rbuf[par][t] = bspram__grow(s->rbuf[par][t], &s->rcap[par][t], (size_t)in + 1, 1, 4096,
                                       "a superstep's exchange over MPI");
        if (get) {
            if (grow)
                regrow(s, t);
            check(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOPUT, s->win[t]),
                  "a superstep's exchange: MPI_Win_fence");
            for (int rho = 0; rho < n; rho++) {
                const uint64_t *w = s->recvcnt + ((size_t)rho * Tm + t) * COUNT_WORDS;
                if (w[0])
                    check(MPI_Get(s->rbuf[par][t] + s->rdispls[(size_t)t * n + rho], (int)w[0], MPI_BYTE,
                                  rho, (MPI_Aint)w[1], (int)w[0], MPI_BYTE, s->win[t]),
                          "a superstep's exchange: MPI_Get");
            }
            check(MPI_Win_fence(MPI_MODE_NOSUCCEED, s->win[t]), "a superstep's exchange: MPI_Win_fence");
            continue;
        }
        static char nothing; /* a lane index this rank lacks sends nothing */
        check(MPI_Alltoallv(t < s->T ? s->lane[t].pack : &nothing, s->scounts, s->sdispls,
                            MPI_BYTE, s->rbuf[par][t], s->rcounts, s->rdispls + (size_t)t * n,
                            MPI_BYTE, s->comm),
              "a superstep's exchange: MPI_Alltoallv");
    }
}

/* Step 2, way counts: every rank knows from the allreduce what each lane
 * index of each rank sends to each rank, so each non-empty pair is one
 * MPI_Irecv and one MPI_Isend (tag: the lane index), and nothing else —
 * but for a rank whose runs came inline in the allreduce: this rank's part
 * of them is copied out (its offset: the bytes for the ranks before it). */
static void known(mpi_state *s, unsigned par)
{
    const int n = s->n;
    const unsigned Tm = s->Tmax;
    const uint64_t *count = s->result + COUNTS; /* [(σ·n + ρ)·Tmax + t] */
    const uint64_t inl = s->result[W_INLINE];
    int nreq = 0;
    for (unsigned t = 0; t < Tm; t++) {
        uint64_t in = 0;
        for (int rho = 0; rho < n; rho++) {
            s->rdispls[(size_t)t * n + rho] = (int)in;
            s->rlen[(size_t)t * n + rho] = as_count(count[((size_t)rho * n + s->rank) * Tm + t],
                                                    "a lane's messages to one rank");
            in += (uint64_t)s->rlen[(size_t)t * n + rho];
        }
        as_count(in, "messages received from one lane index");
        s->rbuf[par][t] = bspram__grow(s->rbuf[par][t], &s->rcap[par][t], (size_t)in + 1, 1, 4096,
                                       "a superstep's exchange over MPI");
        for (int rho = 0; rho < n; rho++) {
            const int len = s->rlen[(size_t)t * n + rho];
            char *into = s->rbuf[par][t] + s->rdispls[(size_t)t * n + rho];
            if (!len)
                continue;
            if (inl >> rho & 1) {
                uint64_t off = 0;
                for (int before = 0; before < s->rank; before++)
                    off += count[((size_t)rho * n + before) * Tm + t];
                memcpy(into, s->seg[(size_t)rho * Tm + t] + off, (size_t)len);
            } else {
                check(MPI_Irecv(into, len, MPI_BYTE, rho, (int)t, s->comm, &s->req[nreq++]),
                      "a superstep's exchange: MPI_Irecv");
            }
        }
    }
    for (unsigned t = 0; t < (inl >> s->rank & 1 ? 0 : s->T); t++) {
        const mpi_lane *me = &s->lane[t];
        uint64_t off = 0;
        for (int rho = 0; rho < n; rho++) {
            const int c = as_count(me->to_rank[rho], "a lane's messages to one rank");
            if (c)
                check(MPI_Isend(me->pack + off, c, MPI_BYTE, rho, (int)t, s->comm, &s->req[nreq++]),
                      "a superstep's exchange: MPI_Isend");
            off += (uint64_t)c;
        }
    }
    if (nreq) /* (every run came inline: MPI has nothing to do) */
        check(MPI_Waitall(nreq, s->req, MPI_STATUSES_IGNORE), "a superstep's exchange: MPI_Waitall");
}

/* Step 2, way nbx: the non-blocking consensus of Hoefler, Siebert and
 * Lumsdaine (PPoPP 2010). Each non-empty pair's runs go by MPI_Issend (tag:
 * the lane index), which completes only once received; a rank receives
 * whatever MPI_Iprobe finds, and enters an MPI_Ibarrier once its own sends
 * have completed; when the barrier completes every rank has entered it, so
 * every message has been received. No counts travel. */
static void nbx(mpi_state *s, unsigned par)
{
    const int n = s->n;
    const unsigned Tm = s->Tmax;
    memset(s->rlen, 0, (size_t)n * Tm * sizeof *s->rlen);
    memset(s->used, 0, Tm * sizeof *s->used);
    int nreq = 0;
    for (unsigned t = 0; t < s->T; t++) {
        const mpi_lane *me = &s->lane[t];
        uint64_t off = 0;
        for (int rho = 0; rho < n; rho++) {
            const int c = as_count(me->to_rank[rho], "a lane's messages to one rank");
            if (c)
                check(MPI_Issend(me->pack + off, c, MPI_BYTE, rho, (int)t, s->comm, &s->req[nreq++]),
                      "a superstep's exchange: MPI_Issend");
            off += (uint64_t)c;
        }
    }
    MPI_Request barrier = MPI_REQUEST_NULL;
    for (int done = 0; !done;) {
        int found = 0;
        MPI_Status st;
        check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, s->comm, &found, &st), "a superstep's exchange: MPI_Iprobe");
        if (found) {
            int c = 0;
            MPI_Get_count(&st, MPI_BYTE, &c);
            const unsigned t = (unsigned)st.MPI_TAG;
            const size_t at = (size_t)s->used[t];
            as_count(at + (size_t)c, "messages received from one lane index");
            s->rbuf[par][t] = bspram__grow(s->rbuf[par][t], &s->rcap[par][t], at + (size_t)c + 1, 1, 4096,
                                           "a superstep's exchange over MPI");
            check(MPI_Recv(s->rbuf[par][t] + at, c, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, s->comm,
                           MPI_STATUS_IGNORE),
                  "a superstep's exchange: MPI_Recv");
            s->rdispls[(size_t)t * n + st.MPI_SOURCE] = (int)at;
            s->rlen[(size_t)t * n + st.MPI_SOURCE] = c;
            s->used[t] += (uint64_t)c;
        } else if (barrier == MPI_REQUEST_NULL) {
            int sent = 0;
            check(MPI_Testall(nreq, s->req, &sent, MPI_STATUSES_IGNORE), "a superstep's exchange: MPI_Testall");
            if (sent)
                check(MPI_Ibarrier(s->comm, &barrier), "a superstep's exchange: MPI_Ibarrier");
        } else {
            check(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE), "a superstep's exchange: MPI_Test");
        }
    }
}

/* Step 3: lane `lane`'s inboxes from the received runs. */
static void unpack(bspram_router *r, mpi_state *s, unsigned lane, unsigned par)
{
    bspram__lane *ln = &r->lane[lane];
    mpi_lane *me = &s->lane[lane - s->lo];
    const uint64_t first = ln->first, nd = ln->end - ln->first;
    me->cursor = bspram__grow(me->cursor, &me->cap_cursor, (size_t)nd + 1, sizeof *me->cursor, 64,
                              "a superstep's exchange over MPI");
    memset(me->cursor, 0, ((size_t)nd + 1) * sizeof *me->cursor);
    uint64_t *bytes = ln->in_off; /* borrowed as per-destination byte counts */
    memset(bytes, 0, ((size_t)nd + 1) * sizeof *bytes);
    size_t nruns = 0;
    for (int rho = 0; rho < s->n; rho++) {
        unsigned T_rho = s->lane_of_rank[rho + 1] - s->lane_of_rank[rho];
        for (unsigned t = 0; t < T_rho; t++) {
            size_t at = (size_t)s->rdispls[(size_t)t * s->n + rho];
            const size_t end = at + (size_t)s->rlen[(size_t)t * s->n + rho];
            const char *buf = s->rbuf[par][t];
            while (at < end) {
                const run_header *h = (const run_header *)(buf + at);
                if (h->dst >= first && h->dst < ln->end) {
                    me->runs = bspram__grow(me->runs, &me->cap_runs, nruns + 1, sizeof *me->runs, 64,
                                            "a superstep's exchange over MPI");
                    me->runs[nruns++] = h;
                    me->cursor[h->dst - first] += h->count;
                    bytes[h->dst - first] += h->counted;
                }
                at += sizeof *h + (size_t)h->size;
            }
        }
    }
    bspram__router_lane_inbox_layout(ln, par, me->cursor, bytes);
    for (size_t k = 0; k < nruns; k++) {
        const run_header *h = me->runs[k];
        const char *at = (const char *)(h + 1), *end = at + h->size;
        bspram__router_entry_messages(at, end, ln->in + me->cursor[h->dst - first], h->dst);
        me->cursor[h->dst - first] += h->count;
    }
}

static void mpi_deliver(bspram_router *r, unsigned lane)
{
    mpi_state *s = r->tstate;
    const unsigned par = (unsigned)(r->lane[lane].step & 1);
    const unsigned i = lane - s->lo;
    r->lane[lane].lazy = false;
    if (!s->lane[i].packed) /* posted nothing: no runs */
        pack(r, s, lane, par);
    s->lane[i].packed = false;
    if (s->T > 1)
        bspram__router_barrier_wait(&s->barrier, i, 0); /* every lane has packed */
    if (i == 0) {
        if (s->way == WAY_COUNTS)
            known(s, par);
        else if (s->way == WAY_NBX)
            nbx(s, par);
        else
            exchange(s, par, s->way == WAY_GET);
    }
    if (s->T > 1)
        bspram__router_barrier_wait(&s->barrier, i, 0); /* the runs have arrived */
    unpack(r, s, lane, par);
    /* No further barrier: a lane packs again only after the next allreduce,
     * and the receive buffers of this parity are refilled two exchanges on. */
}

static void mpi_fold(void *state, bspram__stats *stats)
{
    mpi_state *s = state;
    if (!s)
        return;
    memset(s->vec, 0, (size_t)s->W * sizeof *s->vec);
    s->appended = 0;
    memcpy(s->vec + W_STATS, stats, sizeof *stats);
    reduce(s, NULL, NULL, "completing the records: MPI_Allreduce", "completing the records: MPI_Sendrecv");
    memcpy(stats, s->result + W_STATS, sizeof *stats);
}

static void mpi_gather(void *state, void *all, size_t n)
{
    mpi_state *s = state;
    for (int rho = 0; rho < s->n; rho++) { /* counts and places in bytes: below 2^31 (exchange.c) */
        s->scounts[rho] = (int)((s->lane_of_rank[rho + 1] - s->lane_of_rank[rho]) * n);
        s->sdispls[rho] = (int)(s->lane_of_rank[rho] * n);
    }
    check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, all, s->scounts, s->sdispls, MPI_BYTE, s->comm),
          "gathering what the processes agree on: MPI_Allgatherv");
}

static void mpi_merge(void *state, uint64_t *words, size_t n, int op)
{
    mpi_state *s = state;
    for (size_t at = 0; at < n;) { /* MPI counts are ints */
        int k = n - at > (size_t)INT_MAX ? INT_MAX : (int)(n - at);
        check(MPI_Allreduce(MPI_IN_PLACE, words + at, k, MPI_UINT64_T,
                            op == BSPRAM_MERGE_SUM ? MPI_SUM : MPI_BOR, s->comm),
              "merging the ranks' parts: MPI_Allreduce");
        at += (size_t)k;
    }
}

static void *mpi_concat(void *state, const void *mine, size_t bytes, size_t *total)
{
    mpi_state *s = state;
    uint64_t b = bytes, *all_bytes = bspram__base_malloc((size_t)s->n * sizeof *all_bytes, "gathering the ranks' parts");
    check(MPI_Allgather(&b, 1, MPI_UINT64_T, all_bytes, 1, MPI_UINT64_T, s->comm),
          "gathering the ranks' parts: MPI_Allgather");
    uint64_t sum = 0;
    for (int rho = 0; rho < s->n; rho++) {
        s->rcounts[rho] = as_count(all_bytes[rho], "one rank's part of a concatenation");
        s->sdispls[rho] = as_count(sum, "a concatenation");
        sum += all_bytes[rho];
    }
    as_count(sum, "a concatenation");
    free(all_bytes);
    char *all = bspram__base_malloc(sum ? (size_t)sum : 1, "gathering the ranks' parts");
    check(MPI_Allgatherv(mine, (int)bytes, MPI_BYTE, all, s->rcounts, s->sdispls, MPI_BYTE, s->comm),
          "gathering the ranks' parts: MPI_Allgatherv");
    *total = (size_t)sum;
    return all;
}

static void mpi_abort(int status) { MPI_Abort(MPI_COMM_WORLD, status); }

const bspram__transport bspram__router_transport_mpi = {
    .name = "mpi",
    .shares_memory = false,
    .open = mpi_open,
    .close = mpi_close,
    .allreduce = mpi_allreduce,
    .deliver = mpi_deliver,
    .abort = mpi_abort,
    .fold = mpi_fold,
    .gather = mpi_gather,
    .merge = mpi_merge,
    .concat = mpi_concat,
    .rank = bspram__router_mpi_rank,
    .ranks = bspram__router_mpi_size,
};

/* Linking the MPI library makes "mpi" the default transport. */
__attribute__((constructor)) static void register_mpi(void) { bspram__router_transport_register(&bspram__router_transport_mpi); }
