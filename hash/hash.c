/* Hash families on 64-bit keys: seeded XXH3, and simple tabulation. */
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.h"
#include "hash/hash.h"
#include "hash/random.h"
#include "hash/hash_internal.h"

/* Domain separator so that tabulation tables never coincide with other
 * counter-based draws made from the same seed. */
#define TABULATION_STREAM 0x7461626c65ULL /* "table" */

void bspram__hash_init(bspram_hash *h, bspram_hash_kind kind, uint64_t seed)
{
    BSPRAM_NONNULL(h);
    memset(h, 0, sizeof *h);
    h->kind = kind;
    h->seed = seed;
    switch (kind) {
    case BSPRAM_HASH_XXH3: {
        /* XXH3_len_4to8_64b: the seed with its low half swapped into the
         * high, and the secret's words 8..15 and 16..23. */
        uint64_t s = seed ^ ((uint64_t)XXH_swap32((uint32_t)seed) << 32);
        h->xxh3_flip = (XXH_readLE64(XXH3_kSecret + 8) ^ XXH_readLE64(XXH3_kSecret + 16)) - s;
        for (uint64_t i = 0; i < 4; i++) {
            uint64_t key = bspram_random2(seed, TABULATION_STREAM, i);
            if (bspram__hash_xxh3_8(h, key) != XXH3_64bits_withSeed(&key, sizeof key, seed))
                bspram__base_fatal("internal error: the inline XXH3 of 8-byte keys "
                             "differs from xxhash's XXH3_64bits_withSeed (xxhash %u)",
                             (unsigned)XXH_versionNumber());
        }
        return;
    }
    case BSPRAM_HASH_TABULATION:
        for (uint64_t c = 0; c < 8; c++)
            for (uint64_t x = 0; x < 256; x++)
                h->table[c][x] = bspram_random3(seed, TABULATION_STREAM, c, x);
        return;
    }
    bspram__base_fatal("unknown hash family %d; valid: %d (xxh3), %d (tabulation)",
                 (int)kind, BSPRAM_HASH_XXH3, BSPRAM_HASH_TABULATION);
}

const char *bspram_hash_kind_name(bspram_hash_kind kind)
{
    switch (kind) {
    case BSPRAM_HASH_XXH3: return "xxh3";
    case BSPRAM_HASH_TABULATION: return "tabulation";
    }
    return "unknown";
}

int bspram_hash_kind_parse(const char *name)
{
    BSPRAM_NONNULL(name);
    if (!strcmp(name, "xxh3"))
        return BSPRAM_HASH_XXH3;
    if (!strcmp(name, "tabulation"))
        return BSPRAM_HASH_TABULATION;
    return -1;
}

uint64_t bspram__hash_hash64(const bspram_hash *h, uint64_t key)
{
    BSPRAM_NONNULL(h);
    return bspram__hash_hash64_inline(h, key);
}
