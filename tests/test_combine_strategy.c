/* Basis selection: `auto` follows Valiant's Table 2 at p = 4096 (one phase for
 * degree ≤ 8, his compromise 32x16x8 with no hint), and gives a valid basis
 * (product p) for every p and hint, with no phase of radix 1 (a phase that
 * only scatters: 1x11 was once chosen for p = 11). */
#include <string.h>

#include "check.h"
#include "combine/combine.h"

/* Every entry ≥ 2, unless p = 1 (then the basis is "1"). */
static int no_radix_one(const bspram_basis *b)
{
    if (b->p == 1)
        return b->m == 1;
    for (unsigned i = 1; i <= b->m; i++)
        if (b->b[i] < 2)
            return 0;
    return 1;
}

static void expect_adaptive(uint64_t p, const char *want)
{
    char buf[128];
    bspram_basis b = bspram_basis_adaptive(p);
    bspram_basis_format(&b, buf, sizeof buf);
    if (strcmp(buf, want))
        fprintf(stderr, "adaptive(p=%llu) = %s, want %s\n", (unsigned long long)p, buf, want);
    CHECK(!strcmp(buf, want));
}

static void expect(uint64_t p, uint64_t hint, const char *want)
{
    char buf[128];
    bspram_basis b = bspram_basis_auto(p, hint);
    bspram_basis_format(&b, buf, sizeof buf);
    if (strcmp(buf, want))
        fprintf(stderr, "auto(p=%llu, hint=%llu) = %s, want %s\n", (unsigned long long)p,
                (unsigned long long)hint, buf, want);
    CHECK(!strcmp(buf, want));
}

int main(void)
{
    /* Valiant, Table 2 (and Table 1 for degree ≤ 8, Table 3 for no hint). */
    expect(4096, 4096, "8x8x8x8");
    expect(4096, 2048, "16x8x8x4");
    expect(4096, 1024, "32x8x4x4");
    expect(4096, 512, "32x8x4x4");
    expect(4096, 256, "128x8x4");
    expect(4096, 128, "256x4x4");
    expect(4096, 64, "512x8");
    expect(4096, 32, "1024x4");
    expect(4096, 16, "1024x4");
    expect(4096, 8, "4096");
    expect(4096, 1, "4096");
    expect(4096, 0, "32x16x8");
    /* A prime p has no split: one phase, never 1xp (with or without a hint). */
    static const uint64_t primes[] = {11, 13, 17, 19, 23, 29, 31, 4093};
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        char want[32];
        snprintf(want, sizeof want, "%llu", (unsigned long long)primes[i]);
        expect(primes[i], 0, want);
        expect(primes[i], primes[i], want);
        expect_adaptive(primes[i], want);
    }
    expect_adaptive(4096, "32x16x8");
    /* Any p, any hint: a basis of product p. */
    for (uint64_t p = 1; p <= 300; p++)
        for (uint64_t h = 0; h <= p + 2; h += 1 + h / 3) {
            bspram_basis b = bspram_basis_auto(p, h);
            uint64_t prod = 1;
            for (unsigned i = 1; i <= b.m; i++)
                prod *= b.b[i];
            CHECK_EQ_U64(prod, p);
            CHECK(b.m >= 1);
            if (!no_radix_one(&b)) {
                char buf[BSPRAM_BASIS_TEXT_MAX];
                bspram_basis_format(&b, buf, sizeof buf);
                fprintf(stderr, "auto(p=%llu, hint=%llu) = %s has a phase of radix 1\n",
                        (unsigned long long)p, (unsigned long long)h, buf);
            }
            CHECK(no_radix_one(&b));
        }
    for (uint64_t p = 1; p <= 5000; p += 37) {
        bspram_basis b = bspram_basis_adaptive(p);
        CHECK_EQ_U64(b.p, p);
        CHECK(no_radix_one(&b));
    }
    return check_report("test_combine_strategy");
}
