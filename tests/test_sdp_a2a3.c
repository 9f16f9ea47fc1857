/* Algorithms A2 (one port and n ports) and A3 of bsp_sdp (coll/sdp_a2.c,
 * coll/sdp_a3.c), step by step: besides the result (against a sequential
 * reference) and the counts (Ho & Johnsson 1988, Table 2, worked out here
 * from δ's cycles), every superstep's message pattern, read off the trace
 * (BSPRAM_TRACE with BSPRAM_PATTERN=1), must be the paper's schedule:
 *   - A2, one port (§4.2.1, Swarztrauber's): the real cycles one after
 *     another (Lemma 5); a cycle of order σ is σ + 1 supersteps in which
 *     every process sends one message of ⌈K/2⌉ bytes to its neighbour
 *     across one dimension, the same for all processes, and the dimensions
 *     follow the cycle, d_{j+1} = μ(d_j), back to d_0 (the virtual dimension
 *     exchanged with each real one in turn);
 *   - A2, n ports (§4.2.2): the same σ + 1 supersteps per cycle (Lemma 6's
 *     first form), in each of which every process sends σ messages of
 *     ⌈K/(2σ)⌉ bytes, one across each of the cycle's dimensions;
 *   - A3 (§4.4.2): 2n supersteps, two standard-exchange all-to-alls: in
 *     each every process sends one message of (P/2)·⌈K/P⌉ bytes across one
 *     dimension, the same for all, each all-to-all crossing every dimension
 *     once.
 * μ is the processor dimensions' permutation (μ(π(i)) = π(δ(i)) for real
 * i), computed here. Counts: A2 one port C1 = σ_p + β, C2 = (σ_p + β)⌈K/2⌉;
 * n ports C1 = σ_p + β, C2 = Σ (σ_i + 1)⌈K/(2σ_i)⌉; A3 C1 = 2n,
 * C2 = n·P·⌈K/P⌉ (= nK when P | K); supersteps = C1, messages per
 * superstep as above, Theorem 1's lower bounds. Cases: shuffle,
 * unshuffle, 2-shuffle, bit reversal, transpose (odd n: 3-shuffle), a
 * random δ on the real dimensions with a virtual cycle beside it; cyclic,
 * consecutive and random allocations; K from 0 and 1 byte (odd K, K < P)
 * to 64 KiB; elements of 0, 1, 3 and 8 bytes; P = 2 … 64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bsp.h>
#include <bsp_coll.h>
#include <bsp_sdp.h>

#include "bsplib_check.h"

static unsigned P, N; /* N = log2 P */
enum { MAXP = 64 };  /* the largest P run (step_ok's arrays) */

typedef struct tcase {
    bsp_sdp_layout L;
    bsp_sdp_perm d;
    bsp_sdp_algorithm a;
    unsigned ports;
} tcase;
enum { MAXCASES = 64 };

static _Thread_local uint64_t rng; /* make_cases seeds it: the same sequence on every process */
static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static void shuffle_values(unsigned char *v, unsigned k)
{
    for (unsigned i = k; i > 1; i--) {
        unsigned j = (unsigned)(next() % i);
        unsigned char t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* δ on the real logic dimensions as on_n does on 0..N−1. */
static bsp_sdp_perm on_real(const bsp_sdp_layout *L, const bsp_sdp_perm *on_n)
{
    unsigned char dims[64];
    unsigned k = 0;
    for (unsigned i = 0; i < L->m; i++)
        if (L->pi[i] < N)
            dims[k++] = (unsigned char)i;
    bsp_sdp_perm d = bsp_sdp_identity(L->m);
    for (unsigned j = 0; j < N; j++)
        d.delta[dims[j]] = dims[on_n->delta[j]];
    return d;
}

/* The cases for this P (a pure function of N: main rebuilds them to read
 * the trace). */
static unsigned make_cases(tcase *out)
{
    rng = 88172645463325252ULL + N;
    /* Per kind: local dimensions, element bytes (K = 12, 1, 16, 0, 3, 40,
     * 64 KiB) and the allocation (cyclic, consecutive, random). */
    static const unsigned locals[] = {2, 0, 1, 3, 0, 3, 13};
    static const size_t elems[] = {3, 1, 8, 0, 3, 5, 8};
    unsigned count = 0;
    for (unsigned kind = 0; kind < 7; kind++) {
        if (kind == 6 && P > 8)
            break;
        unsigned m = N + locals[kind];
        size_t e = elems[kind];
        bsp_sdp_layout L = kind % 3 == 1 ? bsp_sdp_consecutive(N, m, e) : bsp_sdp_cyclic(N, m, e);
        if (kind % 3 == 2)
            shuffle_values(L.pi, m); /* a random allocation */
        bsp_sdp_perm on_n;
        switch (kind) {
        case 0: case 6: on_n = bsp_sdp_shuffle(N, 0, N, 1); break;
        case 1: on_n = bsp_sdp_shuffle(N, 0, N, -1); break;
        case 2: on_n = bsp_sdp_shuffle(N, 0, N, 2); break;
        case 3: on_n = bsp_sdp_bit_reversal(N, 0, N); break;
        case 4: on_n = N % 2 ? bsp_sdp_shuffle(N, 0, N, 3) : bsp_sdp_transpose(N, 0, N); break;
        default: /* random on the real dimensions */
            on_n = bsp_sdp_identity(N);
            shuffle_values(on_n.delta, N);
        }
        bsp_sdp_perm d = on_real(&L, &on_n);
        if (kind == 5) { /* and a virtual cycle beside */
            unsigned char vi[64];
            unsigned nv = 0;
            for (unsigned i = 0; i < m; i++)
                if (L.pi[i] >= N)
                    vi[nv++] = (unsigned char)i;
            d.delta[vi[0]] = vi[1], d.delta[vi[1]] = vi[0];
        }
        for (int a = 0; a < 3; a++) {
            if (a == 1 && N < 2)
                continue;
            out[count++] = (tcase){.L = L, .d = d, .a = a == 2 ? BSP_SDP_A3 : BSP_SDP_A2,
                                   .ports = a == 1 ? N : 1};
        }
    }
    return count;
}

/* μ on the processor dimensions and its cycles (order ≥ 2). */
typedef struct cube_cycles {
    unsigned mu[64];
    unsigned count, order[64], first[64], sum, odd;
} cube_cycles;

static cube_cycles cycles_of(const bsp_sdp_layout *L, const bsp_sdp_perm *d)
{
    cube_cycles c = {0};
    for (unsigned j = 0; j < N; j++)
        c.mu[j] = j;
    for (unsigned i = 0; i < L->m; i++)
        if (L->pi[i] < N)
            c.mu[L->pi[i]] = L->pi[d->delta[i]];
    int seen[64] = {0};
    for (unsigned j = 0; j < N; j++) {
        if (seen[j] || c.mu[j] == j)
            continue;
        unsigned len = 0;
        for (unsigned x = j; !seen[x]; x = c.mu[x])
            seen[x] = 1, len++;
        c.first[c.count] = j;
        c.order[c.count++] = len;
        c.sum += len;
        c.odd += len % 2;
    }
    return c;
}

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* Table 2's C1 and C2, with the ceilings where K does not divide evenly. */
static void expected(const tcase *t, const cube_cycles *cy, uint64_t K, uint64_t *c1,
                     uint64_t *c2)
{
    *c1 = *c2 = 0;
    if (!cy->count)
        return;
    if (t->a == BSP_SDP_A3) {
        *c1 = 2 * N, *c2 = (uint64_t)N * P * cdiv(K, P);
        return;
    }
    for (unsigned i = 0; i < cy->count; i++) {
        uint64_t s = cy->order[i];
        *c1 += s + 1;
        *c2 += (s + 1) * (t->ports > 1 ? cdiv(K, 2 * s) : cdiv(K, 2));
    }
}

static unsigned char content(uint64_t w, size_t k)
{
    return (unsigned char)(w * 131 + k * 7 + (w >> 8) * 3 + 1);
}

static uint64_t logic(const bsp_sdp_layout *L, uint64_t a)
{
    uint64_t w = 0;
    for (unsigned i = 0; i < L->m; i++)
        w |= ((a >> L->pi[i]) & 1u) << i;
    return w;
}

static void spmd(void)
{
    bsp_begin(P);
    unsigned pid = bsp_pid();
    tcase *cases = malloc(MAXCASES * sizeof *cases);
    unsigned count = make_cases(cases);
    for (unsigned ci = 0; ci < count; ci++) {
        const tcase *t = &cases[ci];
        unsigned s = t->L.m - N;
        size_t lc = (size_t)1 << s, e = t->L.elem, K = lc * e;
        int in_place = ci % 2;
        unsigned char *src = malloc(K + 1), *dst = in_place ? src : malloc(K + 1);
        for (size_t l = 0; l < lc; l++)
            for (size_t k = 0; k < e; k++)
                src[l * e + k] = content(logic(&t->L, pid | (uint64_t)l << N), k);
        bsp_sdp_options opt = {.algorithm = t->a, .ports = t->ports};
        bsp_sdp(&t->L, &t->d, src, dst, &opt);
        bsp_coll_cost c = bsp_coll_last_cost();
        int ok = 1;
        for (size_t l = 0; l < lc; l++) {
            uint64_t v = logic(&t->L, pid | (uint64_t)l << N), w = 0; /* v = dp(w) */
            for (unsigned i = 0; i < t->L.m; i++)
                w |= ((v >> t->d.delta[i]) & 1u) << i;
            for (size_t k = 0; k < e; k++)
                ok &= dst[l * e + k] == content(w, k);
        }
        cube_cycles cy = cycles_of(&t->L, &t->d);
        uint64_t c1, c2, per_step = 0;
        expected(t, &cy, K, &c1, &c2);
        for (unsigned i = 0; i < cy.count; i++) /* messages: P per superstep, σ each n-port */
            per_step += (t->ports > 1 ? cy.order[i] : 1) * (uint64_t)(cy.order[i] + 1);
        uint64_t messages = t->a == BSP_SDP_A3 ? (cy.count ? 2 * N * P : 0) : per_step * P;
        int counts = c.c1 == c1 && c.c2 == c2 && c.supersteps == c1 && c.messages == messages;
        counts &= c.c1 + cy.odd >= cy.sum; /* Theorem 1: C1 ≥ σ_p − oJ */
        counts &= c.c2 >= (t->ports > 1 ? (cy.count ? cdiv(K, 2) : 0) : cdiv(cy.sum * K, 2));
        unsigned most = 1;
        for (unsigned i = 0; t->ports > 1 && i < cy.count; i++)
            most = cy.order[i] > most ? cy.order[i] : most;
        counts &= cy.count ? c.max_q == most && c.max_r == most : c.max_q == 0;
        if (!ok || !counts)
            fprintf(stderr, "P=%u case %u (%s, %u ports, K=%zu): %s; C1=%llu C2=%llu steps=%llu "
                            "msgs=%llu q=%llu, paper %llu %llu msgs %llu\n",
                    P, ci, bsp_sdp_algorithm_name(t->a), t->ports, K,
                    ok ? "counts" : "wrong result", (unsigned long long)c.c1,
                    (unsigned long long)c.c2, (unsigned long long)c.supersteps,
                    (unsigned long long)c.messages, (unsigned long long)c.max_q,
                    (unsigned long long)c1, (unsigned long long)c2,
                    (unsigned long long)messages);
        SPMD_CHECK(ok && counts);
        free(src);
        if (!in_place)
            free(dst);
    }
    free(cases);
    bsp_end();
}

/* ---- the trace ---- */

typedef struct flow {
    unsigned src, dst;
    unsigned long long msgs, largest;
} flow;
typedef struct row {
    size_t first, count; /* flows */
} row;

static flow *flows;
static size_t nflows, capflows;
static row rows[4096];
static size_t nrows;

static int read_trace(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    nrows = nflows = 0;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = '\0';
        const char *at = strstr(line, ",bsp_sdp,");
        if (!at || nrows == sizeof rows / sizeof rows[0])
            continue;
        row *r = &rows[nrows++];
        r->first = nflows, r->count = 0;
        const char *fl = check_trace_flows(line);
        if (!fl)
            continue;
        unsigned long long s, d, msgs, bytes, largest;
        int len;
        while (sscanf(fl, "%llu:%llu:%llu:%llu:%llu%n", &s, &d, &msgs, &bytes, &largest, &len) ==
               5) {
            if (nflows == capflows) {
                capflows = capflows ? 2 * capflows : 1024;
                flows = realloc(flows, capflows * sizeof *flows);
            }
            flows[nflows++] = (flow){(unsigned)s, (unsigned)d, msgs, largest};
            r->count++;
            fl += len;
            while (*fl == ' ')
                fl++;
        }
    }
    free(line);
    fclose(f);
    return 1;
}

/* One superstep: every process sends `per` messages of `bytes` data bytes,
 * each to a neighbour; *dims gets the dimensions crossed (the same for
 * every process, else 0 is returned). */
static int step_ok(const row *r, unsigned per, unsigned long long bytes, unsigned *dims)
{
    unsigned sent[MAXP] = {0}, mask[MAXP] = {0};
    int ok = r->count == (size_t)P * per;
    for (size_t k = r->first; k < r->first + r->count; k++) {
        const flow *f = &flows[k];
        unsigned x = f->src ^ f->dst;
        if (f->src >= P || x == 0 || (x & (x - 1)) || f->msgs != 1 || f->largest != bytes + 8)
            return 0;
        sent[f->src]++;
        mask[f->src] |= x;
    }
    for (unsigned q = 0; q < P; q++)
        ok &= sent[q] == per && mask[q] == mask[0];
    *dims = mask[0];
    return ok;
}

/* The dimensions of cycle i, as a mask. */
static unsigned cycle_mask(const cube_cycles *cy, unsigned i)
{
    unsigned m = 0, x = cy->first[i];
    do
        m |= 1u << x, x = cy->mu[x];
    while (x != cy->first[i]);
    return m;
}

static unsigned dim_of(unsigned mask)
{
    unsigned d = 0;
    while (mask > 1u)
        mask >>= 1, d++;
    return d;
}

/* The rows of one call against its schedule, from *at on. */
static int schedule_ok(const tcase *t, size_t *at)
{
    cube_cycles cy = cycles_of(&t->L, &t->d);
    uint64_t K = ((uint64_t)1 << (t->L.m - N)) * t->L.elem;
    if (!cy.count)
        return 1;
    if (t->a == BSP_SDP_A3) {
        for (unsigned ph = 0; ph < 2; ph++) {
            unsigned crossed = 0;
            for (unsigned j = 0; j < N; j++) {
                unsigned dims;
                if (*at >= nrows || !step_ok(&rows[(*at)++], 1, (P / 2) * cdiv(K, P), &dims) ||
                    (dims & (dims - 1)) || (crossed & dims))
                    return 0;
                crossed |= dims;
            }
            if (crossed != P - 1)
                return 0;
        }
        return 1;
    }
    unsigned done = 0; /* the cycles run, by their first dimension */
    for (unsigned k = 0; k < cy.count; k++) {
        unsigned dims;
        if (*at >= nrows)
            return 0;
        if (t->ports > 1) {
            /* Which cycle: the dimensions its first superstep crosses. */
            unsigned c = cy.count;
            for (unsigned i = 0; i < cy.count; i++)
                if (!(done >> i & 1u) &&
                    step_ok(&rows[*at], cy.order[i], cdiv(K, 2 * cy.order[i]), &dims) &&
                    dims == cycle_mask(&cy, i))
                    c = i;
            if (c == cy.count)
                return 0;
            done |= 1u << c;
            for (unsigned j = 0; j <= cy.order[c]; j++)
                if (*at >= nrows ||
                    !step_ok(&rows[(*at)++], cy.order[c], cdiv(K, 2 * cy.order[c]), &dims) ||
                    dims != cycle_mask(&cy, c))
                    return 0;
            continue;
        }
        /* One port: σ + 1 supersteps along d_0, μ(d_0), …, d_0. */
        if (!step_ok(&rows[*at], 1, cdiv(K, 2), &dims) || (dims & (dims - 1)))
            return 0;
        unsigned d0 = dim_of(dims), c = cy.count;
        for (unsigned i = 0; i < cy.count; i++)
            if (cycle_mask(&cy, i) >> d0 & 1u)
                c = i;
        if (c == cy.count || (done >> c & 1u))
            return 0;
        done |= 1u << c;
        unsigned d = d0;
        for (unsigned j = 0; j <= cy.order[c]; j++) {
            unsigned want = j == cy.order[c] ? d0 : d;
            if (*at >= nrows || !step_ok(&rows[(*at)++], 1, cdiv(K, 2), &dims) ||
                dims != 1u << want)
                return 0;
            d = cy.mu[d];
        }
    }
    return 1;
}

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/bspram-test-sdp-a2a3-%d.csv", (int)getpid());
    setenv("BSPRAM_PATTERN", "1", 1);
    tcase *cases = malloc(MAXCASES * sizeof *cases);
    for (P = 2, N = 1; P <= MAXP; P *= 2, N++) {
        remove(path);
        setenv("BSPRAM_TRACE", path, 1);
        bsp_init(spmd, 0, NULL);
        spmd();
        unsetenv("BSPRAM_TRACE");
        char what[48];
        snprintf(what, sizeof what, "A2/A3 results and counts, P = %u", P);
        CHECK_SPMD(what);
        CHECK(read_trace(path));
        unsigned count = make_cases(cases);
        size_t at = 0;
        for (unsigned ci = 0; ci < count; ci++) {
            size_t from = at;
            int ok = schedule_ok(&cases[ci], &at);
            if (!ok)
                fprintf(stderr, "P=%u case %u (%s, %u ports): the supersteps from %zu are not the "
                                "paper's schedule\n", P, ci, bsp_sdp_algorithm_name(cases[ci].a),
                        cases[ci].ports, from);
            CHECK(ok);
            if (!ok)
                break;
        }
        CHECK_EQ_U64(at, nrows); /* no superstep more */
        CHECK(P < 4 || nrows > 0);
    }
    remove(path);
    unsetenv("BSPRAM_PATTERN");
    free(cases);
    free(flows);
    return check_report("test_sdp_a2a3");
}
