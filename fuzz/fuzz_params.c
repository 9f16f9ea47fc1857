/* Fuzz the parameter file's parser (bsp/params_internal.h, what
 * bspram_params_read runs on the file's bytes): any bytes give −1 or a set
 * of parameters that bspram_params_read would accept — p in
 * [0 (unset), BSPRAM_PARAMS_MAX_P], every value finite and >= 0 — and no
 * crash, leak or hang. Input: the file's bytes, at most
 * BSPRAM_PARAMS_MAX_BYTES (the reader refuses a larger file unread). */
#include <math.h>

#include "bsp/params_internal.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > BSPRAM_PARAMS_MAX_BYTES)
        return 0;
    /* Exactly n + 1 bytes, as the reader's buffer: a write past it is caught. */
    char *buf = malloc(size + 1);
    if (!buf)
        abort();
    memcpy(buf, data, size);
    bspram_params p;
    memset(&p, 0xAB, sizeof p);
    bspram_params before = p;
    if (bspram__bsp_params_parse("fuzz", buf, size, &p) != 0) {
        FUZZ_CHECK(!memcmp(&p, &before, sizeof p));
    } else {
        FUZZ_CHECK(p.p <= BSPRAM_PARAMS_MAX_P);
        const double v[] = {p.g_ns_per_byte, p.g_ns_per_word,    p.l_ns,         p.flops_per_ns,
                            p.g_flops_per_word, p.l_flops, p.bytes_per_put};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            FUZZ_CHECK(isfinite(v[i]) && v[i] >= 0);
    }
    free(buf);
    return 0;
}
