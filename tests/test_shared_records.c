/* The records of a shared-memory run (combine/shared.h): the combining
 * phases run as supersteps between the program's own, labelled
 * combine:forward:i / combine:reverse:j, and the program's keep its label;
 * a batch without reads or fetches has no reverse steps, a step without
 * requests no batch; the program's records count its own messages only;
 * each batch's records equal those of the same batch run from the host
 * (bspram_combine: the one engine); bspram_superstep inside a step counts
 * the combining supersteps; BSPRAM_TRACE gets the same rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bspram.h"
#include "check.h"

enum { P = 16, CELLS = 24, STEPS = 4 };

typedef struct prog {
    bspram_space *s;
    bspram_shared *sh;
    uint32_t seg;
    uint64_t superstep[STEPS]; /* bspram_superstep in each step (component 0) */
} prog;

static const unsigned SUM = 7; /* sum:u64 */

/* Component c's requests of step s, for the run and for the host's batches. */
static size_t requests(const bspram_space *s, uint32_t seg, unsigned step, uint64_t c,
                       bspram_request *out)
{
    size_t n = 0;
    switch (step) {
    case 0: /* reads and a reduction: forward and reverse */
        out[n++] = (bspram_request){bspram_address(s, seg, c % 5), 0, BSPRAM_READ, (uint32_t)c};
        out[n++] = (bspram_request){bspram_address(s, seg, 10), c + 1, bspram_kind_reduce(SUM), (uint32_t)c};
        break;
    case 1: /* writes only: no reverse flow */
        out[n++] = (bspram_request){bspram_address(s, seg, 11 + c % 7), c, BSPRAM_WRITE_PRIORITY, (uint32_t)c};
        break;
    case 2: /* nothing: no batch */
        break;
    default: /* fetch-and-add */
        out[n++] = (bspram_request){bspram_address(s, seg, 20), 1, bspram_kind_fetch(SUM), (uint32_t)c};
        break;
    }
    return n;
}

static bool step(bspram_component *self, void *arg)
{
    prog *x = arg;
    uint64_t c = bspram_pid(self), *mine = bspram_local(self);
    unsigned s = (unsigned)(*mine)++;
    if (c == 0)
        x->superstep[s] = bspram_superstep(self);
    const bspram_message *in;
    size_t n = bspram_inbox(self, &in);
    bool ring_before = s == 1 || s == 3; /* steps 0 and 2 send the ring */
    CHECK_EQ_U64(n, ring_before ? 1 : 0);
    if (n == 1)
        CHECK(in[0].src == (c + P - 1) % P && *(const uint64_t *)in[0].data == 100 * s + in[0].src);
    bspram_request r[4];
    size_t k = requests(x->s, x->seg, s, c, r);
    for (size_t j = 0; j < k; j++)
        CHECK_EQ_U64(bspram_shared_issue(x->sh, self, &r[j]), j);
    if (s % 2 == 0 || s == 3) {
        uint64_t v = 100 * (s + 1) + c;
        bspram_send(self, (c + 1) % P, &v, sizeof v);
    }
    return s + 1 < STEPS;
}

static bspram_combine_options options(void)
{
    bspram_combine_options o = bspram_combine_defaults(P);
    bspram_basis_require(&o.basis, P, "4x4");
    o.seed = 5;
    return o;
}

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/bspram-shared-trace-%d.csv", (int)getpid());
    remove(path);
    setenv("BSPRAM_TRACE", path, 1);
    bspram_config cfg = bspram_config_default(P);
    cfg.threads = 2;
    cfg.local_bytes = sizeof(uint64_t);
    bspram_machine *m = bspram_machine_create(&cfg);
    prog x;
    x.s = bspram_space_create(P, BSPRAM_HASH_XXH3, 3);
    x.seg = bspram_segment_alloc(x.s, CELLS, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = options();
    x.sh = bspram_shared_create(m, x.s, &o);
    bspram_machine_set_label(m, "mine");
    CHECK_EQ_U64(bspram_shared_run(x.sh, step, &x, 0), STEPS);

    static const char *const want[] = {
        "mine", "combine:forward:1", "combine:forward:2", "combine:reverse:1", "combine:reverse:2",
        "mine", "combine:forward:1", "combine:forward:2",
        "mine",
        "mine", "combine:forward:1", "combine:forward:2", "combine:reverse:1", "combine:reverse:2"};
    const size_t nwant = sizeof want / sizeof want[0];
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    CHECK_EQ_U64(n, nwant);
    for (size_t i = 0; i < n && i < nwant; i++)
        CHECK(strcmp(rec[i].label, want[i]) == 0);
    /* The program's supersteps and where they ran. */
    static const size_t mine_at[STEPS] = {0, 5, 8, 9};
    static const uint64_t ring[STEPS] = {P, 0, P, P};
    for (unsigned s = 0; s < STEPS && n == nwant; s++) {
        CHECK_EQ_U64(x.superstep[s], mine_at[s]);
        CHECK_EQ_U64(rec[mine_at[s]].messages, ring[s]);
    }
    /* The last step's fetch-and-adds: the answers are 0..P-1 in some order;
     * its messages are readable after the batch. */
    uint64_t seen = 0;
    for (uint64_t c = 0; c < P; c++) {
        const uint64_t *a;
        CHECK_EQ_U64(bspram_shared_answers_of(x.sh, c, &a), 1);
        seen |= UINT64_C(1) << a[0];
        const bspram_message *in;
        CHECK_EQ_U64(bspram_machine_inbox(m, c, &in), 1);
    }
    CHECK_EQ_U64(seen, (UINT64_C(1) << P) - 1);
    CHECK_EQ_U64(bspram_load(x.s, bspram_address(x.s, x.seg, 10)), P * (P + 1) / 2);

    /* The same batches from the host, on a machine of their own. */
    bspram_config hc = bspram_config_default(P);
    hc.threads = 3;
    bspram_machine *hm = bspram_machine_create(&hc);
    bspram_space *hs = bspram_space_create(P, BSPRAM_HASH_XXH3, 3);
    uint32_t hseg = bspram_segment_alloc(hs, CELLS, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combiner *hC = bspram_combiner_create(hm, hs, &o);
    for (unsigned s = 0; s < STEPS; s++) {
        if (s == 2)
            continue;
        bspram_request req[P * 4];
        uint64_t first[P + 1] = {0}, res[P * 4];
        for (uint64_t c = 0; c < P; c++)
            first[c + 1] = first[c] + requests(hs, hseg, s, c, req + first[c]);
        bspram_combine(hC, req, first, res, NULL);
    }
    size_t hn;
    const bspram_record *hrec = bspram_machine_records(hm, &hn);
    size_t j = 0;
    for (size_t i = 0; i < n && j < hn; i++) {
        if (strncmp(rec[i].label, "combine:", 8) != 0)
            continue;
        const bspram_record *a = &rec[i], *b = &hrec[j++];
        CHECK(strcmp(a->label, b->label) == 0 && a->messages == b->messages && a->bytes == b->bytes &&
              a->q == b->q && a->r == b->r && a->charge == b->charge && a->h_bytes == b->h_bytes);
    }
    CHECK_EQ_U64(j, hn);
    CHECK_EQ_U64(hn, nwant - STEPS);
    bspram_combiner_destroy(hC);
    bspram_space_destroy(hs);
    unsetenv("BSPRAM_TRACE");
    bspram_machine_destroy(hm); /* not traced */

    bspram_shared_destroy(x.sh);
    bspram_space_destroy(x.s);
    setenv("BSPRAM_TRACE", path, 1);
    bspram_machine_destroy(m); /* appends its rows */
    unsetenv("BSPRAM_TRACE");

    /* The trace: a header, then one row per superstep with the same labels. */
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f) {
        char line[512];
        size_t rows = 0;
        CHECK(fgets(line, sizeof line, f) != NULL && strncmp(line, "machine,superstep,label,", 24) == 0);
        while (fgets(line, sizeof line, f)) {
            unsigned id;
            unsigned long long superstep;
            char label[64];
            CHECK(sscanf(line, "%u,%llu,%63[^,],", &id, &superstep, label) == 3);
            CHECK_EQ_U64(superstep, rows);
            if (rows < nwant)
                CHECK(strcmp(label, want[rows]) == 0);
            rows++;
        }
        CHECK_EQ_U64(rows, nwant);
        fclose(f);
    }
    remove(path);
    return check_report("test_shared_records");
}
