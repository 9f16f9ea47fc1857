/* bspram — the one strict parser for numbers read from text: command-line
 * options, environment variables and the parameter file; and the one way an
 * error line quotes such text. Internal (not installed).
 *
 * strtoull alone is too lenient for input a user typed: it skips leading
 * space, accepts a sign (and negates "-1" into 2^64 - 1), stops at the
 * first bad character ("2x" is 2, "1e3" is 1) and reads "abc" as 0. A value
 * read that way silently becomes a different one, and a huge one can make a
 * program run for ever. These parsers take the whole string or nothing.
 */
#ifndef BSPRAM_BASE_NUMBER_H
#define BSPRAM_BASE_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* A whole number in [min, max]: decimal digits only, the whole string (no
 * space, sign, '+', hex prefix, exponent or trailing character; leading zeros
 * are fine, "007" is 7). Returns 0 and sets *out, or −1 (*out untouched) if
 * the text is not such a number, overflows 64 bits or lies outside the range. */
int bspram__base_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* A finite decimal number in [min, max], the whole string: an optional '-',
 * digits with an optional '.' and an optional exponent (1.5e-3). No leading
 * space, '+', hex, "nan" or "inf"; a value whose magnitude overflows or
 * underflows a double (1e400, 1e-400) is refused. Returns 0 and sets *out,
 * or −1 (*out untouched). */
int bspram__base_parse_double(const char *text, double min, double max, double *out);

/* Text a user gave (an option's value, a file name, a line of a file) as an
 * error line may quote it, so that the line stays one line: src copied to
 * dst with every control character (bytes 0x01–0x1f and 0x7f) written as an
 * escape — \n, \r, \t, else \xHH (so "a\nb" prints as a\nb). Other bytes,
 * UTF-8 included, are kept. dst (len bytes) is always terminated if len ≥ 1;
 * what does not fit is left out, never half an escape; len 0 (dst may be
 * NULL) only measures. Returns the length the whole escaped text needs
 * (without the NUL), as snprintf does; a NULL src is "(null)". */
size_t bspram__base_escape_controls(char *dst, size_t len, const char *src);

#endif
