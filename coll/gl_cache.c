/* The cache of the g and l the collectives measured (gl_probe.c), one line
 * per machine and P, so that a machine is probed once, not once per
 * program: $XDG_CACHE_HOME/bspram/params, else ~/.cache/bspram/params
 * (base/environment.h). A line is
 *     CPU model <TAB> cores <TAB> P <TAB> g (ns per byte) <TAB> l (ns)
 *     <TAB> library version <TAB> load <TAB> load average <TAB> time
 * — the machine's key is what decides g and l on it: which CPU, how many
 * cores, how many threads share them (P; an oversubscribed sync costs more);
 * then what says whether the figures may be used (gl.c): the version of the
 * library that measured them, the share of the cores other processes kept
 * busy meanwhile (0 to 1; −1: unknown), the 1-minute load average then
 * (−1: unknown) and when (seconds since 1970). A line of the first five
 * fields alone, as versions before the load was kept wrote them, is a line
 * of an unknown version: measured again and replaced, without a notice.
 * '#' starts a comment line.
 *
 * A cache is disposable: a file that is not one (a line that does not
 * parse, a value that is not a finite number ≥ 0, something that is not a
 * regular file of at most 64 KiB) is ignored with one notice on stderr and
 * replaced when the probe writes its line. Writes go to a temporary file
 * renamed over the cache, so two programs probing at once leave one of
 * their files whole, never a mixture. */
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/environment.h"
#include "base/input.h"
#include "base/output.h"
#include "base/number.h"
#include "coll/gl_cache.h"

#define CACHE_MAX_BYTES 65536
enum { OLD_FIELDS = 5, FIELDS = 9 };

int bspram__coll_gl_cache_path(char *buf, size_t len)
{
    bspram_environment env = bspram__base_environment_read();
    int n;
    if (env.xdg_cache_home)
        n = snprintf(buf, len, "%s/bspram/params", env.xdg_cache_home);
    else if (env.home)
        n = snprintf(buf, len, "%s/.cache/bspram/params", env.home);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

void bspram__coll_gl_machine(char *model, size_t len, unsigned *cores)
{
    snprintf(model, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r"); /* Linux; elsewhere the model is "unknown" */
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
                const char *v = strchr(line, ':') + 1;
                while (*v == ' ' || *v == '\t')
                    v++;
                snprintf(model, len, "%.*s", (int)strcspn(v, "\n"), v);
                break;
            }
        fclose(f);
    }
    for (char *s = model; *s; s++) /* the key is one field */
        if (*s == '\t' || (unsigned char)*s < 32)
            *s = ' ';
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    *cores = n > 0 ? (unsigned)n : 1;
}

/* One notice, then −1: the caller probes again and rewrites the file. */
static int notice(const char *path, const char *problem, unsigned line, int loud)
{
    char p[512];
    if (!loud)
        return -1;
    bspram__base_escape_controls(p, sizeof p, path);
    if (line)
        fprintf(stderr, "bspram: cache file %s: line %u %s; ignored (measuring again and "
                        "replacing it)\n", p, line, problem);
    else
        fprintf(stderr, "bspram: cache file %s: %s; ignored (measuring again and replacing it)\n",
                p, problem);
    return -1;
}

/* The file's bytes (NUL-terminated, malloc'd) in *text: 1, 0 if there is no
 * file, −1 after a notice. */
static int slurp(const char *path, char **text, size_t *n, int loud)
{
    bspram_input in;
    char why[160];
    if (bspram__base_input_open(&in, path, CACHE_MAX_BYTES) != 0) {
        if (in.status == BSPRAM_INPUT_OPEN && (in.err == ENOENT || in.err == ENOTDIR))
            return 0;
        return notice(path, bspram__base_input_problem(&in, why, sizeof why), 0, loud);
    }
    char *buf = malloc(CACHE_MAX_BYTES + 2);
    size_t got = 0;
    for (ssize_t r; buf && (r = bspram__base_input_read(&in, buf + got, CACHE_MAX_BYTES + 1 - got)) != 0;) {
        if (r < 0) {
            free(buf);
            bspram__base_input_close(&in);
            return notice(path, bspram__base_input_problem(&in, why, sizeof why), 0, loud);
        }
        got += (size_t)r;
    }
    bspram__base_input_close(&in);
    if (!buf)
        return notice(path, "out of memory", 0, loud);
    if (memchr(buf, 0, got)) {
        free(buf);
        return notice(path, "holds a NUL byte", 0, loud);
    }
    buf[got] = 0;
    *text = buf;
    *n = got;
    return 1;
}

/* Split one line (NUL-terminated, no '\n') into its fields (5 or 9): 0, or −1. */
typedef struct cache_line {
    const char *model;
    unsigned cores, p;
    coll_gl_entry e;
} cache_line;

static int parse(char *line, cache_line *out)
{
    char *f[FIELDS] = {0};
    int n = 0;
    for (;;) {
        f[n++] = line;
        char *tab = strchr(line, '\t');
        if (!tab)
            break;
        if (n == FIELDS)
            return -1;
        *tab = 0;
        line = tab + 1;
    }
    if (n != OLD_FIELDS && n != FIELDS)
        return -1;
    uint64_t cores, p, when = 0;
    coll_gl_entry *e = &out->e;
    memset(e, 0, sizeof *e);
    if (!*f[0] || bspram__base_parse_u64(f[1], 1, UINT32_MAX, &cores) != 0 ||
        bspram__base_parse_u64(f[2], 1, 65536, &p) != 0 ||
        bspram__base_parse_double(f[3], 0, DBL_MAX, &e->g) != 0 ||
        bspram__base_parse_double(f[4], 0, DBL_MAX, &e->l) != 0)
        return -1;
    if (n == FIELDS) {
        size_t vlen = strlen(f[5]);
        if (!vlen || vlen >= sizeof e->version ||
            (bspram__base_parse_double(f[6], -1, 1, &e->load.busy) != 0 ||
             (e->load.busy < 0 && e->load.busy != -1)) ||
            (bspram__base_parse_double(f[7], -1, DBL_MAX, &e->load.loadavg) != 0 ||
             (e->load.loadavg < 0 && e->load.loadavg != -1)) ||
            bspram__base_parse_u64(f[8], 0, INT64_MAX, &when) != 0)
            return -1;
        memcpy(e->version, f[5], vlen + 1);
        e->when = (int64_t)when;
    } /* else: an older version's line, e->version "" */
    out->model = f[0];
    out->cores = (unsigned)cores;
    out->p = (unsigned)p;
    return 0;
}

/* Walk the file's lines: each valid line to visit(), which may stop the
 * walk by returning nonzero. −1 after a notice if a line is not valid. */
static int walk(const char *path, char *text, size_t n, int loud,
                int (*visit)(const cache_line *, const char *raw, size_t rawlen, void *), void *arg)
{
    unsigned number = 0;
    for (size_t at = 0; at < n;) {
        char *nl = memchr(text + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (text + at)) : n - at;
        char line[1024];
        number++;
        if (len >= sizeof line)
            return notice(path, "is too long for a cache line", number, loud);
        memcpy(line, text + at, len);
        line[len] = 0;
        if (len && line[0] != '#') {
            cache_line c;
            if (parse(line, &c) != 0)
                return notice(path, "is not \"CPU model<TAB>cores<TAB>P<TAB>g<TAB>l<TAB>version"
                                    "<TAB>load<TAB>load average<TAB>time\" with whole numbers, "
                                    "finite numbers >= 0 and a load in [0, 1] or -1", number, loud);
            if (visit(&c, text + at, len, arg))
                return 0;
        }
        at += len + 1;
    }
    return 0;
}

typedef struct lookup {
    const char *model;
    unsigned cores, p;
    int found;
    coll_gl_entry e;
} lookup;

static int find(const cache_line *c, const char *raw, size_t rawlen, void *arg)
{
    (void)raw, (void)rawlen;
    lookup *k = arg;
    if (c->p == k->p && c->cores == k->cores && !strcmp(c->model, k->model)) {
        k->found = 1;
        k->e = c->e;
        return 1;
    }
    return 0;
}

static int cache_read(unsigned p, coll_gl_entry *e, int loud)
{
    char path[4096], model[256];
    if (bspram__coll_gl_cache_path(path, sizeof path) != 0)
        return 0;
    lookup k = {.model = model, .p = p};
    bspram__coll_gl_machine(model, sizeof model, &k.cores);
    char *text = NULL;
    size_t n = 0;
    int rc = slurp(path, &text, &n, loud);
    if (rc <= 0)
        return rc;
    rc = walk(path, text, n, loud, find, &k);
    free(text);
    if (rc != 0)
        return -1;
    if (k.found)
        *e = k.e;
    return k.found;
}

int bspram__coll_gl_cache_read(unsigned p, coll_gl_entry *e) { return cache_read(p, e, 1); }

int bspram__coll_gl_cache_peek(unsigned p, coll_gl_entry *e) { return cache_read(p, e, 0); }

/* The lines to keep when P's line is rewritten: every other valid one. */
typedef struct keep {
    const lookup *key;
    FILE *out;
} keep;

static int copy_other(const cache_line *c, const char *raw, size_t rawlen, void *arg)
{
    keep *k = arg;
    if (!(c->p == k->key->p && c->cores == k->key->cores && !strcmp(c->model, k->key->model)))
        fprintf(k->out, "%.*s\n", (int)rawlen, raw);
    return 0;
}

static int any(const cache_line *c, const char *raw, size_t rawlen, void *arg)
{
    (void)c, (void)raw, (void)rawlen, (void)arg;
    return 0;
}

int bspram__coll_gl_cache_write(unsigned p, const coll_gl_entry *e, char *path, size_t len)
{
    char model[256];
    if (bspram__coll_gl_cache_path(path, len) != 0) {
        errno = ENOENT;
        return -1;
    }
    lookup k = {.model = model, .p = p};
    bspram__coll_gl_machine(model, sizeof model, &k.cores);
    bspram__base_make_parents(path);
    bspram_output out; /* the cache is replaced whole (base/output.h) */
    if (bspram__base_output_open(&out, path) != 0)
        return -1;
    FILE *f = out.f;
    fprintf(f, "# bspram: g and l measured by the collectives (docs/collectives.md), one line per\n"
               "# machine: CPU model, cores, P, g (ns per byte), l (ns), the library's version,\n"
               "# the share of the cores other work kept busy meanwhile (-1: unknown), the\n"
               "# 1-minute load average (-1: unknown), when (seconds since 1970); tab-separated\n");
    char *text = NULL;
    size_t n = 0;
    if (slurp(path, &text, &n, 0) > 0) { /* other machines' lines stay; a bad file is replaced */
        keep kp = {&k, f};
        if (walk(path, text, n, 0, any, NULL) == 0) /* all valid: copy the others */
            walk(path, text, n, 0, copy_other, &kp);
        free(text);
    }
    fprintf(f, "%s\t%u\t%u\t%.6g\t%.6g\t%s\t%.3g\t%.3g\t%lld\n", model, k.cores, p, e->g, e->l,
            e->version, e->load.busy, e->load.loadavg, (long long)e->when);
    return bspram__base_output_close(&out);
}
