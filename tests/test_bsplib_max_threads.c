/* A section of more processes than this system can give threads is refused
 * in one line by bsp_begin, before anything is allocated for it: P = 65536
 * (BSPLIB's largest) needs 2·65536 stack and guard mappings, above Linux's
 * default vm.max_map_count of 65530. Where the limit is higher (or cannot be
 * read) the refusal cannot be shown, and the test says so and passes. */
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static bsp_pid_t P;

static void spmd(void)
{
    bsp_begin(P);
    bsp_sync();
    bsp_end();
}

static void begin(void *arg)
{
    P = (bsp_pid_t)(uintptr_t)arg;
    spmd();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    unsigned long long max = 0;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (!f || fscanf(f, "%llu", &max) != 1) {
        printf("test_bsplib_max_threads: vm.max_map_count unreadable; skipped\n");
        if (f)
            fclose(f);
        return 0;
    }
    fclose(f);
    if (2ull * 65536 + 1024 <= max) {
        printf("test_bsplib_max_threads: vm.max_map_count %llu fits P = 65536; skipped\n", max);
        return 0;
    }
    char expect[256];
    snprintf(expect, sizeof expect,
             "bspram: bsp_begin(P=65536): 65536 threads need 132096 memory mappings (a stack and its "
             "guard page each, 1024 kept for the rest), above this system's vm.max_map_count of %llu, "
             "which fits %llu processes; lower P or raise vm.max_map_count\n",
             max, max > 1024 ? (max - 1024) / 2 : 0);
    /* Refused at once: a kernel's OOM kill or a hang would fail the timeout. */
    check_death("P = 65536", begin, (void *)(uintptr_t)65536, expect, 1, 20);
    /* A section that fits still runs. */
    begin((void *)(uintptr_t)4);
    return check_report("test_bsplib_max_threads");
}
