/* hash/: uniform bins (chi-square), the prefix property of the owner
 * functions, seeds that differ, reproducibility, basis validation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "check.h"
#include "hash/hash_internal.h"

/* Chi-square statistic of `keys` hashed into n bins; for a uniform hash it
 * has mean n−1 and standard deviation sqrt(2(n−1)). */
static double chi_square(const bspram_hash *h, uint64_t n, uint64_t keys, uint64_t stride)
{
    uint64_t *bin = calloc(n, sizeof *bin);
    for (uint64_t k = 0; k < keys; k++)
        bin[bspram_hash_below(h, k * stride, n)]++;
    double e = (double)keys / (double)n, x = 0;
    for (uint64_t i = 0; i < n; i++)
        x += ((double)bin[i] - e) * ((double)bin[i] - e) / e;
    free(bin);
    return x;
}

static int within_chi(double x, uint64_t n)
{
    double df = (double)(n - 1);
    return fabs(x - df) < 6 * sqrt(2 * df); /* 6 sigma: a fixed seed, so no flakiness */
}

/* The longest legal bases print whole into BSPRAM_BASIS_TEXT_MAX bytes
 * (a 64-byte buffer once cut them at 63 characters, mid-factor); a buffer
 * too small gets the text's prefix and the full length, so that the caller
 * sees the truncation. */
static void basis_format_lengths(void)
{
    char text[4 * BSPRAM_BASIS_TEXT_MAX], out[BSPRAM_BASIS_TEXT_MAX], small[64], err[256];
    struct {
        uint64_t p;
        const char *last; /* after 63 factors of `first` */
        const char *first;
    } cases[] = {
        {UINT64_MAX, "18446744073709551615", "1"}, /* 64 phases, the most digits */
        {UINT64_C(1) << 63, "2", "2"},             /* 63 phases of 2 (64 would overflow) */
        {4096, "4096", "1"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = 0;
        unsigned factors = cases[c].p == UINT64_C(1) << 63 ? 62 : 63;
        for (unsigned i = 0; i < factors; i++)
            n += (size_t)sprintf(text + n, "%sx", cases[c].first);
        n += (size_t)sprintf(text + n, "%s", cases[c].last);
        bspram_basis b;
        CHECK(bspram_basis_parse(&b, cases[c].p, text, err, sizeof err) == 0);
        CHECK_EQ_U64(b.m, factors + 1);
        CHECK(n < BSPRAM_BASIS_TEXT_MAX);
        CHECK_EQ_U64(bspram_basis_format(&b, out, sizeof out), n);
        CHECK(!strcmp(out, text));
        CHECK_EQ_U64(bspram_basis_format(&b, small, sizeof small), n);
        CHECK(strlen(small) == sizeof small - 1 && !strncmp(small, text, sizeof small - 1));
        CHECK_EQ_U64(bspram_basis_format(&b, small, 1), n);
        CHECK(small[0] == 0);
    }
}

/* bspram_cells finds what bspram_cell finds, address by address, in every
 * layout and width, for batch sizes around its group of 16, before and
 * after a rehash. */
static void cells_match_cell(void)
{
    static const uint64_t ps[] = {1, 7, 4096};
    static const size_t ns[] = {0, 1, 15, 16, 17, 1000};
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++)
        for (int kind = 0; kind < 2; kind++) {
            bspram_space *s = bspram_space_create(ps[pi], (bspram_hash_kind)kind, 99 + pi);
            uint32_t seg[4] = {bspram_segment_alloc(s, 5000, 8, BSPRAM_LAYOUT_HASHED),
                               bspram_segment_alloc(s, 777, 1, BSPRAM_LAYOUT_HASHED),
                               bspram_segment_alloc(s, 3000, 8, BSPRAM_LAYOUT_BLOCK),
                               bspram_segment_alloc(s, 3001, 4, BSPRAM_LAYOUT_CYCLIC)};
            const uint64_t cells[4] = {5000, 777, 3000, 3001};
            for (int rehash = 0; rehash < 2; rehash++) {
                if (rehash)
                    bspram_space_rehash(s, 4242);
                for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                    size_t n = ns[i];
                    uint64_t *a = malloc((n ? n : 1) * sizeof *a);
                    void **got = malloc((n ? n : 1) * sizeof *got);
                    for (size_t j = 0; j < n; j++) {
                        unsigned g = (unsigned)bspram_random_below(4, 7, i, j, 0);
                        a[j] = bspram_address(s, seg[g], bspram_random_below(cells[g], 7, i, j, 1));
                    }
                    bspram_cells(s, a, n, got);
                    size_t wrong = 0;
                    for (size_t j = 0; j < n; j++)
                        wrong += got[j] != bspram_cell(s, a[j]);
                    CHECK_EQ_U64(wrong, 0);
                    free(a);
                    free(got);
                }
            }
            bspram_space_destroy(s);
        }
}

int main(void)
{
    basis_format_lengths();
    cells_match_cell();
    /* Uniformity, for both families, power-of-two and other bin counts, and
     * keys that are dense, strided (like cell addresses) or sparse. */
    static const uint64_t ns[] = {2, 7, 1000, 4096, 65537};
    static const uint64_t strides[] = {1, 8, 4096, 0x9E3779B97F4A7C15ULL};
    for (int kind = 0; kind < 2; kind++) {
        bspram_hash h;
        bspram__hash_init(&h, (bspram_hash_kind)kind, 12345);
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++) {
                double x = chi_square(&h, ns[i], 40 * ns[i] + 1000, strides[s]);
                CHECK(within_chi(x, ns[i]));
                if (!within_chi(x, ns[i]))
                    fprintf(stderr, "  kind %d n %llu stride %llu chi2 %.1f\n", kind,
                            (unsigned long long)ns[i], (unsigned long long)strides[s], x);
            }
        /* Reproducible; different seeds give different functions. */
        bspram_hash h2, h3;
        bspram__hash_init(&h2, (bspram_hash_kind)kind, 12345);
        bspram__hash_init(&h3, (bspram_hash_kind)kind, 12346);
        int same = 0, differ = 0;
        for (uint64_t k = 0; k < 1000; k++) {
            same += bspram__hash_hash64(&h, k) == bspram__hash_hash64(&h2, k);
            differ += bspram__hash_hash64(&h, k) != bspram__hash_hash64(&h3, k);
        }
        CHECK_EQ_U64(same, 1000);
        CHECK(differ >= 998);
        CHECK(bspram_hash_kind_parse(bspram_hash_kind_name((bspram_hash_kind)kind)) == kind);
    }
    CHECK(bspram_hash_kind_parse("md5") == -1);

    /* Tabulation: the XOR of table entries, checked by hand. */
    bspram_hash t;
    bspram__hash_init(&t, BSPRAM_HASH_TABULATION, 99);
    uint64_t key = 0x0102030405060708ULL, want = 0;
    for (int c = 0; c < 8; c++)
        want ^= t.table[c][(key >> (8 * c)) & 0xff];
    CHECK_EQ_U64(bspram__hash_hash64(&t, key), want);

    /* bspram_reduce: floor(x·n/2^64), against long-hand arithmetic. */
    CHECK_EQ_U64(bspram_reduce(0, 7), 0);
    CHECK_EQ_U64(bspram_reduce(UINT64_MAX, 7), 6);
    CHECK_EQ_U64(bspram_reduce(1ULL << 63, 7), 3);
    CHECK_EQ_U64(bspram_reduce(1ULL << 63, 4096), 2048);

    /* Counter-based randomness: pure, uniform, sensitive to every word. */
    CHECK_EQ_U64(bspram_random3(1, 2, 3, 4), bspram_random3(1, 2, 3, 4));
    CHECK(bspram_random3(1, 2, 3, 4) != bspram_random3(1, 2, 3, 5));
    CHECK(bspram_random3(1, 2, 3, 4) != bspram_random3(1, 2, 4, 4));
    CHECK(bspram_random3(1, 2, 3, 4) != bspram_random3(1, 3, 3, 4));
    CHECK(bspram_random3(1, 2, 3, 4) != bspram_random3(2, 2, 3, 4));
    {
        uint64_t n = 97, bin[97] = {0}, draws = 97 * 400;
        for (uint64_t i = 0; i < draws; i++)
            bin[bspram_random_below(n, 5, 1, i, 0)]++;
        double e = (double)draws / n, x = 0;
        for (uint64_t i = 0; i < n; i++)
            x += ((double)bin[i] - e) * ((double)bin[i] - e) / e;
        CHECK(within_chi(x, n));
        double u = bspram_random_unit(1, 2, 3, 4);
        CHECK(u >= 0 && u < 1);
    }

    /* Basis: product, suffixes, and the prefix property h_i = prefix of h_{i+1}
     * for mixed radices. */
    static const char *bases[] = {"4096", "64x64", "8x8x8x8", "32x16x8", "32x8x4x4", "3x5x7", "1x6x1", "2x2x2x2x2x2x2x2x2x2x2x2"};
    static const uint64_t bp[] = {4096, 4096, 4096, 4096, 4096, 105, 6, 4096};
    bspram_hash hx;
    bspram__hash_init(&hx, BSPRAM_HASH_XXH3, 7);
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        bspram_basis b;
        char err[128], fmt[128];
        CHECK(bspram_basis_parse(&b, bp[i], bases[i], err, sizeof err) == 0);
        CHECK_EQ_U64(bspram_basis_format(&b, fmt, sizeof fmt), strlen(bases[i]));
        CHECK(!strcmp(fmt, bases[i]));
        CHECK_EQ_U64(b.suffix[0], bp[i]);
        CHECK_EQ_U64(b.suffix[b.m], 1);
        uint64_t prod = 1;
        for (unsigned j = b.m; j >= 1; j--) {
            CHECK_EQ_U64(b.suffix[j], prod);
            prod *= b.b[j];
        }
        for (uint64_t t2 = 0; t2 < 2000; t2++) {
            uint64_t owner = bspram_hash_below(&hx, t2, bp[i]);
            CHECK_EQ_U64(bspram_basis_prefix(&b, 0, owner), 0);
            CHECK_EQ_U64(bspram_basis_prefix(&b, b.m, owner), owner);
            for (unsigned j = 1; j < b.m; j++) {
                /* h_j(t) is h_{j+1}(t) without its last digit. */
                CHECK_EQ_U64(bspram_basis_prefix(&b, j, owner),
                             bspram_basis_prefix(&b, j + 1, owner) / b.b[j + 1]);
                uint64_t k = t2 % b.suffix[j];
                uint64_t target = bspram_basis_target(&b, j, owner, k);
                CHECK(target < bp[i] && target / b.suffix[j] == bspram_basis_prefix(&b, j, owner));
            }
        }
    }
    /* Invalid bases get an error and a reason. */
    static const char *bad[] = {"8x8x8", "0x4096", "", "8xx8", "abc", "8x8x8x8x", "4096x1x0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bspram_basis b;
        char err[128] = "";
        CHECK(bspram_basis_parse(&b, 4096, bad[i], err, sizeof err) == -1);
        CHECK(err[0] != 0);
    }
    {
        bspram_basis b;
        char err[128];
        uint64_t zero[2] = {0, 4096};
        CHECK(bspram_basis_make(&b, 4096, 2, zero, err, sizeof err) == -1 && strstr(err, "b_1 is 0"));
        CHECK(bspram_basis_make(&b, 4096, 0, zero, err, sizeof err) == -1);
        uint64_t huge[3] = {1ULL << 40, 1ULL << 40, 2};
        CHECK(bspram_basis_make(&b, 4096, 3, huge, err, sizeof err) == -1 && strstr(err, "overflow"));
    }
    return check_report("test_hash");
}
