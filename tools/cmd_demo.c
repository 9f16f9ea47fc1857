/* bspram demo: a few supersteps of random h-relations on the bulk BSP
 * machine, every message checked on arrival, and the router's records. */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "tools/commands.h"

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

int bspram_cmd_demo(int argc, char **argv)
{
    uint64_t p = 4096;
    demo d = {.seed = 1, .supersteps = 4, .h = 32};
    static const struct option opts[] = {{"p", required_argument, 0, 'p'},
                                         {"h", required_argument, 0, 'h'},
                                         {"supersteps", required_argument, 0, 's'},
                                         {"seed", required_argument, 0, 'S'},
                                         {"help", no_argument, 0, 'H'},
                                         {0, 0, 0, 0}};
    int o;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (o) {
        /* Bounds: p as the router allows; h and the supersteps small
         * enough that a typo cannot make the demo run for hours. */
        case 'p':
            if (bspram_tool_number("demo", "--p", optarg, 1, BSPRAM_MAX_COMPONENTS, &p))
                return 2;
            break;
        case 'h':
            if (bspram_tool_number("demo", "--h", optarg, 0, DEMO_MAX_H, &d.h))
                return 2;
            break;
        case 's':
            if (bspram_tool_number("demo", "--supersteps", optarg, 1, DEMO_MAX_SUPERSTEPS,
                                   &d.supersteps))
                return 2;
            break;
        case 'S':
            if (bspram_tool_number("demo", "--seed", optarg, 0, UINT64_MAX, &d.seed))
                return 2;
            break;
        case 'H':
            printf("usage: bspram demo [--p P] [--h H] [--supersteps S] [--seed N]\n"
                   "  every component sends H random 24-byte messages per superstep;\n"
                   "  prints the router's record of every superstep\n");
            return 0;
        default:
            return bspram_tool_bad_option("demo", o, argv);
        }
    }
    /* getopt moves words that are no option's value to the end: `demo 16
     * --h 8` once ran p = 4096 without a word about the 16. */
    if (optind < argc) {
        bspram_tool_error("demo", "unexpected argument '%s' (every value follows its option, e.g. "
                                  "--p 16); see bspram demo --help", argv[optind]);
        return 2;
    }
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
    return d.bad ? 1 : 0;
}
