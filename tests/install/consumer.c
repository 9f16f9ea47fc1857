/* A program built against the installed package: pkg-config and CMake. */
#include <bspram.h>
#include <stdbool.h>
#include <stdio.h>

static bool step(bspram_component *c, void *arg)
{
    (void)arg;
    if (bspram_superstep(c) == 1)
        return false;
    uint64_t v = bspram_pid(c);
    bspram_send(c, (v + 1) % bspram_nprocs(c), &v, sizeof v);
    return true;
}

int main(void)
{
    bspram_config cfg = bspram_config_default(16);
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_machine_run(m, step, NULL, 0);
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    int ok = n == 2 && rec[0].messages == 16 && rec[0].charge == 1;
    bspram_machine_destroy(m);
    printf("consumer: %s\n", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
