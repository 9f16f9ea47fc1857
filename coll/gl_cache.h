/* The cache of the g and l the collectives measured (gl_cache.c): its
 * lines, where it lives, this machine's key, reading and writing a line.
 * Self-contained — gl_cache.c needs only base/environment, base/input,
 * base/number and base/output — so that `bspram prof`, which prices a
 * trace with these figures where no others are given, compiles it as its
 * own (tests/install/tools.sh). */
#ifndef BSPRAM_COLL_GL_CACHE_H
#define BSPRAM_COLL_GL_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* Under what load a probe measured: the share of the cores that other
 * processes kept busy meanwhile (0 to 1; −1: unknown) and the 1-minute load
 * average (−1: unknown). */
typedef struct coll_gl_load {
    double busy, loadavg;
} coll_gl_load;
/* One line of the cache (gl_cache.c): the figures, the library version that
 * measured them ("": a line of an older format), the load, and when
 * (seconds since 1970). */
typedef struct coll_gl_entry {
    double g, l;
    char version[32];
    coll_gl_load load;
    int64_t when;
} coll_gl_entry;
/* The cache file: its path; this machine's CPU model and cores; P's line —
 * 1 found (*e set), 0 none, −1 unusable (one notice); write P's line (the
 * path written to path): 0, or −1 with errno. */
int bspram__coll_gl_cache_path(char *buf, size_t len);
void bspram__coll_gl_machine(char *model, size_t len, unsigned *cores);
int bspram__coll_gl_cache_read(unsigned p, coll_gl_entry *e);
/* The same without a notice (a reader that does not probe: bspram prof). */
int bspram__coll_gl_cache_peek(unsigned p, coll_gl_entry *e);
int bspram__coll_gl_cache_write(unsigned p, const coll_gl_entry *e, char *path, size_t len);
/* A probe during which other processes kept more than this share of the
 * cores busy measured their load, not the machine: on 2 cores with two busy
 * loops beside it the share is 0.5 to 1, l tens of µs to ms instead of 1 µs.
 * Its figures are not used (gl.c), nor priced with (bspram prof). */
#define BSPRAM__COLL_GL_LOAD_MAX 0.25

#endif
