/* bspram demo: a few supersteps of random h-relations on the bulk BSP
 * machine, every message checked on arrival, and the router's records. */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "tools/commands.h"
#include "tools/format.h"

#define DEMO_MAX_H 1048576u           /* messages per component per superstep */
#define DEMO_MAX_SUPERSTEPS 1000000u

typedef struct demo {
    uint64_t seed, supersteps, h;
    _Atomic uint64_t bad; /* messages whose contents were wrong */
} demo;

/* Component s sends h messages per superstep to random destinations; the
 * payload names its sender, superstep and index so the receiver can check it. */
static bool step(bspram_component *c, void *arg)
{
    demo *d = arg;
    uint64_t s = bspram_superstep(c), pid = bspram_pid(c), p = bspram_nprocs(c);
    const bspram_message *in;
    size_t n = bspram_inbox(c, &in);
    for (size_t i = 0; i < n; i++) {
        uint64_t w[3];
        memcpy(w, in[i].data, sizeof w);
        if (in[i].len != sizeof w || w[0] != in[i].src || w[1] + 1 != s ||
            bspram_random_below(p, d->seed, w[0], w[1], w[2]) != pid)
            d->bad++;
    }
    if (s == d->supersteps)
        return false;
    for (uint64_t j = 0; j < d->h; j++) {
        uint64_t w[3] = {pid, s, j};
        bspram_send(c, bspram_random_below(p, d->seed, pid, s, j), w, sizeof w);
    }
    bspram_work(c, d->h);
    return true;
}

/* The settings the command line sets (options below), with their defaults. */
typedef struct demo_settings {
    uint64_t p, h, supersteps, seed;
    const char *format;
} demo_settings;

/* Bounds: p as the router allows; h and the supersteps small enough that a
 * typo cannot make the demo run for hours. */
static const bspram_option options[] = {
    {.name = "p", .letter = 'p', .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(demo_settings, p),
     .value = "P", .help = "components, in [1, 4294967295] (default 4096)", .min = 1,
     .max = BSPRAM_MAX_COMPONENTS},
    {.name = "h", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(demo_settings, h), .value = "H",
     .help = "random 24-byte messages per component per superstep, in [0, 1048576]\n(default 32)",
     .min = 0, .max = DEMO_MAX_H},
    {.name = "supersteps", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(demo_settings, supersteps),
     .value = "S", .help = "supersteps that send, in [1, 1000000] (default 4)", .min = 1,
     .max = DEMO_MAX_SUPERSTEPS},
    {.name = "seed", .kind = BSPRAM_OPT_WHOLE, .offset = offsetof(demo_settings, seed),
     .value = "N", .help = "the destinations' seed, in [0, 2^64 - 1] (default 1)", .min = 0,
     .max = UINT64_MAX},
    BSPRAM_FORMAT_OPTION(demo_settings, format),
    {.name = NULL}};

static int run_demo(int argc, char **argv);

/* The records as CSV rows or a JSON array of the same fields. */
static void print_records(const bspram_record *rec, size_t n, bspram_format format)
{
    if (format == BSPRAM_FORMAT_CSV)
        printf("superstep,messages,bytes,q,r,charge,h_bytes,seconds\n");
    else
        printf("[");
    for (size_t i = 0; i < n; i++) {
        const bspram_record *r = &rec[i];
        if (format == BSPRAM_FORMAT_CSV)
            printf("%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                   ",%.9f\n", r->superstep, r->messages, r->bytes, r->q, r->r, r->charge, r->h_bytes,
                   r->seconds);
        else
            printf("%s\n  {\"superstep\": %" PRIu64 ", \"messages\": %" PRIu64 ", \"bytes\": %" PRIu64
                   ", \"q\": %" PRIu64 ", \"r\": %" PRIu64 ", \"charge\": %" PRIu64
                   ", \"h_bytes\": %" PRIu64 ", \"seconds\": %.9f}",
                   i ? "," : "", r->superstep, r->messages, r->bytes, r->q, r->r, r->charge,
                   r->h_bytes, r->seconds);
    }
    if (format == BSPRAM_FORMAT_JSON)
        printf("\n]\n");
}

const bspram_command bspram_cmd_demo = {
    .name = "demo",
    .summary = "run the demo: a random h-relation on the BSP machine, with its records",
    .run = run_demo, .usage = "[options]",
    .about = "Every component sends H random 24-byte messages per superstep, each checked on\n"
    "arrival; prints the router's record of every superstep and the predicted cost\n"
    "(in ns with the g and l that `bspram probe` saved). CSV and JSON: the records,\n"
    "columns superstep,messages,bytes,q,r,charge,h_bytes,seconds. Exit status 3 if a\n"
    "message arrived wrong.", .options = options};

static int run_demo(int argc, char **argv)
{
    demo_settings o = {.p = 4096, .h = 32, .supersteps = 4, .seed = 1, .format = "text"};
    int rc = bspram_options_parse(&bspram_cmd_demo, argc, argv, &o, NULL);
    if (rc)
        return rc == BSPRAM_OPTIONS_HELP ? BSPRAM_TOOL_OK : rc;
    const uint64_t p = o.p;
    const bspram_format format = bspram_format_of(o.format);
    demo d = {.seed = o.seed, .supersteps = o.supersteps, .h = o.h};
    bspram_config cfg = bspram_config_default(p);
    /* The predicted cost in ns when `bspram probe` has run, else g = l = 1. */
    bspram_params probe;
    int probed = bspram_params_read(&probe) == 0;
    if (probed) {
        cfg.g = probe.g_ns_per_byte;
        cfg.l = probe.l_ns;
    }
    cfg.seed = d.seed;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_machine_set_label(m, "demo");
    bspram_machine_run(m, step, &d, 0);
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    if (format != BSPRAM_FORMAT_TEXT) {
        print_records(rec, n, format);
        bspram_machine_destroy(m);
        if (d.bad) /* the text says ERRORS in its summary; here the one line says it */
            bspram_tool_error("demo", "%" PRIu64 " messages arrived wrong", (uint64_t)d.bad);
        return d.bad ? BSPRAM_TOOL_WRONG : BSPRAM_TOOL_OK;
    }
    printf("p = %" PRIu64 " components on T = %d threads, %" PRIu64 " random messages per component\n\n",
           p, bspram_machine_threads(m), d.h);
    printf("%9s %10s %10s %6s %6s %7s %8s %9s\n", "superstep", "messages", "bytes", "q", "r",
           "charge", "h_bytes", "ms");
    for (size_t i = 0; i < n; i++)
        printf("%9" PRIu64 " %10" PRIu64 " %10" PRIu64 " %6" PRIu64 " %6" PRIu64 " %7" PRIu64
               " %8" PRIu64 " %9.3f\n",
               rec[i].superstep, rec[i].messages, rec[i].bytes, rec[i].q, rec[i].r, rec[i].charge,
               rec[i].h_bytes, rec[i].seconds * 1e3);
    bspram_totals t = bspram_records_total(rec, n);
    double measured = 0;
    for (size_t i = 0; i < n; i++)
        measured += rec[i].seconds;
    printf("\ntotal charge (sum of max(q,r)) = %" PRIu64 ", messages checked: %s\n", t.charge,
           d.bad ? "ERRORS" : "all correct");
    if (!probed) {
        printf("predicted cost sum(w + g*h + l) = %.0f in units of w, h in bytes (g = %.3g, l = %.3g); "
               "`bspram probe` measures g and l in ns\n", bspram_machine_predicted_cost(m), cfg.g, cfg.l);
    } else {
        /* The probe timed P processes, one per thread, each its own h; here
         * a thread serves p/T components, so a superstep moves about p/T
         * components' h through each thread. */
        const int T = bspram_machine_threads(m);
        const double per_thread = (double)p / T;
        /* In ns, w (one per message handled) is priced as flops at the
         * probe's rate r, as `bspram prof` prices it (not at all without r). */
        const double r = probe.flops_per_ns;
        double predicted = 0;
        for (size_t i = 0; i < n; i++)
            predicted += bspram_tool_bsp_seconds(&rec[i], cfg.g, cfg.l, r);
        printf("predicted time sum(w/r + g*h + l) = %.3f ms, with g = %.3g ns per byte of h and "
               "l = %.3g ns from `bspram probe` (P = %u processes), %s; measured %.3f ms\n",
               predicted * 1e3, cfg.g, cfg.l, probe.p,
               r > 0 ? "w as flops at its rate r" : "w not priced (the probe saved no rate r)",
               measured * 1e3);
        if (r > 0)
            printf("r = %.3g flop per ns\n", r);
        if (per_thread > 1.5 || probe.p != (unsigned)T)
            printf("note: g and l were probed with P = %u processes, one per thread; here each of "
                   "the T = %d threads serves %.0f components, so a superstep costs about %.0f "
                   "times g*h and the prediction is a lower bound\n",
                   probe.p, T, per_thread, per_thread);
    }
    bspram_machine_destroy(m);
    return d.bad ? BSPRAM_TOOL_WRONG : BSPRAM_TOOL_OK;
}
