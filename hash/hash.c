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
    case BSPRAM_HASH_XXH3:
        return;
    case BSPRAM_HASH_TABULATION:
        for (uint64_t c = 0; c < 8; c++)
            for (uint64_t x = 0; x < 256; x++)
                h->table[c][x] = bspram_random3(seed, TABULATION_STREAM, c, x);
        return;
    }
    bspram__base_fatal("bspram__hash_init(kind=%d): unknown hash family; valid: %d (xxh3), %d (tabulation)",
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
    if (h->kind == BSPRAM_HASH_XXH3)
        return XXH3_64bits_withSeed(&key, sizeof key, h->seed);
    uint64_t v = 0;
    for (unsigned c = 0; c < 8; c++)
        v ^= h->table[c][(key >> (8 * c)) & 0xff];
    return v;
}
