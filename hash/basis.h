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
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "hash/basis.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
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

/* Set out to the basis (b[0], …, b[m-1]) of p components, with its suffix
 * products, after checking it.
 *
 * @param out     the basis to fill (written only on success); not NULL
 * @param p       the number of components the factors must multiply to
 * @param m       the number of phases, 1 ≤ m ≤ BSPRAM_MAX_PHASES
 * @param b       the m factors b_1..b_m, each ≥ 1; not NULL (even for m = 0)
 * @param err     where to write a one-line reason on failure; NULL for none
 * @param err_len the size of err in bytes (0: no reason); the reason is cut
 *                to err_len − 1 bytes and NUL-terminated, as snprintf does
 * @return        0 on success; −1 on failure, with out untouched and the
 *                reason in err (err is not touched on success)
 * @pre           None.
 * @par Errors
 *     Returned, not fatal (−1 and err): "basis has 0 entries; it needs 1 to
 *     64" (m = 0 or m > 64), "basis entry b_2 is 0; every entry must be >=
 *     1", "basis product overflows 64 bits; it must equal p = 4096", "basis
 *     product is 64; it must equal p = 4096". Fatal, exit status 1: out or b
 *     NULL ("bspram: bspram_basis_make(out=NULL): out must not be NULL").
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread; it touches only out and err.
 */
int bspram_basis_make(bspram_basis *out, uint64_t p, unsigned m, const uint64_t *b,
                      char *err, size_t err_len);

/* Parse a basis written "8x8x8x8" (or "8,8,8,8"; a single "4096" is one
 * phase) and check it as bspram_basis_make does.
 *
 * The factors are decimal numbers without sign or spaces, separated by 'x'
 * or ','.
 *
 * @param out     the basis to fill (written only on success); not NULL
 * @param p       the number of components the factors must multiply to
 * @param text    the basis as text; not NULL
 * @param err     where to write a one-line reason on failure; NULL for none
 * @param err_len the size of err in bytes (0: no reason)
 * @return        0 on success; −1 on failure, with out untouched and the
 *                reason in err
 * @pre           None.
 * @par Errors
 *     Returned, not fatal (−1 and err): "empty basis; write it like
 *     8x8x8x8", "cannot read '8y8' as a basis; write it like 8x8x8x8",
 *     "basis entry in '99999999999999999999x2' is out of range", "basis
 *     '1x1x…' has more than 64 entries", and bspram_basis_make's reasons.
 *     Fatal, exit status 1: out or text NULL ("bspram:
 *     bspram_basis_parse(text=NULL): text must not be NULL").
 * @par BSP cost
 *     None: local, O(length of text).
 * @par Thread safety
 *     Any thread; it touches only out and err.
 */
int bspram_basis_parse(bspram_basis *out, uint64_t p, const char *text,
                       char *err, size_t err_len);

/* Write the basis as "8x8x8x8" into buf, every factor, as snprintf does:
 * buf (if len > 0) always NUL-terminated, holding at most len − 1 bytes.
 *
 * A buffer of BSPRAM_BASIS_TEXT_MAX bytes takes any basis that
 * bspram_basis_make accepts. A basis of m = 0 gives "".
 *
 * @param basis   the basis to write; not NULL
 * @param buf     the buffer; may be NULL when len is 0 (the length only)
 * @param len     the size of buf in bytes
 * @return        the length of the whole text (without the NUL); a value
 *                ≥ len means buf holds a truncated text
 * @pre           None.
 * @par Errors
 *     basis NULL, or buf NULL with len > 0: "bspram:
 *     bspram_basis_format(buf=NULL): buf must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread; it touches only buf.
 */
size_t bspram_basis_format(const bspram_basis *basis, char *buf, size_t len);

/* Fatal variant of bspram_basis_parse for programs that do not want to
 * handle the error: parse text as a basis of p components into out, or end
 * the program.
 *
 * @param out     the basis to fill; not NULL
 * @param p       the number of components the factors must multiply to
 * @param text    the basis as text ("8x8x8x8"); not NULL
 * @pre           None.
 * @par Errors
 *     A basis bspram_basis_parse refuses: one line with its reason,
 *     "bspram: bspram_basis_require(p=4096, basis=8x8): basis product is
 *     64; it must equal p = 4096", exit status 1. out or text NULL:
 *     "bspram: bspram_basis_require(text=NULL): text must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     None: local, O(length of text).
 * @par Thread safety
 *     Any thread; it touches only out (a failure ends the whole process).
 */
void bspram_basis_require(bspram_basis *out, uint64_t p, const char *text);

/* h_i(H) for an owner H ∈ [0, p): the first i mixed-radix digits of H,
 * H div suffix(i).
 *
 * @param basis   a basis made by bspram_basis_make or _parse; not NULL
 *                (unchecked)
 * @param i       the phase, 0 ≤ i ≤ basis->m (unchecked)
 * @param owner   H(t), in [0, p)
 * @return        owner / basis->suffix[i]
 * @pre           basis is valid and i ≤ basis->m; this inline helper
 *                checks neither.
 * @par Errors
 *     None: nothing is checked (a NULL basis or an i past m is undefined
 *     behaviour).
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function of its arguments.
 */
static inline uint64_t bspram_basis_prefix(const bspram_basis *basis, unsigned i, uint64_t owner)
{
    return owner / basis->suffix[i];
}

/* The component that phase i sends to: h_i(t)·suffix(i) + k, k < suffix(i).
 *
 * @param basis   a basis made by bspram_basis_make or _parse; not NULL
 *                (unchecked)
 * @param i       the phase, 0 ≤ i ≤ basis->m (unchecked)
 * @param owner   H(t), in [0, p)
 * @param k       the spreading offset, 0 ≤ k < suffix(i) (unchecked)
 * @return        (owner / basis->suffix[i]) · basis->suffix[i] + k, a
 *                component in [0, p) when the arguments are in range
 * @pre           basis is valid, i ≤ basis->m and k < basis->suffix[i];
 *                this inline helper checks none of them.
 * @par Errors
 *     None: nothing is checked (a NULL basis or an i past m is undefined
 *     behaviour).
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function of its arguments.
 */
static inline uint64_t bspram_basis_target(const bspram_basis *basis, unsigned i,
                                           uint64_t owner, uint64_t k)
{
    return bspram_basis_prefix(basis, i, owner) * basis->suffix[i] + k;
}

BSPRAM_END_DECLS
#endif
