/* bspram — basis sequences and the owner functions h_1..h_m.
 *
 * Valiant §2, §4: combining runs in m phases given by a basis sequence
 * (b_1, …, b_m) with b_1·b_2⋯b_m = p. Write the p components in mixed radix
 * (b_1, …, b_m). In phase i a request for address t goes to a component whose
 * first i digits are h_i(t); the last m−i digits are a spreading offset k.
 * The functions must have the prefix property: h_i(t) is the first i digits of
 * h_{i+1}(t), so requests that met in phase i stay together afterwards.
 *
 * With one hash H(t) ∈ [0, p), h_i(t) = H(t) div (b_{i+1}⋯b_m) has it exactly,
 * for any mixed radix. Phase i then targets component
 *     h_i(t) · suffix(i) + k,   0 ≤ k < suffix(i) = b_{i+1}⋯b_m,
 * and after phase m (suffix 1) the request is at its owner H(t).
 *
 * Phases are numbered 1..m as in the paper; suffix(0) = p, suffix(m) = 1.
 *
 * NULL: out, b, text and basis are needed; NULL is refused in one line
 * naming the call and the argument ("bspram_basis_parse(text=NULL): text
 * must not be NULL"), exit status 1. The reason err is optional: NULL (or
 * err_len 0) asks for none; bspram_basis_format's buf may be NULL when len is
 * 0, as snprintf's (docs/limits.md).
 */
#ifndef BSPRAM_HASH_BASIS_H
#define BSPRAM_HASH_BASIS_H

#include <stddef.h>
#include <stdint.h>

#include "base/api.h"

BSPRAM_BEGIN_DECLS

#define BSPRAM_MAX_PHASES 64

/* Room for the longest basis bspram_basis_format writes, NUL included. A
 * factor b has 1 + floor(log10 b) digits; the factors multiply to p < 2^64,
 * so their digits beyond the first add up to at most floor(log10 p) ≤ 19.
 * With m ≤ 64 factors and m − 1 'x's: at most 64 + 19 + 63 + 1 = 147 bytes
 * (63 ones and 18446744073709551615, say). */
#define BSPRAM_BASIS_TEXT_MAX (2 * BSPRAM_MAX_PHASES + 20)

typedef struct bspram_basis {
    unsigned m;                              /* number of phases, 1..BSPRAM_MAX_PHASES */
    uint64_t p;                              /* b_1⋯b_m */
    uint64_t b[BSPRAM_MAX_PHASES + 1];       /* b[1..m]; b[0] unused */
    uint64_t suffix[BSPRAM_MAX_PHASES + 1];  /* suffix[i] = b_{i+1}⋯b_m; suffix[0] = p */
} bspram_basis;

/* Set `out` to (b[0], …, b[m-1]) and check it against p.
 * Returns 0, or −1 with a one-line reason in err (if err_len > 0) when m is 0 or
 * above BSPRAM_MAX_PHASES, some b_i is 0, or the product is not p (or overflows). */
int bspram_basis_make(bspram_basis *out, uint64_t p, unsigned m, const uint64_t *b,
                      char *err, size_t err_len);

/* Parse "8x8x8x8" (or "8,8,8,8"; a single "4096" is one phase) and check it as
 * bspram_basis_make does. Returns 0 or −1 with a reason in err. */
int bspram_basis_parse(bspram_basis *out, uint64_t p, const char *text,
                       char *err, size_t err_len);

/* Write the basis as "8x8x8x8" into buf, every factor, as snprintf does:
 * buf (if len > 0) always NUL-terminated, holding at most len − 1 bytes.
 * Returns the length of the whole text; a value ≥ len means buf holds a
 * truncated text. A buffer of BSPRAM_BASIS_TEXT_MAX bytes takes any basis
 * that bspram_basis_make accepts. */
size_t bspram_basis_format(const bspram_basis *basis, char *buf, size_t len);

/* Fatal variant for programs that do not want to handle the error:
 * "bspram_basis_require(p=…, basis=…): <reason>". */
void bspram_basis_require(bspram_basis *out, uint64_t p, const char *text);

/* h_i(H) for an owner H ∈ [0, p): the first i mixed-radix digits of H. */
static inline uint64_t bspram_basis_prefix(const bspram_basis *basis, unsigned i, uint64_t owner)
{
    return owner / basis->suffix[i];
}

/* The component that phase i sends to: h_i(t)·suffix(i) + k, k < suffix(i). */
static inline uint64_t bspram_basis_target(const bspram_basis *basis, unsigned i,
                                           uint64_t owner, uint64_t k)
{
    return bspram_basis_prefix(basis, i, owner) * basis->suffix[i] + k;
}

BSPRAM_END_DECLS
#endif
