/* The saved BSP parameters (params.h): a "key = value" text file. */
#include "bsp/params.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/environment.h"

int bspram_params_path(char *buf, size_t len)
{
    bspram_environment env = bspram_environment_read();
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

int bspram_params_read(bspram_params *out)
{
    char path[4096], line[256], key[64];
    if (bspram_params_path(path, sizeof path) != 0)
        return -1;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    bspram_params p;
    memset(&p, 0, sizeof p);
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        double v;
        if (line[0] == '#' || sscanf(line, " %63[a-z_] = %lf", key, &v) != 2)
            continue;
        if (!strcmp(key, "p")) {
            p.p = (unsigned)v;
            continue;
        }
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            if (!strcmp(key, fields[i].key)) {
                memcpy((char *)&p + fields[i].offset, &v, sizeof v);
                seen |= 1 << i;
            }
    }
    fclose(f);
    if ((seen & 5) != 5) /* g_ns_per_byte and l_ns are required */
        return -1;
    *out = p;
    return 0;
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

/* mkdir -p of the directories leading to path. */
static void make_parents(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(dir, 0755);
            *s = '/';
        }
}

int bspram_params_save(const bspram_params *params)
{
    char path[4096];
    if (bspram_params_path(path, sizeof path) != 0) {
        errno = ENOENT;
        return -1;
    }
    make_parents(path);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# bspram BSP parameters, measured by `bspram probe`\n");
    fprintf(f, "p = %u\n", params->p);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        double v;
        memcpy(&v, (const char *)params + fields[i].offset, sizeof v);
        fprintf(f, "%s = %.6g\n", fields[i].key, v);
    }
    return fclose(f) == 0 ? 0 : -1;
}
