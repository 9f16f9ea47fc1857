/* Where a team's threads run (placement.h): the places, from the affinity
 * mask and the CPUs' topology, or from OMP_PLACES; the policy from
 * OMP_PROC_BIND. */
#include "bsp/placement.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/environment.h"
#include "base/error.h"
#include "router/barrier_internal.h" /* bspram__router_cpus: the process's CPUs */

enum { MAX_CPU = CPU_SETSIZE };

/* A number of /sys (a CPU's core or package id), or −1. */
static int sys_id(int cpu, const char *what)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
    FILE *f = fopen(path, "r");
    int v = -1;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* The topology, read once per process (it does not change; the masks do):
 * per CPU, its core's key and its package's. */
static long core_key[MAX_CPU], package_key[MAX_CPU];
static pthread_once_t topology_once = PTHREAD_ONCE_INIT;

static void read_topology(void)
{
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0)
        CPU_ZERO(&mask);
    for (int c = 0; c < MAX_CPU; c++) {
        int p = sys_id(c, "physical_package_id"), k = sys_id(c, "core_id");
        package_key[c] = p < 0 ? 0 : p;
        core_key[c] = (p < 0 || k < 0) ? (long)c + (1L << 40) : (long)p << 20 | k;
        if (p < 0 && k < 0 && c >= 64 && !CPU_ISSET(c, &mask)) {
            for (int d = c + 1; d < MAX_CPU; d++) /* past the machine's CPUs */
                core_key[d] = (long)d + (1L << 40);
            break;
        }
    }
}

/* A key per CPU of the mask naming its core (or package): CPUs with equal
 * keys share it. Without /sys, every CPU is a core of its own. */
static void keys_of(const cpu_set_t *mask, const int *core_of, int package, long *key)
{
    if (!core_of)
        pthread_once(&topology_once, read_topology);
    for (int c = 0; c < MAX_CPU; c++) {
        key[c] = -1;
        if (!CPU_ISSET(c, mask))
            continue;
        if (core_of)
            key[c] = package ? 0 : core_of[c];
        else
            key[c] = package ? package_key[c] : core_key[c];
    }
}

/* One place per key (in order of the keys' first CPUs): cores or sockets. */
static unsigned group(const cpu_set_t *mask, const long *key, cpu_set_t *out)
{
    unsigned n = 0;
    long *seen = malloc(sizeof *seen * MAX_CPU);
    if (!seen)
        return 0;
    for (int c = 0; c < MAX_CPU; c++) {
        if (!CPU_ISSET(c, mask))
            continue;
        unsigned i = 0;
        while (i < n && seen[i] != key[c])
            i++;
        if (i == n) {
            seen[n] = key[c];
            CPU_ZERO(&out[n++]);
        }
        CPU_SET(c, &out[i]);
    }
    free(seen);
    return n;
}

/* Hardware threads, the first of each core before the second of any. */
static unsigned threads_core_first(const cpu_set_t *mask, const long *key, cpu_set_t *out)
{
    cpu_set_t *cores = malloc(sizeof *cores * MAX_CPU);
    if (!cores)
        return 0;
    unsigned nc = group(mask, key, cores), n = 0;
    for (unsigned rank = 0;; rank++) {
        unsigned added = 0;
        for (unsigned i = 0; i < nc; i++) {
            unsigned r = 0;
            for (int c = 0; c < MAX_CPU; c++)
                if (CPU_ISSET(c, &cores[i]) && r++ == rank) {
                    CPU_ZERO(&out[n]);
                    CPU_SET(c, &out[n++]);
                    added++;
                    break;
                }
        }
        if (!added) {
            free(cores);
            return n;
        }
    }
}

/* ---- OMP_PLACES as a list: "{0,1},{2:2}", "{0}:4:2", "{0:2:2}" ---- */

static int number(const char **s, long *v, int sign)
{
    const char *p = *s;
    int neg = 0;
    if (sign && *p == '-')
        neg = 1, p++;
    if (!isdigit((unsigned char)*p))
        return -1;
    long x = 0;
    while (isdigit((unsigned char)*p)) {
        x = x * 10 + (*p++ - '0');
        if (x > 1L << 30)
            return -1;
    }
    *v = neg ? -x : x;
    *s = p;
    return 0;
}

/* "a", "a:len", "a:len:stride" into set. */
static int resources(const char **s, cpu_set_t *set)
{
    for (;;) {
        long a, len = 1, stride = 1;
        if (number(s, &a, 0))
            return -1;
        if (**s == ':') {
            (*s)++;
            if (number(s, &len, 0) || len < 1)
                return -1;
            if (**s == ':') {
                (*s)++;
                if (number(s, &stride, 1))
                    return -1;
            }
        }
        for (long i = 0; i < len; i++) {
            long c = a + i * stride;
            if (c < 0 || c >= MAX_CPU)
                return -1;
            CPU_SET((int)c, set);
        }
        if (**s != ',')
            return 0;
        (*s)++;
    }
}

static unsigned explicit_places(const char *text, cpu_set_t *out)
{
    const char *s = text;
    unsigned n = 0;
    for (;;) {
        while (*s == ' ')
            s++;
        if (*s++ != '{')
            return 0;
        cpu_set_t set;
        CPU_ZERO(&set);
        if (resources(&s, &set) || *s++ != '}')
            return 0;
        long count = 1, stride = 1;
        if (*s == ':') {
            s++;
            if (number(&s, &count, 0) || count < 1)
                return 0;
            if (*s == ':') {
                s++;
                if (number(&s, &stride, 1))
                    return 0;
            }
        }
        for (long k = 0; k < count; k++) {
            if (n == MAX_CPU)
                return 0;
            CPU_ZERO(&out[n]);
            for (int c = 0; c < MAX_CPU; c++)
                if (CPU_ISSET(c, &set)) {
                    long d = c + k * stride;
                    if (d < 0 || d >= MAX_CPU)
                        return 0;
                    CPU_SET((int)d, &out[n]);
                }
            n++;
        }
        while (*s == ' ')
            s++;
        if (!*s)
            return n;
        if (*s++ != ',')
            return 0;
    }
}

/* The places of OMP_PLACES within the mask; 0 for a value OpenMP refuses. */
static unsigned places_of(const char *text, const cpu_set_t *mask, const int *core_of, long *key,
                          cpu_set_t *out)
{
    size_t word = strcspn(text, "(");
    if (!strncasecmp(text, "threads", word) && word == 7)
        return threads_core_first(mask, (keys_of(mask, core_of, 0, key), key), out);
    if (!strncasecmp(text, "cores", word) && word == 5)
        return group(mask, (keys_of(mask, core_of, 0, key), key), out);
    if ((!strncasecmp(text, "sockets", word) && word == 7) ||
        (!strncasecmp(text, "ll_caches", word) && word == 9) ||
        (!strncasecmp(text, "numa_domains", word) && word == 12))
        return group(mask, (keys_of(mask, core_of, 1, key), key), out);
    unsigned n = explicit_places(text, out), kept = 0;
    for (unsigned i = 0; i < n; i++) { /* only the mask's CPUs; empty places dropped */
        CPU_AND(&out[kept], &out[i], mask);
        if (CPU_COUNT(&out[kept]))
            kept++;
    }
    return kept;
}

void bspram__bsp_placement_make_from(bspram_placement *pl, unsigned threads, bool spread,
                                     const char *proc_bind, const char *places,
                                     const cpu_set_t *mask, const int *core_of)
{
    memset(pl, 0, sizeof *pl);
    pl->threads = threads;
    long *key = malloc(sizeof *key * MAX_CPU);
    cpu_set_t *out = malloc(sizeof *out * MAX_CPU);
    if (!out || !key) { /* not bound: placement is an optimisation */
        free(key);
        free(out);
        return;
    }
    unsigned n = 0;
    if (proc_bind || places) { /* OpenMP's rules */
        const size_t w = proc_bind ? strcspn(proc_bind, ",") : 0;
        if (proc_bind && w == 5 && !strncasecmp(proc_bind, "false", 5))
            goto none;
        if (proc_bind && !((w == 4 && !strncasecmp(proc_bind, "true", 4)) ||
                           (w == 5 && !strncasecmp(proc_bind, "close", 5)) ||
                           (w == 6 && !strncasecmp(proc_bind, "spread", 6)) ||
                           (w == 7 && !strncasecmp(proc_bind, "primary", 7)) ||
                           (w == 6 && !strncasecmp(proc_bind, "master", 6))))
            goto none;
        pl->spread = proc_bind && w == 6 && !strncasecmp(proc_bind, "spread", 6);
        n = places_of(places ? places : "cores", mask, core_of, key, out);
    } else if (threads >= 2 && !spread) { /* ours: a place each when the team fits */
        keys_of(mask, core_of, 0, key);
        n = group(mask, key, out);
        if (threads > n)
            n = threads <= (unsigned)CPU_COUNT(mask) ? threads_core_first(mask, key, out) : 0;
    }
    if (!n)
        goto none;
    free(key);
    pl->nplaces = n;
    pl->places = out; /* as many as the mask's CPUs at most: not worth a shrinking realloc */
    return;
none:
    free(key);
    free(out);
    pl->nplaces = 0;
}

void bspram__bsp_placement_make(bspram_placement *pl, unsigned threads, bool spread)
{
    bspram_environment env = bspram__base_environment_read();
    cpu_set_t mask;
    if (!bspram__router_cpus(&mask)) { /* the process's, also from a bound thread */
        memset(pl, 0, sizeof *pl);
        pl->threads = threads;
        return;
    }
    bspram__bsp_placement_make_from(pl, threads, spread, env.omp_proc_bind, env.omp_places, &mask,
                                     NULL);
}

void bspram__bsp_placement_free(bspram_placement *pl)
{
    free(pl->places);
    pl->places = NULL;
    pl->nplaces = 0;
}

const cpu_set_t *bspram__bsp_placement_of(const bspram_placement *pl, unsigned lane)
{
    if (!pl || !pl->nplaces)
        return NULL;
    const unsigned T = pl->threads ? pl->threads : 1, n = pl->nplaces;
    unsigned i;
    if (!pl->spread && T <= n)
        i = lane; /* close: lane i on place i */
    else
        i = (unsigned)((unsigned long long)lane * n / T); /* spread, or several lanes a place */
    return &pl->places[i < n ? i : n - 1];
}
