/* The saved BSP parameters (params.h): a "key = value" text file. */
#include "bsp/params.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/environment.h"
#include "base/error.h"
#include "base/input.h"
#include "base/output.h"
#include "base/number.h"
#include "bsp/params_internal.h"

int bspram_params_path(char *buf, size_t len)
{
    if (len > 0) /* with len 0, NULL is fine: no room, -1 */
        BSPRAM_NONNULL(buf);
    bspram_environment env = bspram__base_environment_read();
    int n;
    if (env.params)
        n = snprintf(buf, len, "%s", env.params);
    else if (env.xdg_config_home)
        n = snprintf(buf, len, "%s/bspram/params", env.xdg_config_home);
    else if (env.home)
        n = snprintf(buf, len, "%s/.config/bspram/params", env.home);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

static const struct {
    const char *key;
    size_t offset;
} fields[] = {
    {"g_ns_per_byte", offsetof(bspram_params, g_ns_per_byte)},
    {"g_ns_per_word", offsetof(bspram_params, g_ns_per_word)},
    {"l_ns", offsetof(bspram_params, l_ns)},
    {"flops_per_ns", offsetof(bspram_params, flops_per_ns)},
    {"g_flops_per_word", offsetof(bspram_params, g_flops_per_word)},
    {"l_flops", offsetof(bspram_params, l_flops)},
    {"bytes_per_put", offsetof(bspram_params, bytes_per_put)},
};

/* The file is read by every program that loads the parameters, so whatever
 * lies at the path must not hang or crash it: only a regular file (a FIFO or
 * a device such as /dev/zero would block or never end), of at most
 * BSPRAM_PARAMS_MAX_BYTES (the probe writes ~250 bytes). */

/* One warning line, then −1: the caller falls back to its defaults. The
 * path and the file's text it quotes have their control characters escaped
 * (base/number.h), so the warning stays one line. */
static int warn(const char *path, const char *problem, const char *detail)
{
    char p[512], d[256];
    bspram__base_escape_controls(p, sizeof p, path);
    bspram__base_escape_controls(d, sizeof d, detail);
    fprintf(stderr, "bspram: parameter file %s: %s%s; ignored (run bspram probe to rewrite it)\n", p,
            problem, d);
    return -1;
}

/* A value the file may hold: finite and ≥ 0 (the parser refuses nan, inf and
 * what overflows a double); p a whole number in [1, BSPRAM_PARAMS_MAX_P]. */
static int valid_double(double v) { return isfinite(v) && v >= 0; }

/* Parse one line (len bytes, no '\n'): 0 if it is blank, a comment, a valid
 * setting (stored in *p, its bit set in *seen: field i's bit i, p's SEEN_P)
 * or an unknown key (ignored: newer probes may write more); −1 after a
 * warning otherwise — also for a known key set a second time. */
enum { SEEN_P = 1 << 8 };
static int parse_line(const char *path, char *line, size_t len, bspram_params *p, int *seen)
{
    if (memchr(line, 0, len))
        return warn(path, "a line holds a NUL byte", "");
    line[len] = 0;
    if (len && line[len - 1] == '\r')
        line[--len] = 0;
    char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s || *s == '#')
        return 0;
    char *key = s;
    while ((*s >= 'a' && *s <= 'z') || *s == '_')
        s++;
    char *key_end = s;
    while (*s == ' ' || *s == '\t')
        s++;
    if (key_end == key || *s != '=')
        return warn(path, "a line is not \"key = value\": ", key);
    *key_end = 0;
    s++;
    while (*s == ' ' || *s == '\t')
        s++;
    char *value = s, *end = line + len;
    while (end > value && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    *end = 0;
    if (!strcmp(key, "p")) {
        uint64_t x;
        if (*seen & SEEN_P)
            return warn(path, "p is set twice", "");
        if (bspram__base_parse_u64(value, 1, BSPRAM_PARAMS_MAX_P, &x) != 0)
            return warn(path, "p must be a whole number in [1, 65536], not ", value);
        p->p = (unsigned)x;
        *seen |= SEEN_P;
        return 0;
    }
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!strcmp(key, fields[i].key)) {
            double v;
            if (*seen & 1 << i) /* which one would hold? neither: say so */
                return warn(path, key, " is set twice");
            if (bspram__base_parse_double(value, 0, DBL_MAX, &v) != 0) {
                char what[96];
                snprintf(what, sizeof what, "%s must be a finite number >= 0, not ", key);
                return warn(path, what, value);
            }
            memcpy((char *)p + fields[i].offset, &v, sizeof v);
            *seen |= 1 << i;
            return 0;
        }
    return 0;
}

int bspram__bsp_params_parse(const char *path, char *buf, size_t n, bspram_params *out)
{
    /* Whole lines, however long: a long comment is one comment. */
    bspram_params p;
    memset(&p, 0, sizeof p);
    int seen = 0;
    for (size_t at = 0; at < n;) {
        char *nl = memchr(buf + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (buf + at)) : n - at;
        if (parse_line(path, buf + at, len, &p, &seen) != 0)
            return -1;
        at += len + 1;
    }
    if ((seen & 5) != 5) /* g_ns_per_byte and l_ns are required */
        return warn(path, "lacks g_ns_per_byte or l_ns", "");
    *out = p;
    return 0;
}

int bspram_params_read(bspram_params *out)
{
    BSPRAM_NONNULL(out);
    char path[4096], why[160];
    if (bspram_params_path(path, sizeof path) != 0)
        return -1;
    bspram_input in;
    if (bspram__base_input_open(&in, path, BSPRAM_PARAMS_MAX_BYTES) != 0) {
        if (in.status == BSPRAM_INPUT_OPEN && (in.err == ENOENT || in.err == ENOTDIR))
            return -1; /* no probe ran: no warning */
        return warn(path, bspram__base_input_problem(&in, why, sizeof why), "");
    }
    /* Room for one byte more than the limit (a file that grew since the
     * open is caught) and the parser's terminating NUL. */
    char *buf = malloc(BSPRAM_PARAMS_MAX_BYTES + 2);
    if (!buf) {
        bspram__base_input_close(&in);
        return warn(path, "out of memory", "");
    }
    size_t n = 0;
    for (ssize_t r; (r = bspram__base_input_read(&in, buf + n, BSPRAM_PARAMS_MAX_BYTES + 1 - n)) != 0;) {
        if (r < 0) {
            free(buf);
            bspram__base_input_close(&in);
            return warn(path, bspram__base_input_problem(&in, why, sizeof why), "");
        }
        n += (size_t)r;
    }
    bspram__base_input_close(&in);
    int rc = bspram__bsp_params_parse(path, buf, n, out);
    free(buf);
    return rc;
}

int bspram_params_load(double *g_ns_per_byte, double *l_ns)
{
    bspram_params p;
    if (bspram_params_read(&p) != 0)
        return -1;
    if (g_ns_per_byte)
        *g_ns_per_byte = p.g_ns_per_byte;
    if (l_ns)
        *l_ns = p.l_ns;
    return 0;
}

int bspram_params_save(const bspram_params *params)
{
    BSPRAM_NONNULL(params);
    /* Never write what bspram_params_read would refuse. */
    if (params->p < 1 || params->p > BSPRAM_PARAMS_MAX_P) {
        errno = EINVAL;
        return -1;
    }
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        double v;
        memcpy(&v, (const char *)params + fields[i].offset, sizeof v);
        if (!valid_double(v)) {
            errno = EINVAL;
            return -1;
        }
    }
    char path[4096];
    if (bspram_params_path(path, sizeof path) != 0) {
        errno = ENOENT;
        return -1;
    }
    bspram__base_make_parents(path);
    /* Never block, whatever lies at the path, and write a regular file
     * only: anything else is refused (EINVAL) before a byte is written,
     * a FIFO without a reader with ENXIO (O_NONBLOCK: at once). */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        int fd = S_ISFIFO(st.st_mode) ? open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) : -2;
        int err = fd == -1 ? errno : EINVAL;
        if (fd >= 0)
            close(fd);
        errno = err;
        return -1;
    }
    /* A new file renamed over the old once whole (base/output.h): a reader
     * finds the old set or the new one, never a set cut short. */
    bspram_output out;
    if (bspram__base_output_open(&out, path) != 0)
        return -1;
    FILE *f = out.f;
    fprintf(f, "# bspram BSP parameters, measured by `bspram probe`\n");
    fprintf(f, "p = %u\n", params->p);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        double v;
        memcpy(&v, (const char *)params + fields[i].offset, sizeof v);
        fprintf(f, "%s = %.6g\n", fields[i].key, v);
    }
    return bspram__base_output_close(&out);
}
