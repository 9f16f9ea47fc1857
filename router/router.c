/* The router: posting, the exchange protocol around the transport, records.
 *
 * Posting appends the message (a 16-byte entry and the payload) to the
 * lane's outbox for its destination; so each payload is written once, and
 * every outbox holds its messages in (source, issue) order.
 *
 * One exchange (thread of lane l), every step between lanes through the
 * transport (transport.h):
 *   1. close the lane's send statistics; the transport's allreduce ORs the
 *      tags — telling every lane whether anything was posted at all — and
 *      reduces the lanes' statistics to lane 0: this superstep's send side
 *      and the previous superstep's receive side;
 *   2. lane 0 completes the previous record (r and h) and appends this one
 *      with its send side (q, messages, bytes, …);
 *   3. if anything was posted, the transport builds the inboxes of the lane's
 *      own block and computes their r and h, which reach lane 0 with the
 *      next exchange's reduction (or at bspram__router_flush);
 *   4. the lane resets the storage of the other parity for the superstep to come.
 * So an exchange costs one allreduce (one barrier on shared memory), empty or not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/abort.h"
#include "base/environment.h"
#include "base/clock.h"
#include "base/error.h"
#include "base/grow.h"
#include "router/router_internal.h"
#include "router/router.h"

#define ROUTER_BIT BSPRAM__TAG_POSTED /* some lane posted a message */
/* An arena's first block is 1 MiB of ordinary pages, touched only as far as
 * it is used (thousands of lanes that post a few words each stay small); a
 * lane that posts more gets blocks of 2 MiB on huge pages. */
#define ARENA_FIRST ((size_t)1 << 20)
#define ARENA_BLOCK ((size_t)2 << 20)
#define HUGE_PAGE ((size_t)2 << 20)
/* A lane posts through its windows for WINDOWS_KEEP supersteps after one in
 * which it posted more than its share of the last-level cache (both parities
 * of every lane's storage no longer fit: the lines would go to memory anyway;
 * below, receivers find them in cache, and copying them out of the windows
 * with non-temporal stores would only send them away). Programs alternate
 * heavy and light supersteps (a combining batch's phases and their replies),
 * hence the supersteps of grace. */
#define WINDOWS_KEEP 8u
#define WINDOWS_CACHE_DEFAULT ((uint64_t)32 << 20) /* when sysconf cannot tell */

/* The size of the last-level cache, as Linux describes it in sysfs (in VMs,
 * sysconf's figure comes from CPUID and may be the host's: 384 MiB on a VM
 * with 32 MiB). */
static uint64_t last_level_cache(void)
{
    uint64_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 8; i++) {
        char path[96];
        int level = 0;
        unsigned long long kib = 0;
        char unit = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int ok = fscanf(f, "%d", &level) == 1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!ok || !(f = fopen(path, "r")))
            continue;
        ok = fscanf(f, "%llu%c", &kib, &unit) == 2 && unit == 'K';
        fclose(f);
        if (ok && level > best_level) {
            best_level = level;
            best = (uint64_t)kib << 10;
        }
    }
    return best ? best : WINDOWS_CACHE_DEFAULT;
}

static uint64_t windows_from(unsigned lanes) { return last_level_cache() / 2 / lanes; }

/* p < 2^32 and l ≤ lanes < 2^32, so p·l fits in 64 bits. */
static uint64_t lane_first(uint64_t p, unsigned lanes, unsigned l)
{
    return p * l / lanes;
}

static const bspram__transport *registered; /* set before main, by a constructor */

bspram_router *bspram__router_create(uint64_t p, unsigned lanes)
{
    return bspram__router_create_on(p, lanes, bspram__base_environment_read().transport);
}

bspram_router *bspram__router_create_on(uint64_t p, unsigned lanes, const char *transport)
{
    const char *fallback = registered ? registered->name : "shm";
    const bspram__transport *t = bspram__router_transport_find(transport && *transport ? transport : fallback);
    if (!t)
        bspram__base_fatal("the router's transport '%s' (BSPRAM_TRANSPORT) is unknown; valid: shm, staged%s%s",
                     transport,
                     registered ? ", " : "", registered ? registered->name : "");
    if (p < 1 || p > BSPRAM_MAX_COMPONENTS)
        bspram__base_fatal("internal error: a router of p = %llu components on %u lanes; p must be in [1, %llu]",
                     (unsigned long long)p, lanes, (unsigned long long)BSPRAM_MAX_COMPONENTS);
    if (lanes < 1)
        bspram__base_fatal("internal error: a router of p = %llu components on %u lanes; lanes must be >= 1",
                     (unsigned long long)p, lanes);
    bspram_router *r = aligned_alloc(64, (sizeof *r + 63) / 64 * 64);
    if (!r)
        bspram__base_fatal("the router of p = %llu components on %u lanes: out of memory", (unsigned long long)p, lanes);
    memset(r, 0, sizeof *r);
    r->p = p;
    r->lanes = lanes;
    r->transport = t;
    r->lane_lo = 0;
    r->lane_hi = lanes;
    if (t->abort)
        bspram__base_set_abort(t->abort);
    r->tstate = t->open ? t->open(lanes, &r->lane_lo, &r->lane_hi) : NULL;
    r->lane = aligned_alloc(64, ((sizeof(bspram__lane) * lanes + 63) / 64) * 64);
    if (!r->lane)
        bspram__base_fatal("the router of p = %llu components on %u lanes: out of memory", (unsigned long long)p, lanes);
    memset(r->lane, 0, sizeof(bspram__lane) * lanes);
    for (unsigned l = 0; l < lanes; l++) {
        r->lane[l].first = lane_first(p, lanes, l);
        r->lane[l].end = lane_first(p, lanes, l + 1);
    }
    /* Only this process's lanes post and receive here (all of them on
     * shared memory); the others' blocks are known for lane_of. Their
     * tables indexed by destination (outboxes, hints, sender lists: 144
     * bytes per destination and lane, O(p x lanes) in all, P^2 for BSPlib)
     * are one mapping whose pages cost memory only once a post writes them,
     * so a program's memory follows the destinations it uses. Each lane's
     * slab starts on a page, so its outboxes are cache-line aligned. */
    size_t ob = (size_t)(p + BSPRAM__OUTBOX_RUN - 1) / BSPRAM__OUTBOX_RUN * 2 * BSPRAM__OUTBOX_RUN *
                sizeof(bspram__outbox),
           hb = (size_t)p * sizeof(uint32_t), sb = (size_t)lanes * sizeof(uint32_t),
           page = (size_t)sysconf(_SC_PAGESIZE);
    r->slab = (ob + hb + 2 * sb + page - 1) / page * page;
    r->slabs_bytes = r->slab * (r->lane_hi - r->lane_lo);
    r->slabs = bspram__base_pages(r->slabs_bytes, "the router");
    for (unsigned l = r->lane_lo; l < r->lane_hi; l++) {
        bspram__lane *ln = &r->lane[l];
        char *slab = r->slabs + (l - r->lane_lo) * r->slab;
        ln->outboxes = (bspram__outbox *)slab;
        ln->hint = (uint32_t *)(slab + ob);
        ln->senders = (uint32_t *)(slab + ob + hb + sb);
        for (int par = 0; par < 2; par++) {
            ln->sent[par].src = ln->first;
            atomic_init(&ln->n_senders[par], 0);
            ln->registered[par] = bspram__base_calloc((lanes + 63) / 64, sizeof(uint64_t), "the router");
        }
        ln->cap_registered = (lanes + 63) / 64 * sizeof(uint64_t);
        ln->in_off = bspram__base_calloc(ln->end - ln->first + 1, sizeof *ln->in_off, "the router");
        ln->in_built = bspram__base_calloc(ln->end - ln->first + 1, sizeof *ln->in_built, "the router");
        ln->n_runs = bspram__base_calloc(ln->end - ln->first + 1, sizeof *ln->n_runs, "the router");
        ln->runs_built = bspram__base_calloc(ln->end - ln->first + 1, sizeof *ln->runs_built, "the router");
    }
    r->gather = bspram__base_calloc(lanes, sizeof *r->gather, "the router");
    strcpy(r->label, "superstep");
    r->windows_from = windows_from(lanes);
    r->clock = bspram__clock();
    return r;
}

static void arena_free(bspram__arena *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->blocks[i].base);
    free(a->blocks);
}

void bspram__router_destroy(bspram_router *r)
{
    if (!r)
        return;
    for (unsigned l = 0; l < r->lanes; l++) {
        bspram__lane *ln = &r->lane[l];
        for (int par = 0; par < 2; par++) {
            arena_free(&ln->arena[par]);
            free(ln->touched[par]);
            free(ln->registered[par]);
            free(ln->flows[par]);
            free(ln->loads[par]);
        }
        free(ln->unsorted);
        free(ln->in);
        free(ln->in_off);
        free(ln->in_built);
        free(ln->n_runs);
        free(ln->runs_built);
        free(ln->runs);
        free(ln->window);
    }
    bspram__base_pages_free(r->slabs, r->slabs_bytes);
    free(r->lane);
    free(r->gather);
    if (r->transport->close)
        r->transport->close(r->tstate);
    bspram_log_free(&r->log);
    bspram_pattern_free(&r->pattern);
    free(r);
}

uint64_t bspram__router_p(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return r->p;
}

unsigned bspram__router_lanes(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return r->lanes;
}

void bspram__router_local_lanes(const bspram_router *r, unsigned *lo, unsigned *hi)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(lo);
    BSPRAM_NONNULL(hi);
    *lo = r->lane_lo;
    *hi = r->lane_hi;
}

uint64_t bspram__router_lane_first(const bspram_router *r, unsigned lane)
{
    BSPRAM_NONNULL(r);
    return lane >= r->lanes ? r->p : r->lane[lane].first;
}

unsigned bspram__router_lane_of(const bspram_router *r, uint64_t c)
{
    BSPRAM_NONNULL(r);
    /* The largest l with first(l) <= c; first(l) = floor(l·p/L). (c + 1)·L
     * fits in 64 bits: c < p < 2^32 and L < 2^32. */
    unsigned l = (unsigned)(((c + 1) * r->lanes - 1) / r->p);
    if (l >= r->lanes)
        l = r->lanes - 1;
    while (l > 0 && r->lane[l].first > c)
        l--;
    while (l + 1 < r->lanes && r->lane[l + 1].first <= c)
        l++;
    return l;
}

/* n bytes on whole cache lines; from 2 MiB on, on transparent huge pages
 * where the kernel gives them: scattered posts and reads then miss the TLB
 * far less often (a 4 KiB page per destination run otherwise). */
static void *huge_alloc(size_t n, const char *call)
{
    size_t align = n >= HUGE_PAGE ? HUGE_PAGE : BSPRAM__LINE;
    n = (n + align - 1) & ~(align - 1);
    void *p = aligned_alloc(align, n);
    if (!p)
        bspram__base_fatal("%s: out of memory (%zu bytes)", call, n);
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE)
        madvise(p, n, MADV_HUGEPAGE); /* advice: nothing to do if refused */
#endif
    return p;
}

/* Space for len bytes, on whole cache lines, that never moves. */
static void *arena_take(bspram__arena *a, uint64_t len)
{
    size_t need = ((size_t)len + BSPRAM__LINE - 1) & ~(size_t)(BSPRAM__LINE - 1);
    if (a->n && a->blocks[a->cur].cap - a->blocks[a->cur].used >= need) {
        bspram__arena_block *b = &a->blocks[a->cur];
        void *p = b->base + b->used;
        b->used += need;
        return p;
    }
    /* Move on to a later block that fits, bringing it next to the current
     * one, or make a new block; blocks are reused across supersteps. */
    size_t next = a->n ? a->cur + 1 : 0;
    size_t fit = next;
    while (fit < a->n && a->blocks[fit].cap < need)
        fit++;
    if (fit == a->n) {
        a->blocks = bspram__grow(a->blocks, &a->cap, a->n + 1, sizeof *a->blocks, 8, "the messages' storage");
        size_t block = a->n ? ARENA_BLOCK : ARENA_FIRST;
        size_t cap = need > block ? need : block;
        a->blocks[a->n].base = huge_alloc(cap, "the messages' payloads");
        a->blocks[a->n].cap = cap;
        a->blocks[a->n].used = 0;
        a->n++;
    }
    bspram__arena_block tmp = a->blocks[fit];
    a->blocks[fit] = a->blocks[next];
    a->blocks[next] = tmp;
    a->cur = next;
    a->blocks[next].used = need;
    return a->blocks[next].base;
}

static void arena_reset(bspram__arena *a)
{
    for (size_t i = 0; i < a->n; i++)
        a->blocks[i].used = 0;
    a->cur = 0;
}

/* Fold the current component's counts into the lane's maxima. */
static void close_src(bspram__lane_sent *s)
{
    s->messages += s->src_count;
    s->bytes += s->src_bytes;
    if (s->src_count > s->q)
        s->q = s->src_count;
    if (s->src_bytes > s->h_out)
        s->h_out = s->src_bytes;
    if (s->src_work > s->work)
        s->work = s->src_work;
    s->src_count = s->src_bytes = s->src_work = 0;
}

/* Make src the lane's current component, closing the statistics of the
 * previous one. Sources must be in the lane and must not decrease, so that
 * the lane's posting order is (source, issue) order. */
static __attribute__((noinline)) void enter_src(bspram__lane *ln, unsigned lane, uint64_t src,
                                                const char *call)
{
    bspram__lane_sent *s = &ln->sent[ln->step & 1];
    if (src == s->src)
        return;
    if (src < s->src || src >= ln->end)
        bspram__base_fatal("%s: component %llu cannot act in lane %u now (lane serves [%llu, %llu), "
                     "component %llu already acted; superstep %llu)", call,
                     (unsigned long long)src, lane, (unsigned long long)ln->first,
                     (unsigned long long)ln->end, (unsigned long long)s->src,
                     (unsigned long long)ln->step);
    close_src(s);
    s->src = src;
}

static char *chunk_data(bspram__chunk *ch) { return (char *)(ch + 1); }

/* Where the next entry of outbox o goes in its tail chunk. */
static char *chunk_cursor(const bspram__outbox *o, const char *window)
{
    return o->line ? o->line + (o->at - window) : o->at;
}

static char *line_floor(char *x) { return (char *)((uintptr_t)x & ~(uintptr_t)(BSPRAM__LINE - 1)); }

/* Copy n bytes (whole lines, both ends line-aligned) from a window to its
 * chunk. Non-temporal (windows are used only when supersteps outgrow the
 * caches), so the
 * lines go to memory without being read first and without evicting the
 * windows; ordered before the exchange's barrier by outboxes_close's fence.
 * Plain copies under the sanitizers, so that they check every byte as an
 * ordinary store. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BSPRAM__NO_STREAM 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BSPRAM__NO_STREAM 1
#endif
#endif
#if defined(__SSE2__) && !defined(BSPRAM__NO_STREAM)
#include <emmintrin.h>
static void lines_copy(char *to, const char *from, size_t n)
{
    for (size_t i = 0; i < n; i += 16)
        _mm_stream_si128((__m128i *)(void *)(to + i), _mm_load_si128((const __m128i *)(const void *)(from + i)));
}
static void lines_fence(void) { _mm_sfence(); }
#else
static void lines_copy(char *to, const char *from, size_t n) { memcpy(to, from, n); }
static void lines_fence(void) {}
#endif

/* Lane ln's window for dst (NULL before the lane first needed windows). */
static char *window_of(const bspram__lane *ln, uint32_t dst)
{
    return ln->window ? ln->window + (size_t)dst * BSPRAM__WINDOW : NULL;
}

/* Close o's window: copy its lines up to the cursor's (the last one whole:
 * chunks are whole lines, and bytes past the cursor are never read). Returns
 * the chunk cursor; o->at = o->limit = it, so the next post takes the slow path. */
static char *window_close(bspram__outbox *o, const char *window)
{
    char *at = chunk_cursor(o, window);
    if (o->line) {
        size_t n = (size_t)(line_floor(at + BSPRAM__LINE - 1) - o->line);
        lines_copy(o->line, window, n);
        o->line = NULL;
    }
    o->at = o->limit = at;
    return at;
}

/* The first message to dst this superstep: note dst, and register with the
 * lane that serves it if this is our first message to its block. */
static void outbox_open(bspram_router *r, unsigned lane, unsigned par, uint32_t dst)
{
    bspram__lane *ln = &r->lane[lane];
    ln->touched[par] = bspram__grow(ln->touched[par], &ln->cap_touched[par], ln->n_touched[par] + 1,
                                    sizeof(uint32_t), 256, "the messages' storage");
    ln->touched[par][ln->n_touched[par]++] = dst;
    unsigned d = bspram__router_lane_of(r, dst);
    uint64_t bit = UINT64_C(1) << (d % 64);
    if (!(ln->registered[par][d / 64] & bit)) { /* first message to d's block */
        ln->registered[par][d / 64] |= bit;
        bspram__lane *to = &r->lane[d];
        if (d < r->lane_lo || d >= r->lane_hi)
            return; /* another process's lane: its transport delivers without the list */
        unsigned k = atomic_fetch_add_explicit(&to->n_senders[par], 1, memory_order_relaxed);
        *(par ? to->senders + k : to->senders - 1 - k) = lane; /* published by the exchange's barrier */
    }
}

/* Start a new tail chunk for outbox o (to dst) with room for at least `need`
 * bytes; `at` is the old tail's cursor. Returns the new chunk's data. */
static char *chunk_add(bspram__lane *ln, unsigned par, bspram__outbox *o, uint32_t dst, char *at,
                       size_t need)
{
    bspram__chunk *t = o->tail;
    if (t)
        t->used = (uint64_t)(at - chunk_data(t));
    /* Chunks grow geometrically; the first is as large as last time's total. */
    size_t cap = t ? 2 * t->cap : (ln->hint[dst] > 192 ? (size_t)ln->hint[dst] : 192);
    if (cap > (1u << 20))
        cap = 1u << 20;
    if (cap < need)
        cap = need;
    cap = (cap + BSPRAM__LINE - 1) & ~(size_t)(BSPRAM__LINE - 1);
    bspram__chunk *ch = arena_take(&ln->arena[par], sizeof *ch + cap);
    ch->next = NULL;
    ch->cap = cap;
    ch->used = 0;
    if (t)
        t->next = ch;
    else
        o->head = ch;
    o->tail = ch;
    o->end = chunk_data(ch) + cap;
    return chunk_data(ch);
}

/* Make room for an entry of `need` bytes in outbox o of lane ln. The usual
 * case: the window is full and the chunk has room; its complete lines go to
 * the chunk and the line under the cursor moves to the window's start (it is
 * copied once, when complete or at the exchange). Otherwise: close the window,
 * start a chunk if the tail is full, and open the window at the cursor's line
 * if the entry fits in a window (the line's bytes so far come along: they are
 * final, as the caller wrote its last payload before posting again); a
 * larger entry goes straight to the chunk, and the next post comes back here. */
static void outbox_make_room(bspram_router *r, unsigned lane, unsigned par, bspram__outbox *o,
                             uint32_t dst, size_t need)
{
    bspram__lane *ln = &r->lane[lane];
    char *window = window_of(ln, dst);
    char *at, *end = o->end;
    if (o->line) {
        at = chunk_cursor(o, window);
        char *line = line_floor(at);
        size_t keep = (size_t)(at - line);
        if ((size_t)(end - at) >= need && need <= BSPRAM__WINDOW - keep) {
            size_t full = (size_t)(line - o->line);
            lines_copy(o->line, window, full);
            if (keep && full)
                memcpy(window, window + full, BSPRAM__LINE);
            o->line = line;
            o->at = window + keep;
            o->limit = window + ((size_t)(end - line) < BSPRAM__WINDOW ? (size_t)(end - line) : BSPRAM__WINDOW);
            return;
        }
        window_close(o, window);
    } else if (!o->tail) {
        outbox_open(r, lane, par, dst);
        at = NULL;
    } else {
        at = o->at;
    }
    if (!o->tail || (size_t)(end - at) < need) {
        at = chunk_add(ln, par, o, dst, at, need);
        end = o->end;
    }
    char *line = line_floor(at);
    if (!ln->windows || need > BSPRAM__WINDOW - (size_t)(at - line)) {
        /* No windows: the chunk is the cursor's home; a large entry: it is,
         * for this entry only. */
        o->at = at;
        o->limit = ln->windows ? at + need : end;
        return;
    }
    if (at != line) /* the line was copied whole by window_close, or written directly */
        memcpy(window, line, BSPRAM__LINE);
    o->line = line;
    o->at = window + (at - line);
    o->limit = window + ((size_t)(end - line) < BSPRAM__WINDOW ? (size_t)(end - line) : BSPRAM__WINDOW);
}

/* Entering the exchange: close the windows and record how far each tail
 * chunk was filled; the fence makes the windows' non-temporal copies visible
 * to the lanes that read them after the barrier. */
static void outboxes_close(bspram__lane *ln, unsigned par)
{
    for (size_t i = 0; i < ln->n_touched[par]; i++) {
        uint32_t dst = ln->touched[par][i];
        bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
        char *at = window_close(o, window_of(ln, dst));
        o->tail->used = (uint64_t)(at - chunk_data(o->tail));
    }
    if (ln->windows && ln->n_touched[par])
        lines_fence();
}

/* What posting does rarely — a bad destination, a new source component, a
 * full window or chunk — out of line, so that the hot path saves no registers
 * (every put and send goes through bspram__router_post). Returns to the hot
 * path, which then succeeds. */
void *bspram__router_post_slow(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint64_t len,
                        uint64_t extra, const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    if (dst >= r->p)
        bspram__base_fatal("%s(dst=%llu): destination outside [0, %llu) (superstep %llu, component %llu)",
                     call, (unsigned long long)dst, (unsigned long long)r->p,
                     (unsigned long long)ln->step, (unsigned long long)src);
    if (len > BSPRAM_MAX_MESSAGE)
        bspram__base_fatal("%s(dst=%llu, len=%llu): message too large; at most %llu bytes (superstep "
                     "%llu, component %llu)", call, (unsigned long long)dst,
                     (unsigned long long)len, (unsigned long long)BSPRAM_MAX_MESSAGE,
                     (unsigned long long)ln->step, (unsigned long long)src);
    enter_src(ln, lane, src, call);
    bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
    size_t need = (size_t)bspram__entry_size(len, extra);
    if ((size_t)(o->limit - o->at) < need)
        outbox_make_room(r, lane, par, o, (uint32_t)dst, need);
    return bspram__post_entry(o, &ln->sent[par], src, len, extra, need);
}

/* The record channel's rare cases (bspram__reserve): checks, a new source
 * component, a window open over the outbox, a full chunk. A run goes to the
 * chunk itself, never through a window, so that its room stays where it is
 * until the exchange and several runs can be filled in any order; the
 * window, if one was open, is closed first, and the outbox's cursor stays in
 * the chunk after the run (the next post reopens a window). */
void *bspram__router_reserve_slow(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                                  uint64_t count, const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    if (dst >= r->p)
        bspram__base_fatal("%s(dst=%llu): destination outside [0, %llu) (superstep %llu, component %llu)",
                     call, (unsigned long long)dst, (unsigned long long)r->p,
                     (unsigned long long)ln->step, (unsigned long long)src);
    if (size < 8 || size > BSPRAM__RUN_MAX_SIZE || (size & 7) || count < 1 ||
        count > BSPRAM_MAX_MESSAGE / BSPRAM__RUN_MAX_SIZE)
        bspram__base_fatal("%s(dst=%llu, size=%u, count=%llu): a run holds 1 to 2^53 records of 8 to %u bytes, "
                     "a multiple of 8 (superstep %llu, component %llu)", call, (unsigned long long)dst, size,
                     (unsigned long long)count, BSPRAM__RUN_MAX_SIZE,
                     (unsigned long long)ln->step, (unsigned long long)src);
    enter_src(ln, lane, src, call);
    bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
    const bool is_long = count > BSPRAM__RUN_MAX_COUNT;
    const size_t need = (is_long ? sizeof(bspram__entry_run_long) : sizeof(bspram__entry)) + (size_t)size * count;
    char *at;
    if (o->line)
        at = window_close(o, window_of(ln, (uint32_t)dst));
    else if (!o->tail) {
        outbox_open(r, lane, par, (uint32_t)dst);
        at = NULL;
    } else
        at = o->at;
    if (!o->tail || (size_t)(o->end - at) < need)
        at = chunk_add(ln, par, o, (uint32_t)dst, at, need);
    o->at = at;
    o->limit = o->end;
    if (!is_long)
        return bspram__reserve(r, lane, src, dst, size, count, call);
    bspram__entry_run_long *e = (bspram__entry_run_long *)at;
    e->head.src = (uint32_t)src;
    e->head.len32 = BSPRAM__RUN_BIT | BSPRAM__RUN_LONG_BIT | (size / 8 - 1) << 24;
    e->count = count;
    o->at += need;
    o->count += count;
    o->bytes += (uint64_t)size * count;
    bspram__lane_sent *st = &ln->sent[par];
    st->src_count += count;
    st->src_bytes += (uint64_t)size * count;
    if (size > st->max_message)
        st->max_message = size;
    return e + 1;
}

void *bspram__router_reserve(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                             uint64_t count, const char *call)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(call);
    return bspram__reserve(r, lane, src, dst, size, count, call);
}

void bspram__router_reserve_runs(bspram_router *r, unsigned lane, uint64_t src, uint32_t size, size_t n,
                                 const uint32_t *dst, uint32_t *count, char **cursor, const char *call)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(call);
    if (n) {
        BSPRAM_NONNULL(dst);
        BSPRAM_NONNULL(count);
        BSPRAM_NONNULL(cursor);
    }
    bspram__reserve_runs(r, lane, src, size, n, dst, count, cursor, call);
}

void *bspram__router_post(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint64_t len,
                         const char *call)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(call);
    return bspram__post(r, lane, src, dst, len, call);
}

void *bspram__router_post_counted(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst,
                                 uint64_t len, uint64_t counted, const char *call)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(call);
    if (counted < len || counted - len > UINT32_MAX)
        bspram__base_fatal("%s: a message storing %llu bytes cannot count %llu (it must count between "
                     "its size and its size + %u)", call, (unsigned long long)len,
                     (unsigned long long)counted, UINT32_MAX);
    return bspram__router_post_slow(r, lane, src, dst, len, counted - len, call);
}

void bspram__router_send_from(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, const void *data,
                  uint64_t len, const char *call)
{
    if (!data && len)
        bspram__base_fatal("%s(dst=%llu, data=NULL, len=%llu): NULL payload with a non-zero size "
                     "(superstep %llu, component %llu)", call, (unsigned long long)dst,
                     (unsigned long long)len, (unsigned long long)r->lane[lane].step,
                     (unsigned long long)src);
    void *dest = bspram__post(r, lane, src, dst, len, call);
    if (len)
        memcpy(dest, data, (size_t)len);
}

void bspram__router_send(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst,
                        const void *data, uint64_t len, const char *call)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(call);
    bspram__router_send_from(r, lane, src, dst, data, len, call);
}

void bspram__router_work(bspram_router *r, unsigned lane, uint64_t src, uint64_t w)
{
    BSPRAM_NONNULL(r);
    bspram__lane *ln = &r->lane[lane];
    enter_src(ln, lane, src, "bspram_work");
    ln->sent[ln->step & 1].src_work += w;
    if (r->keep_pattern)
        bspram__router_lane_loads(ln, (unsigned)(ln->step & 1))[src - ln->first].work += w;
}

/* This lane's part of the exchange's statistics: what it sent in this
 * superstep (parity par; if with_sent) and, if the previous exchange delivered, the most
 * its components received then (the previous record's receive side). Returns
 * BSPRAM__TAG_STATS if any is non-zero. */
static unsigned lane_stats(const bspram__lane *ln, unsigned par, int with_sent, bspram__stats *st)
{
    const bspram__lane_sent *s = &ln->sent[par];
    memset(st, 0, sizeof *st);
    if (with_sent)
        *st = (bspram__stats){s->messages, s->bytes, s->q, s->h_out, s->max_message, s->work, 0, 0};
    if (ln->delivered) {
        st->r = ln->r[par ^ 1u];
        st->h_in = ln->h_in[par ^ 1u];
    }
    return st->messages | st->work | st->r | st->h_in ? BSPRAM__TAG_STATS : 0;
}

/* Lane 0: complete the last record with its receive side (r and h), from the
 * reduction of the lanes' statistics. */
static void complete_pending(bspram_router *r, const bspram__stats *st)
{
    if (!r->pending)
        return;
    bspram_record *rec = &r->log.records[r->log.n - 1];
    rec->r = st->r;
    if (st->h_in > rec->h_bytes)
        rec->h_bytes = st->h_in;
    rec->charge = rec->q > rec->r ? rec->q : rec->r;
    r->pending = 0;
}

void bspram__router_waiting(void *router)
{
    bspram_router *r = router;
    if (r->waiting & BSPRAM__WAIT_CLOCK)
        r->t_enter = bspram__clock();
    if (r->waiting & BSPRAM__WAIT_LOG)
        bspram__router_log_ready(&r->log);
}

/* Lane 0: the record of this exchange from the reduced send statistics. */
static void append_record(bspram_router *r, const bspram__stats *st, int delivered)
{
    double t_end = bspram__clock();
    bspram_record rec;
    memset(&rec, 0, sizeof rec);
    rec.superstep = r->lane[r->lane_lo].step;
    memcpy(rec.label, r->label, sizeof rec.label);
    rec.messages = st->messages;
    rec.bytes = st->bytes;
    rec.q = st->q;
    rec.h_bytes = st->h_out;
    rec.max_message = st->max_message;
    rec.work = st->work;
    rec.charge = rec.q;
    rec.seconds = t_end - r->clock;
    rec.exchange_seconds = t_end - r->t_enter;
    r->clock = t_end;
    bspram_log_append(&r->log, &rec);
    r->pending = delivered;
}

/* Ready the storage of parity par for a new superstep: its messages were
 * read in the superstep that just ended. */
static void reset_parity(bspram__lane *ln, unsigned par)
{
    for (size_t i = 0; i < ln->n_touched[par]; i++) {
        uint32_t dst = ln->touched[par][i];
        bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
        uint64_t used = 0;
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next)
            used += ch->used;
        ln->hint[dst] = used < (1u << 20) ? (uint32_t)used : (1u << 20);
        o->head = o->tail = NULL;
        o->at = o->limit = o->line = o->end = NULL;
        o->count = o->bytes = 0;
    }
    if (ln->n_touched[par])
        memset(ln->registered[par], 0, ln->cap_registered);
    ln->n_touched[par] = 0;
    arena_reset(&ln->arena[par]);
    memset(&ln->sent[par], 0, sizeof ln->sent[par]);
    ln->sent[par].src = ln->first;
    if (ln->loads[par])
        memset(ln->loads[par], 0, (ln->end - ln->first) * sizeof *ln->loads[par]);
}

unsigned bspram__router_exchange(bspram_router *r, unsigned lane, unsigned tag)
{
    BSPRAM_NONNULL(r);
    bspram__lane *ln = &r->lane[lane];
    if (tag & BSPRAM_TAG_ROUTER_MASK)
        bspram__base_fatal("internal error: an exchange with tag %#x; bits %#x are reserved by the router",
                     tag, BSPRAM_TAG_ROUTER_MASK);
    const unsigned par = (unsigned)(ln->step & 1);
    if (lane == r->lane_lo) {
        /* The exchange begins now; closing the outboxes (the windows' last
         * lines) and keeping the pattern are part of it. With neither to do,
         * the clock is read while lane 0 waits in the barrier. */
        r->waiting = BSPRAM__WAIT_LOG;
        if (ln->n_touched[par] || r->keep_pattern)
            r->t_enter = bspram__clock();
        else
            r->waiting |= BSPRAM__WAIT_CLOCK;
    }
    close_src(&ln->sent[par]);
    outboxes_close(ln, par);
    /* Windows pay off once a superstep's messages no longer fit the caches
     * (the lines go to memory anyway); below, receivers find them in cache. */
    if (ln->sent[par].bytes + sizeof(bspram__entry) * ln->sent[par].messages >= r->windows_from)
        ln->heavy = WINDOWS_KEEP;
    else if (ln->heavy)
        ln->heavy--;
    ln->windows = r->p <= BSPRAM__WINDOW_MAX_P && ln->heavy;
    if (ln->windows && !ln->window) /* made when first needed; without, posts go to the chunks */
        ln->windows = (ln->window = aligned_alloc(BSPRAM__LINE, (size_t)r->p * BSPRAM__WINDOW)) != NULL;
    if (r->keep_pattern) {
        bspram__router_pattern_lane(ln, par);
        bspram__router_pattern_enter(ln, par);
    }
    bspram__stats st;
    tag |= lane_stats(ln, par, 1, &st) | (ln->n_touched[par] ? ROUTER_BIT : 0);
    unsigned all = r->transport->allreduce(r, lane, tag, &st) & ~BSPRAM__TAG_STATS;
    if (all & BSPRAM_TAG_LEAVE) /* a lane has left: deliver nothing, wait for nobody */
        return all & ~ROUTER_BIT;
    ln->delivered = (all & ROUTER_BIT) != 0;
    if (lane == r->lane_lo) {
        complete_pending(r, &st);
        append_record(r, &st, ln->delivered);
        if (r->keep_pattern)
            bspram__router_pattern_record(r, par, r->log.n - 1, ln->delivered);
    }
    if (ln->delivered) {
        r->transport->deliver(r, lane);
        /* Senders write this parity's list again two supersteps on, after
         * the next exchange's barrier, which this lane reaches only after
         * emptying it here. */
        atomic_store_explicit(&ln->n_senders[par], 0, memory_order_relaxed);
    }
    ln->step++;
    reset_parity(ln, par ^ 1u);
    if (r->keep_pattern)
        ln->left = bspram__clock(); /* the next superstep's computation starts */
    return all & ~ROUTER_BIT;
}

/* A collective without an exchange: the allreduce with the receive side of
 * the last exchange (so lane 0 completes the record), the router's bits
 * cleared from the result. A lane that left is fatal unless the caller is
 * leaving too (`call` NULL). */
static unsigned collective(bspram_router *r, unsigned lane, unsigned tag, const char *call)
{
    if (call && (tag & BSPRAM_TAG_ROUTER_MASK))
        bspram__base_fatal("%s(tag=%#x): bits %#x are reserved by the router", call, tag,
                     BSPRAM_TAG_ROUTER_MASK);
    bspram__lane *ln = &r->lane[lane];
    bspram__stats st;
    tag |= lane_stats(ln, (unsigned)(ln->step & 1), 0, &st);
    if (lane == r->lane_lo)
        r->waiting = 0; /* no record follows */
    unsigned all = r->transport->allreduce(r, lane, tag, &st);
    if (call && (all & BSPRAM_TAG_LEAVE))
        bspram__base_fatal("%s: lane %u is in a barrier (superstep %llu) while another lane's program "
                     "has ended; every lane must make the same collective calls", call, lane,
                     (unsigned long long)ln->step);
    if (lane == r->lane_lo)
        complete_pending(r, &st);
    return all & ~(ROUTER_BIT | BSPRAM__TAG_STATS);
}

unsigned bspram__router_barrier(bspram_router *r, unsigned lane, unsigned tag)
{
    BSPRAM_NONNULL(r);
    return collective(r, lane, tag, "a barrier");
}

unsigned bspram__router_leave(bspram_router *r, unsigned lane)
{
    BSPRAM_NONNULL(r);
    /* The last exchange's receive side travels with the leave, so the log is
     * complete when the team ends, without reading any lane's state. */
    return collective(r, lane, BSPRAM_TAG_LEAVE, NULL);
}

void bspram__router_complete(bspram_router *r, unsigned lane)
{
    BSPRAM_NONNULL(r);
    collective(r, lane, 0, "completing the records");
}

void bspram__router_gather(bspram_router *r, unsigned lane, const void *mine, size_t n, void *all)
{
    BSPRAM_NONNULL(r);
    if (n > 0) { /* every lane brings n bytes; the process's first lane receives them all */
        BSPRAM_NONNULL(mine);
        if (lane == r->lane_lo)
            BSPRAM_NONNULL(all);
    }
    if ((uint64_t)n * r->lanes >= (UINT64_C(1) << 31))
        bspram__base_fatal("gathering what the processes agree on (%zu bytes each): %u lanes × the bytes must stay below 2^31", n, r->lanes);
    r->gather[lane] = mine;
    collective(r, lane, 0, "gathering what the processes agree on");
    if (lane == r->lane_lo) {
        for (unsigned l = r->lane_lo; l < r->lane_hi; l++)
            if (n)
                memcpy((char *)all + (size_t)l * n, r->gather[l], n);
        if (r->transport->gather)
            r->transport->gather(r->tstate, all, n);
    }
    collective(r, lane, 0, "gathering what the processes agree on"); /* the lanes' parts are read */
}

bool bspram__router_lane_posted(const bspram_router *r, unsigned lane)
{
    BSPRAM_NONNULL(r);
    const bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    return ln->n_touched[par] != 0;
}

size_t bspram__router_inbox(const bspram_router *r, unsigned lane, uint64_t dst,
                           const bspram_message **msgs)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(msgs);
    *msgs = NULL;
    if (lane >= r->lanes || dst < r->lane[lane].first || dst >= r->lane[lane].end)
        bspram__base_fatal("internal error: lane %u reads the inbox of component %llu, outside its block "
                     "[%llu, %llu) (a lane reads only the inboxes it serves)", lane,
                     (unsigned long long)dst, (unsigned long long)bspram__router_lane_first(r, lane),
                     (unsigned long long)bspram__router_lane_first(r, lane + 1));
    const bspram__lane *owner = &r->lane[lane];
    if (!owner->delivered)
        return 0;
    uint64_t i = dst - owner->first;
    size_t n = (size_t)(owner->in_off[i + 1] - owner->in_off[i]);
    /* A memoising read: the router is never defined const, and only the
     * lane's thread (or any one thread once the team stopped) reads its block. */
    if (owner->lazy && n && owner->in_built[i] != owner->deliveries)
        r->transport->build((bspram_router *)r, lane, i);
    if (n)
        *msgs = owner->in + owner->in_off[i];
    return n;
}

size_t bspram__router_runs_of(const bspram_router *r, unsigned lane, const bspram_message *msgs, size_t k,
                              const bspram__run **runs)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(runs);
    /* The lane's run storage is its own thread's (or any one thread's once
     * the team stopped), as its inboxes are. */
    bspram__lane *ln = (bspram__lane *)&r->lane[lane];
    bspram__router_lane_runs_reserve(ln, k);
    size_t n = 0;
    for (size_t j = 0; j < k; j++) {
        bspram__run *last = n ? &ln->runs[n - 1] : NULL;
        if (last && last->src == msgs[j].src && last->size == msgs[j].len &&
            (const char *)last->data + last->count * last->size == (const char *)msgs[j].data) {
            last->count++;
            continue;
        }
        ln->runs[n++] = (bspram__run){msgs[j].data, 1, msgs[j].src, (uint32_t)msgs[j].len};
    }
    *runs = n ? ln->runs : NULL;
    return n;
}

size_t bspram__router_inbox_runs(const bspram_router *r, unsigned lane, uint64_t dst, const bspram__run **runs)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(runs);
    *runs = NULL;
    const bspram__lane *owner = lane < r->lanes ? &r->lane[lane] : NULL;
    if (!owner || !owner->lazy || !r->transport->build_runs) {
        const bspram_message *msgs;
        size_t k = bspram__router_inbox(r, lane, dst, &msgs);
        return k ? bspram__router_runs_of(r, lane, msgs, k, runs) : 0;
    }
    if (dst < owner->first || dst >= owner->end || !owner->delivered)
        return bspram__router_inbox(r, lane, dst, &(const bspram_message *){NULL}); /* its error, or 0 */
    uint64_t i = dst - owner->first;
    if (owner->in_off[i + 1] == owner->in_off[i])
        return 0;
    if (owner->runs_built[i] != owner->deliveries)
        r->transport->build_runs((bspram_router *)r, lane, i);
    *runs = owner->runs + owner->in_off[i];
    return (size_t)owner->n_runs[i];
}

void bspram__router_set_label(bspram_router *r, const char *label)
{
    BSPRAM_NONNULL(r);
    snprintf(r->label, sizeof r->label, "%s", label ? label : "");
}

const char *bspram__router_label(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return r->label;
}

void bspram__router_start_clock(bspram_router *r)
{
    BSPRAM_NONNULL(r);
    r->clock = bspram__clock();
    for (unsigned l = r->lane_lo; l < r->lane_hi; l++)
        r->lane[l].left = r->clock;
}

/* The receive side of the last exchange, folded from this process's lanes
 * (the team has stopped, so their state is quiet): for teams that ended
 * without bspram__router_leave. */
static void complete_from_lanes(bspram_router *r)
{
    if (!r->pending)
        return;
    bspram__stats st;
    memset(&st, 0, sizeof st);
    unsigned par = (unsigned)(r->log.records[r->log.n - 1].superstep & 1);
    for (unsigned l = r->lane_lo; l < r->lane_hi; l++) {
        bspram__stats x = {0, 0, 0, 0, 0, 0, r->lane[l].r[par], r->lane[l].h_in[par]};
        bspram__stats_fold(&st, &x);
    }
    if (r->transport->fold) /* and from the other processes' lanes */
        r->transport->fold(r->tstate, &st);
    complete_pending(r, &st);
}

void bspram__router_flush(bspram_router *r)
{
    BSPRAM_NONNULL(r);
    complete_from_lanes(r);
}

const bspram_log *bspram__router_log(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return &r->log;
}

void bspram__router_clear_log(bspram_router *r)
{
    BSPRAM_NONNULL(r);
    complete_from_lanes(r);
    bspram__router_log_clear(&r->log);
    bspram__router_pattern_clear(&r->pattern);
    r->pattern_whole = r->whole_flows = r->whole_loads = 0;
}

void bspram__router_lane_runs_reserve(bspram__lane *ln, uint64_t n)
{
    if (n <= ln->cap_runs)
        return;
    free(ln->runs); /* dead: rebuilt at every delivery */
    ln->cap_runs = bspram__capacity(ln->cap_runs, (size_t)n, 1024);
    ln->runs = bspram__base_malloc(ln->cap_runs * sizeof *ln->runs, "the inboxes' runs");
}

void bspram__router_lane_inbox_reserve(bspram__lane *ln, uint64_t n)
{
    if (n <= ln->cap_in)
        return;
    /* The old headers are dead (rebuilt at every delivery): no copy. */
    free(ln->in);
    ln->cap_in = bspram__capacity(ln->cap_in, (size_t)n, 1024);
    ln->in = bspram__base_malloc(ln->cap_in * sizeof *ln->in, "the inboxes");
}

void bspram__router_transport_register(const bspram__transport *t) { registered = t; }

unsigned bspram__router_process_rank(void) { return registered && registered->rank ? registered->rank() : 0; }
unsigned bspram__router_process_ranks(void) { return registered && registered->ranks ? registered->ranks() : 1; }

void bspram__router_lane_inbox_layout(bspram__lane *ln, unsigned par, uint64_t *count, const uint64_t *bytes)
{
    const uint64_t nd = ln->end - ln->first;
    uint64_t rmax = 0, hmax = 0, total = 0;
    for (uint64_t i = 0; i < nd; i++) {
        const uint64_t c = count[i], b = bytes[i]; /* read before in_off[i] is written */
        rmax = c > rmax ? c : rmax;
        hmax = b > hmax ? b : hmax;
        ln->in_off[i] = count[i] = total;
        total += c;
    }
    ln->in_off[nd] = total;
    bspram__router_lane_inbox_reserve(ln, total);
    ln->r[par] = rmax;
    ln->h_in[par] = hmax;
}

const bspram__transport *bspram__router_transport_find(const char *name)
{
    const bspram__transport *const all[] = {&bspram__router_transport_shm, &bspram__router_transport_staged,
                                            registered};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i] && !strcmp(all[i]->name, name))
            return all[i];
    return NULL;
}

bool bspram__router_shares_memory(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return r->transport->shares_memory;
}

bool bspram__router_can_read(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return r->transport->read != NULL;
}

/* Alike on every rank (a rank that holds every lane of a machine still has
 * ranks beside it that take part in the host's collectives, or fail them). */
bool bspram__router_spread(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return r->transport->merge && bspram__router_process_ranks() > 1;
}

/* Every rank finds alike (from the lanes and the ranks, without a message)
 * whether some rank has no lanes; rank 0 then reports it, and the others
 * wait for the end of the job. */
static void host_collective_check(const bspram_router *r, const char *call)
{
    const unsigned ranks = bspram__router_process_ranks();
    if (!r->transport->merge || r->lanes >= ranks)
        return;
    if (bspram__router_process_rank() != 0)
        for (;;)
            pause();
    bspram__base_fatal("%s: the machine's %u lanes leave MPI ranks without a lane (%u ranks); a machine "
                 "with fewer components than ranks cannot share what its components hold",
                 call, r->lanes, ranks);
}

void bspram__router_merge(bspram_router *r, uint64_t *words, size_t n, bspram_merge_op op)
{
    BSPRAM_NONNULL(r);
    if (n > 0) /* nothing to merge: NULL is fine */
        BSPRAM_NONNULL(words);
    host_collective_check(r, "merging the ranks' parts");
    if (r->transport->merge)
        r->transport->merge(r->tstate, words, n, (int)op);
}

void *bspram__router_concat(bspram_router *r, const void *mine, size_t bytes, size_t *total)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(total);
    if (bytes > 0) /* nothing of its own: NULL is fine */
        BSPRAM_NONNULL(mine);
    host_collective_check(r, "gathering the ranks' parts");
    if (r->transport->concat)
        return r->transport->concat(r->tstate, mine, bytes, total);
    void *all = bspram__base_malloc(bytes ? bytes : 1, "gathering the ranks' parts");
    if (bytes)
        memcpy(all, mine, bytes);
    *total = bytes;
    return all;
}

void bspram__router_read(bspram_router *r, unsigned lane, unsigned from_lane, const void *remote,
                        void *local, size_t n)
{
    BSPRAM_NONNULL(r);
    if (n > 0) { /* nothing to read: NULL is fine */
        BSPRAM_NONNULL(remote);
        BSPRAM_NONNULL(local);
    }
    if (!r->transport->read)
        bspram__base_fatal("a one-sided read (lane %u, %zu bytes): the %s transport cannot read "
                     "another lane's memory", from_lane, n, r->transport->name);
    if (n)
        r->transport->read(r, lane, from_lane, remote, local, n);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

unsigned bspram__router_lane_senders(bspram__lane *ln, unsigned par, const uint32_t **senders)
{
    unsigned k = atomic_load_explicit(&ln->n_senders[par], memory_order_relaxed);
    /* Lanes serve increasing blocks of sources: visiting senders in lane order
     * keeps every inbox in (source, issue) order. They registered in any order. */
    uint32_t *list = par ? ln->senders : ln->senders - k;
    if (k > 32) {
        qsort(list, k, sizeof *list, cmp_u32);
    } else { /* a few senders, the usual case: insertion sort, a tenth of qsort's calls */
        for (unsigned i = 1; i < k; i++) {
            uint32_t x = list[i];
            unsigned j = i;
            for (; j > 0 && list[j - 1] > x; j--)
                list[j] = list[j - 1];
            list[j] = x;
        }
    }
    *senders = list;
    return k;
}
