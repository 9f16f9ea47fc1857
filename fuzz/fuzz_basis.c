/* Fuzz the basis parser (hash/basis.h): bspram_basis_parse either refuses
 * with a reason or gives a basis of 1..BSPRAM_MAX_PHASES entries, each >= 1,
 * whose product is p; formatting it and parsing the text again gives the
 * same basis, and a short buffer gets a prefix of that text.
 *
 * Input: "P:BASIS" (P decimal; without a readable P, p = 4096). */
#include "hash/basis.h"
#include "base/number.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = fuzz_string(data, size);
    uint64_t p = 4096;
    const char *text = in;
    char *colon = strchr(in, ':');
    if (colon) {
        *colon = 0;
        if (bspram__base_parse_u64(in, 1, UINT64_MAX, &p) != 0)
            p = 4096;
        text = colon + 1;
    }
    bspram_basis b;
    char err[256];
    err[0] = 0;
    if (bspram_basis_parse(&b, p, text, err, sizeof err) != 0) {
        FUZZ_CHECK(err[0] != 0 && memchr(err, 0, sizeof err));
        free(in);
        return 0;
    }
    FUZZ_CHECK(b.m >= 1 && b.m <= BSPRAM_MAX_PHASES && b.p == p);
    uint64_t prod = 1;
    for (unsigned i = 1; i <= b.m; i++) {
        FUZZ_CHECK(b.b[i] >= 1);
        FUZZ_CHECK(prod <= UINT64_MAX / b.b[i]);
        prod *= b.b[i];
        FUZZ_CHECK(b.suffix[i - 1] == b.suffix[i] * b.b[i]);
    }
    FUZZ_CHECK(prod == p && b.suffix[0] == p && b.suffix[b.m] == 1);

    char buf[BSPRAM_BASIS_TEXT_MAX];
    size_t n = bspram_basis_format(&b, buf, sizeof buf);
    FUZZ_CHECK(n < sizeof buf && strlen(buf) == n);
    bspram_basis again;
    FUZZ_CHECK(bspram_basis_parse(&again, p, buf, err, sizeof err) == 0);
    FUZZ_CHECK(memcmp(&again, &b, sizeof b) == 0);
    /* Every shorter buffer: the same length reported, a prefix written. */
    for (size_t len = 0; len < n + 1; len++) {
        char small[BSPRAM_BASIS_TEXT_MAX + 1];
        memset(small, 'Z', sizeof small);
        FUZZ_CHECK(bspram_basis_format(&b, small, len) == n);
        if (len) {
            FUZZ_CHECK(strlen(small) == len - 1 && !memcmp(small, buf, len - 1));
        }
        FUZZ_CHECK(small[len] == 'Z');
    }
    free(in);
    return 0;
}
