/* Router throughput for random h-relations, beside a plain memcpy of the same
 * bytes in the same run (figures in bench/RESULTS.md).
 *
 * One superstep: every component copies h payloads of `len` bytes from its
 * source buffer into messages to random destinations (bspram_send_buffer +
 * memcpy); in the next superstep every component reads every byte of what
 * was delivered to it (a sum of its 8-byte words, checked at the end against
 * the sum of what was sent). "land" mode instead copies each payload into a
 * destination buffer, as a bsp_put's landing does. The reference moves the
 * same bytes source → destination with one memcpy per thread. Rates are
 * payload bytes per second; ratios are of the same run. "pattern" mode
 * compares, instead of memcpy, the same run with the message pattern kept
 * (bspram_machine_keep_pattern): what pricing a run afterwards costs.
 * "channel" mode sends through the record channel instead (router.h): each
 * component counts its payloads by destination, reserves one run per
 * destination at once (bspram__router_reserve_runs) and copies each payload
 * into its run; receivers read their inboxes as runs. The payloads, the
 * destinations and the records are the same as by single posts. (Only the
 * build tree's bench_router has it: the channel is not exported.)
 *
 * usage: bench_router [MiB per superstep (default 64)] [supersteps (default 8)] [p] [bytes]
 *                     [land|pattern|channel]
 * (p and bytes restrict the sweep to one p and one payload size; 0 = all)
 */
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "bspram.h"
#ifdef BSPRAM_BENCH_CHANNEL /* the build tree's bench_router, linked with the library's internals */
#include "bsp/machine_internal.h" /* the record channel (channel mode) */
#endif

typedef struct bench {
    uint64_t p, h, len, supersteps;
    uint32_t *dst;          /* [p][h] random destinations, drawn before timing */
    unsigned char *src;     /* [p][h·len] */
    unsigned char *out;     /* [p][slot] where received payloads land */
    uint64_t out_stride;
    int land;               /* copy payloads out instead of reading them */
    int pattern;            /* keep the message pattern */
    int channel;            /* send through the record channel */
    uint32_t **count;       /* channel: [T][p] counts by destination (zero between uses), */
    uint32_t **touched;     /* [T][p] the destinations reached, */
    char ***cursor;         /* [T][p] and where each run's next record goes */
    uint64_t *sum;          /* [p·8] (a cache line each): sum of words received */
} bench;

static bool step(bspram_component *c, void *arg)
{
    bench *b = arg;
    uint64_t pid = bspram_pid(c);
    const bspram_message *in;
    size_t n = 0;
#ifdef BSPRAM_BENCH_CHANNEL
    if (b->channel) {
        const bspram__run *u;
        size_t nr = bspram__bsp_inbox_runs(c, &u);
        uint64_t sum = 0;
        for (size_t i = 0; i < nr; i++) {
            const uint64_t *w = u[i].data, words = u[i].count * u[i].size / 8;
            for (uint64_t k = 0; k < words; k++)
                sum += w[k];
        }
        b->sum[pid * 8] += sum;
        const uint32_t *d = b->dst + pid * b->h;
        const unsigned char *from = b->src + pid * b->h * b->len;
        const unsigned lane = bspram__bsp_lane(c);
        uint32_t *count = b->count[lane], *touched = b->touched[lane];
        char **cursor = b->cursor[lane];
        size_t nt = 0;
        for (uint64_t j = 0; j < b->h; j++)
            if (count[d[j]]++ == 0)
                touched[nt++] = d[j];
        bspram__bsp_reserve_runs(c, (uint32_t)b->len, nt, touched, count, cursor);
        for (uint64_t j = 0; j < b->h; j++) {
            memcpy(cursor[d[j]], from + j * b->len, b->len);
            cursor[d[j]] += b->len;
        }
        return true;
    }
#endif
    n = bspram_inbox(c, &in);
    if (b->land) {
        unsigned char *o = b->out + pid * b->out_stride;
        uint64_t off = 0;
        for (size_t i = 0; i < n; i++) {
            if (off + in[i].len > b->out_stride)
                off = 0; /* a fuller-than-average inbox wraps around its slot */
            memcpy(o + off, in[i].data, in[i].len);
            off += in[i].len;
        }
    } else {
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            const uint64_t *w = in[i].data; /* payloads are 8-byte aligned */
            for (uint64_t k = 0; k < in[i].len / 8; k++)
                sum += w[k];
        }
        b->sum[pid * 8] += sum;
    }
    const uint32_t *d = b->dst + pid * b->h;
    const unsigned char *from = b->src + pid * b->h * b->len;
    for (uint64_t j = 0; j < b->h; j++)
        memcpy(bspram_send_buffer(c, d[j], b->len), from + j * b->len, b->len);
    return true;
}

static double now(void) { return bspram__clock(); }

/* Same bytes, plain memcpy by T threads, `reps` times; best of 3. */
static double memcpy_rate(const unsigned char *src, unsigned char *dst, uint64_t bytes, int T, uint64_t reps)
{
    double best = 1e30;
    for (int trial = 0; trial < 3; trial++) {
        double t0 = now();
        for (uint64_t r = 0; r < reps; r++) {
#pragma omp parallel num_threads(T)
            {
                uint64_t k = (uint64_t)omp_get_thread_num(), n = (uint64_t)omp_get_num_threads();
                uint64_t a = bytes * k / n, e = bytes * (k + 1) / n;
                memcpy(dst + a, src + a, e - a);
            }
        }
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    return (double)bytes * (double)reps / best;
}

static double router_rate(bench *b, int T, uint64_t expect_sum)
{
    double best = 1e30;
    for (int trial = 0; trial < 3; trial++) {
        bspram_config cfg = bspram_config_default(b->p);
        cfg.threads = T;
        bspram_machine *m = bspram_machine_create(&cfg);
        bspram_machine_keep_pattern(m, b->pattern);
        bspram_machine_run(m, step, b, 2); /* warm up: grow the buffers */
        memset(b->sum, 0, b->p * 8 * sizeof *b->sum);
        double t0 = now();
        bspram_machine_run(m, step, b, b->supersteps);
        double t = now() - t0;
        bspram_machine_destroy(m);
        uint64_t got = 0;
        for (uint64_t i = 0; i < b->p; i++)
            got += b->sum[i * 8];
        /* Each timed superstep reads the previous one's delivery and sends anew
         * (the warm-up's last delivery is read in the first). */
        if (!b->land && got != expect_sum * b->supersteps) {
            fprintf(stderr, "bench_router: received bytes differ from those sent\n");
            exit(1);
        }
        if (t < best)
            best = t;
    }
    return (double)(b->p * b->h * b->len) * (double)b->supersteps / best;
}

int main(int argc, char **argv)
{
    uint64_t mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 64;
    uint64_t supersteps = argc > 2 ? strtoull(argv[2], NULL, 10) : 8;
    static const uint64_t ps[] = {2, 64, 4096}, lens[] = {8, 64, 1024};
    uint64_t only_p = argc > 3 ? strtoull(argv[3], NULL, 10) : 0;
    uint64_t only_len = argc > 4 ? strtoull(argv[4], NULL, 10) : 0;
    int land = argc > 5 && !strcmp(argv[5], "land");
    int pattern = argc > 5 && !strcmp(argv[5], "pattern");
    int channel = argc > 5 && !strcmp(argv[5], "channel");
#ifndef BSPRAM_BENCH_CHANNEL
    if (channel) {
        fprintf(stderr, "bench_router: channel mode needs the build tree's bench_router (the record channel is "
                        "not exported)\n");
        return 2;
    }
#endif
    printf("router throughput, %llu MiB of payload per superstep, %llu supersteps, receivers %s; "
           "cores: %u\n", (unsigned long long)mib, (unsigned long long)supersteps,
           land ? "copy payloads out" : "read every byte", (unsigned)omp_get_num_procs());
    printf("%6s %6s %9s %3s %12s %12s %8s %10s\n", "p", "bytes", "msgs/comp", "T", "router GB/s",
           pattern ? "kept GB/s" : "memcpy GB/s", "ratio", "T2/T1");
    for (size_t pi = 0; pi < 3; pi++)
        for (size_t li = 0; li < 3; li++) {
            if ((only_p && ps[pi] != only_p) || (only_len && lens[li] != only_len))
                continue;
            bench b = {.p = ps[pi], .len = lens[li], .supersteps = supersteps, .land = land, .channel = channel};
            if (channel && (b.len % 8 || b.len > 512))
                continue; /* records of 8 to 512 bytes */
            uint32_t *count[2], *touched[2];
            char **cursor[2];
            for (int t = 0; t < 2; t++) {
                count[t] = calloc(b.p, sizeof **count);
                touched[t] = malloc(b.p * sizeof **touched);
                cursor[t] = malloc(b.p * sizeof **cursor);
            }
            b.count = count;
            b.touched = touched;
            b.cursor = cursor;
            b.h = (mib << 20) / b.len / b.p;
            uint64_t bytes = b.p * b.h * b.len;
            b.dst = malloc(b.p * b.h * sizeof *b.dst);
            for (uint64_t i = 0; i < b.p * b.h; i++)
                b.dst[i] = (uint32_t)bspram_random_below(b.p, 1, i, 0, 0);
            b.src = malloc(bytes);
            uint64_t expect_sum = 0;
            for (uint64_t i = 0; i < bytes / 8; i++) {
                uint64_t w = bspram_random1(2, i);
                memcpy(b.src + 8 * i, &w, 8);
                expect_sum += w;
            }
            b.sum = calloc(b.p * 8, sizeof *b.sum);
            /* Room for 1.5× the mean inbox so destinations stay mostly distinct. */
            b.out_stride = b.h * b.len * 3 / 2 + b.len;
            b.out = malloc(b.out_stride * b.p);
            memset(b.out, 0, b.out_stride * b.p);
            double r1 = 0;
            for (int T = 1; T <= 2; T++) {
                double mc;
                if (pattern) { /* the reference: the same run keeping its pattern */
                    b.pattern = 1;
                    mc = router_rate(&b, T, expect_sum);
                    b.pattern = 0;
                } else {
                    unsigned char *dst = malloc(bytes);
                    memset(dst, 0, bytes);
                    mc = memcpy_rate(b.src, dst, bytes, T, supersteps);
                    free(dst);
                }
                double rr = router_rate(&b, T, expect_sum);
                if (T == 1)
                    r1 = rr;
                printf("%6llu %6llu %9llu %3d %12.2f %12.2f %7.0f%%", (unsigned long long)b.p,
                       (unsigned long long)b.len, (unsigned long long)b.h, T, rr / 1e9, mc / 1e9,
                       100 * rr / mc);
                if (T == 2)
                    printf(" %9.2fx", rr / r1);
                printf("\n");
            }
            for (int t = 0; t < 2; t++) {
                free(count[t]);
                free(touched[t]);
                free(cursor[t]);
            }
            free(b.dst);
            free(b.src);
            free(b.out);
            free(b.sum);
        }
    return 0;
}
