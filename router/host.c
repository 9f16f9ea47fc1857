/* The router itself, and the host's side of it: making and ending a router,
 * its lanes and their blocks of components, the transports, and the host's
 * collectives across processes (merging, concatenating, one-sided reads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/abort.h"
#include "base/environment.h"
#include "base/clock.h"
#include "base/error.h"
#include "router/router_internal.h"
#include "router/router.h"

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
    r->mail = t->seal && p == lanes && lanes <= BSPRAM__MAIL_LANES;
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
        ln->runs_inbox = UINT64_MAX;
        for (unsigned k = 0; k < BSPRAM__OPEN_RUNS; k++)
            ln->open[k].dst = UINT64_MAX; /* no open run */
        ln->released = bspram__base_calloc(ln->end - ln->first + 1, sizeof *ln->released, "the router");
    }
    r->gather = bspram__base_calloc(lanes, sizeof *r->gather, "the router");
    strcpy(r->label, "superstep");
    r->windows_from = windows_from(lanes);
    r->clock = bspram__clock();
    return r;
}

void bspram__router_destroy(bspram_router *r)
{
    if (!r)
        return;
    for (unsigned l = 0; l < r->lanes; l++) {
        bspram__lane *ln = &r->lane[l];
        bspram__router_arena_free(&ln->store);
        for (int par = 0; par < 2; par++) {
            free(ln->touched[par]);
            free(ln->registered[par]);
            free(ln->flows[par]);
            free(ln->loads[par]);
        }
        free(ln->unsorted);
        free(ln->in);
        free(ln->in_off);
        free(ln->in_built);
        free(ln->released);
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

void bspram__router_transport_register(const bspram__transport *t) { registered = t; }

unsigned bspram__router_process_rank(void) { return registered && registered->rank ? registered->rank() : 0; }
unsigned bspram__router_process_ranks(void) { return registered && registered->ranks ? registered->ranks() : 1; }

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
