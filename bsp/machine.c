/* The BSP machine: p components on T OpenMP threads (DESIGN.md, decision 1).
 * Thread l is the router's lane l and serves its block of components. */
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "bsp/machine.h"
#include "bsp/trace.h"

struct bspram_machine {
    bspram_config config;
    bspram_router *router;
    unsigned char *local;     /* p × local_bytes */
    uint64_t supersteps;      /* supersteps run so far */
    unsigned id;              /* the machine's number in the trace */
};

struct bspram_component {
    bspram_machine *m;
    unsigned lane;
    uint64_t pid;
    uint64_t superstep;
    bool spmd;          /* may call bspram_sync (a bulk step ends by returning) */
};

/* Bit of the bulk style's exchange tag: "this lane wants another superstep". */
#define TAG_CONTINUE 1u

bspram_config bspram_config_default(uint64_t p)
{
    bspram_config c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.threads = omp_get_max_threads();
    /* Not the probe's figures: a default that reads no file gives the same
     * config in every process and test (params.h says how to load them). */
    c.g = 1;
    c.l = 1;
    return c;
}

bspram_machine *bspram_machine_create(const bspram_config *config)
{
    if (config->p < 1 || config->p > BSPRAM_MAX_COMPONENTS)
        bspram_fatal("bspram_machine_create(p=%llu, threads=%d): p must be in [1, %llu]",
                     (unsigned long long)config->p, config->threads,
                     (unsigned long long)BSPRAM_MAX_COMPONENTS);
    if (config->threads < 1)
        bspram_fatal("bspram_machine_create(p=%llu, threads=%d): threads must be >= 1",
                     (unsigned long long)config->p, config->threads);
    bspram_machine *m = bspram_calloc(1, sizeof *m, "bspram_machine_create");
    m->config = *config;
    m->router = bspram_router_create(config->p, (unsigned)config->threads);
    if (config->local_bytes)
        m->local = bspram_calloc(config->p, config->local_bytes, "bspram_machine_create (local state)");
    m->id = bspram_trace_next_id();
    return m;
}

void bspram_machine_destroy(bspram_machine *m)
{
    if (!m)
        return;
    bspram_router_flush(m->router);
    const bspram_log *log = bspram_router_log(m->router);
    bspram_trace_add(m->id, log->records, log->n);
    bspram_router_destroy(m->router);
    free(m->local);
    free(m);
}

uint64_t bspram_machine_p(const bspram_machine *m) { return m->config.p; }
int bspram_machine_threads(const bspram_machine *m) { return m->config.threads; }
uint64_t bspram_machine_seed(const bspram_machine *m) { return m->config.seed; }
bspram_router *bspram_machine_router(bspram_machine *m) { return m->router; }

/* Open the team of T threads; OpenMP may give fewer (nested regions,
 * thread limits): that would leave lanes unserved and hang, so refuse. */
static void check_team(const bspram_machine *m, const char *call)
{
    if (omp_get_num_threads() != m->config.threads)
        bspram_fatal("%s: OpenMP gave %d threads instead of threads=%d (nested parallel region "
                     "or OMP_THREAD_LIMIT?); a machine needs all its threads",
                     call, omp_get_num_threads(), m->config.threads);
}

uint64_t bspram_machine_run(bspram_machine *m, bspram_step_fn step, void *arg, uint64_t max_supersteps)
{
    bspram_router *r = m->router;
    const int T = m->config.threads;
    uint64_t done = 0;
    bspram_router_start_clock(r);
#pragma omp parallel num_threads(T)
    {
        check_team(m, "bspram_machine_run");
        bspram_component c = {m, (unsigned)omp_get_thread_num(), 0, m->supersteps, false};
        const uint64_t first = bspram_router_lane_first(r, c.lane);
        const uint64_t end = bspram_router_lane_first(r, c.lane + 1);
        for (;;) {
            unsigned more = 0;
            for (c.pid = first; c.pid < end; c.pid++)
                more |= step(&c, arg) ? TAG_CONTINUE : 0;
            unsigned all = bspram_router_exchange(r, c.lane, more);
            c.superstep++;
            if (!(all & TAG_CONTINUE) || (max_supersteps && c.superstep - m->supersteps >= max_supersteps))
                break;
        }
        if (c.lane == 0)
            done = c.superstep - m->supersteps;
    }
    m->supersteps += done;
    bspram_router_flush(r);
    return done;
}

void bspram_machine_superstep(bspram_machine *m, bspram_step_fn step, void *arg)
{
    bspram_machine_run(m, step, arg, 1);
}

size_t bspram_machine_inbox(const bspram_machine *m, uint64_t pid, const bspram_message **msgs)
{
    return bspram_router_inbox(m->router, 0, pid, msgs);
}

void bspram_machine_spmd(bspram_machine *m, void (*program)(bspram_component *, void *), void *arg)
{
    if (m->config.p != (uint64_t)m->config.threads)
        bspram_fatal("bspram_machine_spmd(p=%llu, threads=%d): the SPMD style needs p == threads",
                     (unsigned long long)m->config.p, m->config.threads);
    bspram_router *r = m->router;
    uint64_t done = 0;
    bspram_router_start_clock(r);
#pragma omp parallel num_threads(m->config.threads)
    {
        check_team(m, "bspram_machine_spmd");
        unsigned lane = (unsigned)omp_get_thread_num();
        bspram_component c = {m, lane, lane, m->supersteps, true};
        program(&c, arg);
        /* Meet the others one last time: a component still in bspram_sync
         * learns that this one has left instead of waiting for it. */
        bspram_router_leave(r, lane);
        if (lane == 0)
            done = c.superstep - m->supersteps;
    }
    m->supersteps += done;
    bspram_router_flush(r);
}

unsigned bspram_sync(bspram_component *self, unsigned tag)
{
    if (!self->spmd) /* an extra exchange on one lane would hang the others */
        bspram_fatal("bspram_sync: called from a bulk-style step (component %llu, superstep "
                     "%llu); a bulk step ends its superstep by returning",
                     (unsigned long long)self->pid, (unsigned long long)self->superstep);
    unsigned all = bspram_router_exchange(self->m->router, self->lane, tag);
    if (all & BSPRAM_TAG_LEAVE)
        bspram_fatal("bspram_sync: component %llu is in superstep %llu's sync, but another "
                     "component's program has ended; every component must sync equally often",
                     (unsigned long long)self->pid, (unsigned long long)self->superstep);
    self->superstep++;
    return all;
}

uint64_t bspram_pid(const bspram_component *self) { return self->pid; }
uint64_t bspram_nprocs(const bspram_component *self) { return self->m->config.p; }
uint64_t bspram_superstep(const bspram_component *self) { return self->superstep; }
int bspram_thread(const bspram_component *self) { return (int)self->lane; }
bspram_machine *bspram_component_machine(const bspram_component *self) { return self->m; }

size_t bspram_inbox(const bspram_component *self, const bspram_message **msgs)
{
    return bspram_router_inbox(self->m->router, self->lane, self->pid, msgs);
}

void bspram_send(bspram_component *self, uint64_t dst, const void *data, uint64_t len)
{
    bspram_router_send(self->m->router, self->lane, self->pid, dst, data, len, "bspram_send");
}

void *bspram_send_buffer(bspram_component *self, uint64_t dst, uint64_t len)
{
    return bspram_router_post(self->m->router, self->lane, self->pid, dst, len, "bspram_send_buffer");
}

void *bspram_send_buffer_counted(bspram_component *self, uint64_t dst, uint64_t len,
                                 uint64_t counted)
{
    return bspram_router_post_counted(self->m->router, self->lane, self->pid, dst, len, counted,
                                      "bspram_send_buffer_counted");
}

void bspram_work(bspram_component *self, uint64_t w)
{
    bspram_router_work(self->m->router, self->lane, self->pid, w);
}

void *bspram_local(bspram_component *self)
{
    if (!self->m->local)
        return NULL;
    return self->m->local + self->pid * self->m->config.local_bytes;
}

void *bspram_machine_local(bspram_machine *m, uint64_t pid)
{
    if (pid >= m->config.p)
        bspram_fatal("bspram_machine_local(pid=%llu): component outside [0, %llu)",
                     (unsigned long long)pid, (unsigned long long)m->config.p);
    return m->local ? m->local + pid * m->config.local_bytes : NULL;
}

void bspram_machine_set_label(bspram_machine *m, const char *label)
{
    bspram_router_set_label(m->router, label);
}

const bspram_record *bspram_machine_records(bspram_machine *m, size_t *n)
{
    bspram_router_flush(m->router);
    const bspram_log *log = bspram_router_log(m->router);
    *n = log->n;
    return log->records;
}

void bspram_machine_clear_records(bspram_machine *m) { bspram_router_clear_log(m->router); }

double bspram_machine_predicted_cost(bspram_machine *m)
{
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    double cost = 0;
    for (size_t i = 0; i < n; i++)
        cost += (double)rec[i].work + m->config.g * (double)rec[i].h_bytes + m->config.l;
    return cost;
}

int bspram_machine_write_records(bspram_machine *m, const char *path)
{
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    return bspram_trace_write_file(path, m->id, rec, n);
}
