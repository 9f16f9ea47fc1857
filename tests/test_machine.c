/* The BSP machine: same seed ⇒ identical inboxes, order and records for
 * T = 1, 2, 4; local state; declared work and the predicted cost; labels;
 * runs that continue where the last one stopped; the SPMD style; traces. */
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "check.h"
#include "pattern.h"
#include "bsp/machine_internal.h"

/* Each component keeps a digest of everything it received, in order. */
typedef struct digest_run {
    pattern pt;
    uint64_t supersteps;
} digest_run;

static bool digest_step(bspram_component *c, void *arg)
{
    digest_run *r = arg;
    uint64_t s = bspram_superstep(c), pid = bspram_pid(c);
    uint64_t *digest = bspram_local(c);
    const bspram_message *in;
    size_t n = bspram_inbox(c, &in);
    for (size_t i = 0; i < n; i++) {
        uint64_t w[3] = {*digest, in[i].src, XXH3_64bits(in[i].data, (size_t)in[i].len)};
        *digest = XXH3_64bits(w, sizeof w);
    }
    if (s == r->supersteps)
        return false;
    pattern_send(c, &r->pt, s, pid);
    bspram_work(c, pattern_count(&r->pt, s, pid) * 3 + pid % 5);
    bspram_work(c, 1);
    return true;
}

static uint64_t machine_digest(int threads, uint64_t p, bspram_record **recs, size_t *nrec)
{
    digest_run r = {{.seed = 3, .p = p, .max_per_component = 12, .max_len = 64}, 5};
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    cfg.local_bytes = sizeof(uint64_t);
    bspram_machine *m = bspram_machine_create(&cfg);
    CHECK_EQ_U64(bspram_machine_run(m, digest_step, &r, 0), 6);
    uint64_t all = 0;
    for (uint64_t pid = 0; pid < p; pid++) {
        uint64_t w[2] = {all, *(uint64_t *)bspram_machine_local(m, pid)};
        all = XXH3_64bits(w, sizeof w);
    }
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    *recs = malloc(n * sizeof **recs);
    memcpy(*recs, rec, n * sizeof *rec);
    *nrec = n;
    bspram_machine_destroy(m);
    return all;
}

static int same_records(const bspram_record *a, const bspram_record *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].superstep != b[i].superstep || strcmp(a[i].label, b[i].label) ||
            a[i].messages != b[i].messages || a[i].bytes != b[i].bytes || a[i].q != b[i].q ||
            a[i].r != b[i].r || a[i].charge != b[i].charge || a[i].h_bytes != b[i].h_bytes ||
            a[i].max_message != b[i].max_message || a[i].work != b[i].work)
            return 0;
    return 1;
}

/* Chained runs: a run's first superstep sees what the previous run's last
 * superstep sent. Component i sends i+1 to (i+1) mod p; the receiver adds. */
static bool relay_step(bspram_component *c, void *arg)
{
    (void)arg;
    uint64_t *acc = bspram_local(c);
    const bspram_message *in;
    size_t n = bspram_inbox(c, &in);
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        memcpy(&v, in[i].data, sizeof v);
        *acc += v;
    }
    uint64_t v = bspram_pid(c) + 1;
    bspram_send(c, (bspram_pid(c) + 1) % bspram_nprocs(c), &v, sizeof v);
    return true; /* stopped by max_supersteps */
}

/* SPMD: a ring of p components passing a counter around p times. */
static void ring(bspram_component *c, void *arg)
{
    atomic_int *bad = arg;
    uint64_t p = bspram_nprocs(c), pid = bspram_pid(c), token = pid;
    for (uint64_t s = 0; s < 2 * p; s++) {
        bspram_send(c, (pid + 1) % p, &token, sizeof token);
        bspram__bsp_sync(c, 0);
        const bspram_message *in;
        if (bspram_inbox(c, &in) != 1 || in[0].src != (pid + p - 1) % p) {
            atomic_fetch_add(bad, 1);
            return;
        }
        memcpy(&token, in[0].data, sizeof token);
        token++;
    }
    /* After 2p hops the token here started here (2p ≡ 0 mod p), +1 per hop. */
    if (token != pid + 2 * p)
        atomic_fetch_add(bad, 1);
    /* The OR of tags reaches everyone. */
    if (bspram__bsp_sync(c, pid == p - 1 ? 4u : 0u) != 4u)
        atomic_fetch_add(bad, 1);
}

static int file_count(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    int count = 0;
    for (const char *s = buf; (s = strstr(s, needle)) != NULL; s++)
        count++;
    return count;
}

static int file_contains(const char *path, const char *needle) { return file_count(path, needle) > 0; }

int main(void)
{
    /* Determinism across thread counts, including T > cores and T > p. */
    static const uint64_t ps[] = {3, 64, 4096};
    for (size_t i = 0; i < 3; i++) {
        bspram_record *r1, *r2, *r4;
        size_t n1, n2, n4;
        uint64_t d1 = machine_digest(1, ps[i], &r1, &n1);
        uint64_t d2 = machine_digest(2, ps[i], &r2, &n2);
        uint64_t d4 = machine_digest(4, ps[i], &r4, &n4);
        CHECK_EQ_U64(d1, d2);
        CHECK_EQ_U64(d1, d4);
        CHECK(n1 == n2 && n1 == n4 && n1 == 6);
        CHECK(same_records(r1, r2, n1) && same_records(r1, r4, n1));
        /* Declared work: w = max over components of Σ declared; with
         * max_per_component = 12, w ≥ 1 and is a max of k·3 + pid%5 + 1. */
        CHECK(r1[0].work >= 1 && r1[0].work <= 12 * 3 + 4 + 1);
        free(r1);
        free(r2);
        free(r4);
    }

    /* Predicted cost Σ (w + g·h + l) from the records. */
    {
        bspram_config cfg = bspram_config_default(8);
        cfg.g = 2.5;
        cfg.l = 100;
        cfg.local_bytes = 8;
        bspram_machine *m = bspram_machine_create(&cfg);
        bspram_machine_set_label(m, "relay");
        CHECK_EQ_U64(bspram_machine_run(m, relay_step, NULL, 3), 3);
        bspram_machine_set_label(m, "relay-2");
        CHECK_EQ_U64(bspram_machine_run(m, relay_step, NULL, 2), 2);
        size_t n;
        const bspram_record *rec = bspram_machine_records(m, &n);
        CHECK_EQ_U64(n, 5);
        double want = 0;
        for (size_t i = 0; i < n; i++) {
            CHECK_EQ_U64(rec[i].superstep, i);
            CHECK_EQ_U64(rec[i].h_bytes, 8);
            CHECK_EQ_U64(rec[i].charge, 1);
            CHECK(!strcmp(rec[i].label, i < 3 ? "relay" : "relay-2"));
            want += (double)rec[i].work + 2.5 * 8 + 100;
        }
        CHECK(bspram_machine_predicted_cost(m) == want);
        /* 4 deliveries were read (the 5th is still in the inboxes): each
         * component received (pid−1 mod p)+1 four times. */
        for (uint64_t pid = 0; pid < 8; pid++) {
            uint64_t from = (pid + 7) % 8;
            CHECK_EQ_U64(*(uint64_t *)bspram_machine_local(m, pid), 4 * (from + 1));
            const bspram_message *in;
            CHECK_EQ_U64(bspram_machine_inbox(m, pid, &in), 1);
            CHECK_EQ_U64(in[0].src, from);
        }
        bspram_machine_clear_records(m);
        CHECK(bspram_machine_records(m, &n) != NULL || n == 0);
        CHECK_EQ_U64(n, 0);
        bspram_machine_destroy(m);
    }

    /* SPMD style, including more threads than cores. */
    static const int spmd_p[] = {1, 2, 3, 8, 64};
    for (size_t i = 0; i < 5; i++) {
        atomic_int bad = 0;
        bspram_config cfg = bspram_config_default((uint64_t)spmd_p[i]);
        cfg.threads = spmd_p[i];
        bspram_machine *m = bspram_machine_create(&cfg);
        bspram__bsp_machine_spmd(m, ring, &bad);
        CHECK_EQ_U64(atomic_load(&bad), 0);
        size_t n;
        const bspram_record *rec = bspram_machine_records(m, &n);
        CHECK_EQ_U64(n, 2 * (uint64_t)spmd_p[i] + 1);
        CHECK_EQ_U64(rec[0].messages, (uint64_t)spmd_p[i]);
        CHECK_EQ_U64(rec[0].charge, 1);
        CHECK_EQ_U64(rec[n - 1].messages, 0);
        bspram_machine_destroy(m);
    }

    /* BSPRAM_TRACE: CSV and JSON written when machines are destroyed. */
    {
        char csv[64], json[64];
        snprintf(csv, sizeof csv, "/tmp/bspram-trace-%d.csv", (int)getpid());
        snprintf(json, sizeof json, "/tmp/bspram-trace-%d.json", (int)getpid());
        static const char *paths[2];
        paths[0] = csv;
        paths[1] = json;
        for (int f = 0; f < 2; f++) {
            setenv("BSPRAM_TRACE", paths[f], 1);
            bspram_config cfg = bspram_config_default(4);
            cfg.local_bytes = 8;
            bspram_machine *m = bspram_machine_create(&cfg);
            bspram_machine_set_label(m, "traced");
            bspram_machine_run(m, relay_step, NULL, 2);
            bspram_machine_destroy(m);
            unsetenv("BSPRAM_TRACE");
        }
        CHECK(file_contains(csv, "machine,superstep,label,messages,bytes,q,r,charge,h_bytes,max_message,work,seconds,exchange_seconds,p,flows,loads\n"));
        CHECK(file_contains(csv, ",0,traced,4,32,1,1,1,8,8,0,"));
        CHECK(file_contains(csv, ",1,traced,4,32,1,1,1,8,8,0,"));
        CHECK(file_contains(json, "\"superstep\": 1, \"label\": \"traced\", \"messages\": 4, \"bytes\": 32, \"q\": 1, \"r\": 1, \"charge\": 1, \"h_bytes\": 8"));
        CHECK(file_contains(json, "[\n"));
        CHECK(file_contains(json, "}\n]\n"));
        /* A new name starts a new file: each holds its own machine, and the
         * CSV file is left as its machine wrote it (tests/test_trace.c has
         * many machines in one file). */
        CHECK(file_contains(json, "\"superstep\": 0, \"label\": \"traced\""));
        CHECK_EQ_U64(file_count(json, "\"superstep\": 0, \"label\": \"traced\""), 1);
        CHECK_EQ_U64(file_count(csv, ",traced,"), 2);
        remove(csv);
        remove(json);
    }
    return check_report("test_machine");
}
