/* The outboxes: posting, the chunks that hold what a lane posts, the
 * write-combining windows over them, and the record channel's slow paths.
 *
 * Posting appends the message (an 8-byte entry and the payload; a run's one
 * header and its records) to the lane's outbox for its destination; so each
 * payload is written once, and every outbox holds its messages in (source,
 * issue) order. The hot paths are inline in router_internal.h; here is what
 * they do rarely, and what the exchange asks of the outboxes (closing them,
 * and readying a parity's storage for the superstep to come).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/error.h"
#include "base/grow.h"
#include "router/router_internal.h"
#include "router/router.h"

/* An arena's first block is 1 MiB of ordinary pages, touched only as far as
 * it is used (thousands of lanes that post a few words each stay small); a
 * lane that posts more gets blocks of 2 MiB on huge pages. */
#define ARENA_FIRST ((size_t)1 << 20)
#define ARENA_BLOCK ((size_t)2 << 20)
#define HUGE_PAGE ((size_t)2 << 20)
/* The largest chunk an outbox keeps from one superstep to its next of the
 * same parity (bspram__router_reset_parity). */
#define KEEP_MAX ((uint64_t)8 * BSPRAM__LINE)

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

static char *chunk_data(bspram__chunk *ch) { return (char *)(ch + 1); }

/* A chunk of cap bytes at at (on a cache line). */
static bspram__chunk *chunk_at(char *at, size_t cap)
{
    bspram__chunk *ch = (bspram__chunk *)(void *)at;
    ch->next = NULL;
    ch->cap = cap;
    ch->used = 0;
    return ch;
}

/* The first free chunk of class j, taken off its list. */
static bspram__chunk *spare_pop(bspram__lane *ln, unsigned j)
{
    bspram__chunk *ch = ln->spare[j];
    if (!(ln->spare[j] = ch->next))
        ln->spare_classes &= ~(UINT64_C(1) << j);
    return chunk_at((char *)ch, (size_t)ch->cap);
}

/* A new chunk of cap bytes (a multiple of the line) carved from the lane's
 * blocks; the rest of a block too short for it becomes a free chunk. */
static bspram__chunk *chunk_carve(bspram__lane *ln, size_t cap)
{
    bspram__arena *a = &ln->store;
    const size_t need = sizeof(bspram__chunk) + cap;
    bspram__arena_block *b = a->n ? &a->blocks[a->n - 1] : NULL;
    if (!b || b->cap - b->used < need) {
        if (b && b->cap - b->used >= sizeof(bspram__chunk) + 2 * BSPRAM__LINE)
            bspram__router_spare_put(ln, chunk_at(b->base + b->used, b->cap - b->used - sizeof(bspram__chunk)));
        a->blocks = bspram__grow(a->blocks, &a->cap, a->n + 1, sizeof *a->blocks, 8, "the messages' storage");
        size_t block = a->n ? ARENA_BLOCK : ARENA_FIRST;
        size_t bcap = need > block ? need : block;
        b = &a->blocks[a->n++];
        b->base = huge_alloc(bcap, "the messages' payloads");
        b->cap = bcap;
        b->used = 0;
    }
    bspram__chunk *ch = chunk_at(b->base + b->used, cap);
    b->used += need;
    return ch;
}

/* A chunk for an outbox that should have about `want` bytes and must have
 * `need` (want >= need): a free one from want's class down to need's, but
 * not below a quarter of want (the outbox takes another chunk sooner),
 * else the first of a class above (the outbox may leave some of it empty),
 * else a new one of want's class. Free chunks are never cut, so they do
 * not crumble into pieces too small to serve. */
static bspram__chunk *chunk_take(bspram__lane *ln, size_t want, size_t need);

/* Lane ln's chunks that other lanes released, filed among its free ones. */
static bool take_returned(bspram__lane *ln)
{
    if (!atomic_load_explicit(&ln->returned, memory_order_relaxed))
        return false;
    bspram__router_chunks_spare(ln, atomic_exchange_explicit(&ln->returned, NULL, memory_order_acquire));
    return true;
}

static bspram__chunk *chunk_take(bspram__lane *ln, size_t want, size_t need)
{
    const unsigned cw = bspram__router_spare_class(want), cn = bspram__router_spare_class(need);
    const uint64_t have = ln->spare_classes;
    if (cn == BSPRAM__SPARE_LAST) {
        /* Above the classes: the first free chunk that holds need. */
        for (bspram__chunk **at = &ln->spare[cn]; *at; at = &(*at)->next) {
            bspram__chunk *ch = *at;
            if (ch->cap >= need) {
                if (!(*at = ch->next))
                    ln->spare_classes &= ~(UINT64_C(1) << cn);
                return chunk_at((char *)ch, (size_t)ch->cap);
            }
        }
        return take_returned(ln) ? chunk_take(ln, want, need) : chunk_carve(ln, want);
    }
    const unsigned low = cw >= cn + 8 ? cw - 8 : cn; /* 8 classes: two octaves */
    const uint64_t upto = cw < 63 ? (UINT64_C(1) << (cw + 1)) - 1 : ~UINT64_C(0);
    const uint64_t fit = have & upto & ~((UINT64_C(1) << low) - 1);
    if (fit)
        return spare_pop(ln, 63u - (unsigned)__builtin_clzll(fit));
    const uint64_t above = have & ~upto;
    if (above)
        return spare_pop(ln, (unsigned)__builtin_ctzll(above));
    if (take_returned(ln))
        return chunk_take(ln, want, need);
    return chunk_carve(ln, cw < BSPRAM__SPARE_LAST ? (size_t)bspram__router_spare_size(cw) : want);
}

void bspram__router_arena_free(bspram__arena *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->blocks[i].base);
    free(a->blocks);
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
    bspram__router_close_src(s);
    s->src = src;
}

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
 * windows; ordered before the exchange's barrier by bspram__router_outboxes_close's fence.
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

static inline __attribute__((always_inline)) void outbox_register(bspram_router *r, unsigned lane, unsigned par,
                                                                  uint32_t dst);

/* The first message to dst this superstep: note dst, and register with the
 * lane that serves it if this is our first message to its block. Inline, as
 * chunk_add: in a superstep of a few small messages (a collective's round)
 * every post is a first one. */
static inline __attribute__((always_inline)) void outbox_open(bspram_router *r, unsigned lane, unsigned par, uint32_t dst)
{
    bspram__lane *ln = &r->lane[lane];
    ln->touched[par] = bspram__grow(ln->touched[par], &ln->cap_touched[par], ln->n_touched[par] + 1,
                                    sizeof(uint32_t), 256, "the messages' storage");
    ln->touched[par][ln->n_touched[par]++] = dst;
    outbox_register(r, lane, par, dst);
}

/* Register lane `lane` with the lane serving dst, if this is its first
 * message to dst's block in the superstep of parity par. */
static inline __attribute__((always_inline)) void outbox_register(bspram_router *r, unsigned lane, unsigned par,
                                                                  uint32_t dst)
{
    if (r->mail) /* the transport's seal registers, at the exchange */
        return;
    bspram__lane *ln = &r->lane[lane];
    /* One component per lane (BSPlib: a process is a lane) makes the
     * destination its own lane's number, without the search. */
    unsigned d = r->lanes == r->p ? dst : bspram__router_lane_of(r, dst);
    uint64_t bit = UINT64_C(1) << (d % 64);
    if (!(ln->registered[par][d / 64] & bit)) { /* first message to d's block */
        ln->registered[par][d / 64] |= bit;
        if (d < r->lane_lo || d >= r->lane_hi)
            return; /* another process's lane: its transport delivers without the list */
        bspram__router_register_sender(&r->lane[d], par, lane);
    }
}

/* Start a new tail chunk for outbox o (to dst) with room for at least `need`
 * bytes; `at` is the old tail's cursor. Returns the new chunk's data. */
static inline __attribute__((always_inline)) char *chunk_add(bspram__lane *ln, unsigned par, bspram__outbox *o, uint32_t dst, char *at,
                       size_t need)
{
    bspram__chunk *t = o->tail;
    if (t)
        t->used = (uint64_t)(at - chunk_data(t));
    /* A lane of many components (the bulk style) sizes chunks by what its
     * components post: they post in increasing order, about as much each
     * (hashed destinations), so what the lane still posts to dst is
     * foreseen from its components so far. The first chunk is half of the
     * last superstep's total to dst: its first component opens nearly every
     * outbox, and room taken ahead of the records is room the inboxes being
     * read (and released, bspram__router_inbox_release) have not yet given
     * back; an eighth took four chunks where one or two did, and random
     * 64-byte posts at p = 4096 ran 15 % slower (bench_router), for 2 MB
     * less at the PRAM prefix sums' peak at n = 2^22. A later one takes three quarters of what the rest of the
     * lane's components will post at the rate so far, the current one
     * counted once more, and never more than the chunks so far (doubling at
     * most, so a lane whose early components alone post to dst wastes no
     * more than doubling does). Doubling alone left up to half of the last
     * chunk empty: the wire records of a forward phase were held in twice
     * their bytes. A lane of one component (BSPlib) doubles from the last
     * superstep's total. */
    size_t cap;
    const bool many = ln->end - ln->first > 1;
    if (!t && o->end) {
        /* The chunk the outbox kept from its last superstep of this parity
         * (bspram__router_reset_parity): no free list to search, nothing to
         * size, when it holds the entry. */
        bspram__chunk *kept = (bspram__chunk *)(void *)o->end;
        o->end = NULL;
        if (kept->cap >= need) {
            kept->next = NULL;
            kept->used = kept->before = 0;
            o->head = o->tail = kept;
            o->end = chunk_data(kept) + kept->cap;
            return chunk_data(kept);
        }
        bspram__router_spare_put(ln, kept);
    }
    if (!t) {
        cap = many ? ln->hint[dst] / 2 : ln->hint[dst];
    } else if (!many) {
        cap = 2 * t->cap;
    } else {
        const uint64_t so_far = t->before + t->used;
        const uint64_t src = ln->sent[par].src, done = src - ln->first + 1, left = ln->end - src;
        uint64_t est = so_far / done * left + so_far % done * left / done;
        est -= est / 4;
        est = est < so_far ? est : so_far;
        cap = est < (1u << 20) ? (size_t)est : (1u << 20);
    }
    if (cap < 192)
        cap = 192;
    if (cap > (1u << 20))
        cap = 1u << 20;
    if (cap < need)
        cap = need;
    cap = (cap + BSPRAM__LINE - 1) & ~(size_t)(BSPRAM__LINE - 1);
    bspram__chunk *ch = chunk_take(ln, cap, (need + BSPRAM__LINE - 1) & ~(size_t)(BSPRAM__LINE - 1));
    if (t) {
        t->next = ch;
        ch->before = t->before + t->used;
    } else {
        o->head = ch;
        ch->before = 0;
    }
    o->tail = ch;
    o->end = chunk_data(ch) + ch->cap;
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

/* Entering the exchange: close the windows, record how far each tail
 * chunk was filled, and keep each outbox's total as the hint for the next
 * superstep's first chunk to its destination (here, while the chunks are
 * the lane's: its receivers may release them before it resets them); the
 * fence makes the windows' non-temporal copies visible to the lanes that
 * read them after the barrier. */
void bspram__router_outboxes_close(bspram__lane *ln, unsigned par)
{
    for (size_t i = 0; i < ln->n_touched[par]; i++) {
        uint32_t dst = ln->touched[par][i];
        bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
        char *at = o->line ? window_close(o, window_of(ln, dst)) : (o->limit = o->at);
        o->tail->used = (uint64_t)(at - chunk_data(o->tail));
        const uint64_t used = o->tail->before + o->tail->used;
        ln->hint[dst] = used < (1u << 20) ? (uint32_t)used : (1u << 20);
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
    if (src != ln->sent[par].src)
        enter_src(ln, lane, src, call);
    bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
    size_t need = (size_t)bspram__entry_size(len, extra);
    if (!o->tail && !ln->windows) {
        /* The first message to dst in a superstep without windows: what
         * most of a small superstep's posts find (a collective's round). */
        outbox_open(r, lane, par, (uint32_t)dst);
        o->at = chunk_add(ln, par, o, (uint32_t)dst, NULL, need);
        o->limit = o->end;
    } else if ((size_t)(o->limit - o->at) < need) {
        outbox_make_room(r, lane, par, o, (uint32_t)dst, need);
    }
    return bspram__post_entry(o, &ln->sent[par], src, len, extra, need);
}

static __attribute__((noinline)) void *post_first(bspram_router *r, unsigned lane, bspram__outbox *o,
                                                  uint64_t src, uint64_t dst, uint64_t len, size_t need)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    if (ln->windows) {
        outbox_make_room(r, lane, par, o, (uint32_t)dst, need);
    } else {
        outbox_open(r, lane, par, (uint32_t)dst);
        o->at = chunk_add(ln, par, o, (uint32_t)dst, NULL, need);
        o->limit = o->end;
    }
    return bspram__post_entry(o, &ln->sent[par], src, len, 0, need);
}

void *bspram__router_post_first(bspram_router *r, unsigned lane, bspram__outbox *o, uint64_t src, uint64_t dst,
                                uint64_t len, size_t need)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    bspram__chunk *kept = (bspram__chunk *)(void *)o->end;
    /* The usual first post of a small superstep (a collective's round): the
     * outbox kept its chunk (bspram__router_reset_parity), no window, and
     * room in the list of touched destinations — taken here, with nothing
     * else to save registers for; the rest in post_first. */
    if (kept && kept->cap >= need && !ln->windows && ln->n_touched[par] < ln->cap_touched[par]) {
        ln->touched[par][ln->n_touched[par]++] = (uint32_t)dst;
        outbox_register(r, lane, par, (uint32_t)dst);
        kept->next = NULL;
        kept->used = kept->before = 0;
        o->head = o->tail = kept;
        o->at = chunk_data(kept);
        o->limit = o->end = o->at + kept->cap;
        return bspram__post_entry(o, &ln->sent[par], src, len, 0, need);
    }
    return post_first(r, lane, o, src, dst, len, need);
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
    bspram__sent_count(o, &ln->sent[par], count, (uint64_t)size * count, size);
    return e + 1;
}

void *bspram__router_reserve(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                             uint64_t count, const char *call)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(call);
    return bspram__reserve(r, lane, src, dst, size, count, call);
}

/* A record that cannot join an open run (bspram__append): a new run of one,
 * which becomes dst's open run. Where the outbox's cursor has room, or dst
 * has no entry yet this superstep (every put of a sparse superstep: one
 * put to each neighbour), the run is written here as bspram__post_first
 * writes a message; anything else (checks, a new source, a window open
 * over the outbox, a full chunk) through bspram__router_reserve_slow. */
void *bspram__router_append_slow(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                                 const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    bspram__lane_sent *s = &ln->sent[par];
    bspram__entry *e;
    bspram__outbox *o;
    if (dst < r->p && src == s->src && size >= 8 && size <= BSPRAM__RUN_MAX_SIZE && !(size & 7) &&
        !(o = bspram__lane_outbox(ln, par, dst))->line) {
        const size_t need = sizeof(bspram__entry) + size;
        if (!o->tail) {
            outbox_open(r, lane, par, (uint32_t)dst);
            o->at = chunk_add(ln, par, o, (uint32_t)dst, NULL, need);
            o->limit = o->end;
        } else if ((size_t)(o->limit - o->at) < need) {
            goto slow;
        }
        e = (bspram__entry *)(void *)o->at;
        e->src = (uint32_t)src;
        e->len32 = bspram__run_len32(size, 1);
        o->at += need;
        bspram__sent_count(o, s, 1, size, size);
    } else {
    slow:
        e = (bspram__entry *)bspram__router_reserve_slow(r, lane, src, dst, size, 1, call) - 1;
        o = bspram__lane_outbox(ln, par, dst);
    }
    const unsigned k = (unsigned)(dst % BSPRAM__OPEN_RUNS);
    ln->open[k] = (bspram__open_run){dst, e, o};
    ln->open_used |= UINT64_C(1) << k;
    return e + 1;
}

void *bspram__router_append(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                            const char *call)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(call);
    return bspram__append(r, lane, src, dst, size, call);
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

bool bspram__router_lane_runs(const bspram_router *r) { return !r->keep_pattern; }

void bspram__router_account(bspram_router *r, unsigned lane, uint64_t src, uint64_t count, uint32_t size,
                            const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    bspram__lane_sent *s = &ln->sent[ln->step & 1];
    enter_src(ln, lane, src, call);
    s->src_count += count;
    s->src_bytes += count * size;
    if (count && size > s->max_message)
        s->max_message = size;
}

void bspram__router_reserve_lane(bspram_router *r, unsigned lane, uint32_t size, size_t n, const uint32_t *dst,
                                 uint32_t *count, char **cursor, const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    bspram__lane_sent *s = &ln->sent[ln->step & 1];
    /* Reserved under the current source, whose counts are put back: every
     * record was counted for its own component by bspram__router_account. */
    const uint64_t had_count = s->src_count, had_bytes = s->src_bytes, had_max = s->max_message;
    bspram__reserve_runs(r, lane, s->src, size, n, dst, count, cursor, call);
    s->src_count = had_count;
    s->src_bytes = had_bytes;
    s->max_message = had_max;
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

/* Ready the storage of parity par for a new superstep: its messages were
 * read in the superstep that just ended. The chunks their receivers did not
 * release become free chunks again — but a lane of one component (a BSPlib
 * process) keeps an outbox's only chunk, if small, for the outbox's next
 * superstep of this parity (in `end`, unused while the outbox has no tail;
 * chunk_add takes it): the small supersteps of a collective post to the
 * same few destinations time after time, and taking a free chunk and
 * filing it back was a fifth of an 8-byte round's posting and resetting
 * (chunk_take, bspram__router_spare_put). At most 2·p small chunks per
 * lane, no more than the lane once had in use at a time. */
void bspram__router_reset_parity(bspram__lane *ln, unsigned par)
{
    const bool one = ln->end - ln->first == 1;
    for (size_t i = 0; i < ln->n_touched[par]; i++) {
        uint32_t dst = ln->touched[par][i];
        bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
        bspram__chunk *kept = NULL;
        if (one && o->head && o->head == o->tail && o->head->cap <= KEEP_MAX)
            kept = o->head;
        else if (o->head) /* not released by its receiver */
            bspram__router_chunks_spare(ln, o->head);
        o->head = o->tail = NULL;
        o->at = o->limit = o->line = NULL;
        o->end = (char *)kept;
        o->count = o->bytes = 0;
    }
    if (ln->n_touched[par] && ln->cap_registered == sizeof(uint64_t))
        ln->registered[par][0] = 0; /* up to 64 lanes: one word, no call */
    else if (ln->n_touched[par])
        memset(ln->registered[par], 0, ln->cap_registered);
    ln->n_touched[par] = 0;
    for (uint64_t used = ln->open_used; used; used &= used - 1) /* the superstep's open runs close */
        ln->open[__builtin_ctzll(used)].dst = UINT64_MAX;
    ln->open_used = 0;
    memset(&ln->sent[par], 0, sizeof ln->sent[par]);
    ln->sent[par].src = ln->first;
    if (ln->loads[par])
        memset(ln->loads[par], 0, (ln->end - ln->first) * sizeof *ln->loads[par]);
}

bool bspram__router_lane_posted(const bspram_router *r, unsigned lane)
{
    BSPRAM_NONNULL(r);
    const bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    return ln->n_touched[par] != 0;
}
