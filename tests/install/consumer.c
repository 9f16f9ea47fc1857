/* A program built against the installed package: pkg-config and CMake. It
 * runs the machine API (the engine's: BSPRAM_ENGINE_API), and a BSPlib
 * section with the shared-memory extension found as <bsp_shm.h> beside
 * <bsp.h>. */
#define BSPRAM_ENGINE_API
#include <bspram.h>
#include <bsp.h>
#include <bsp_shm.h>
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

static uint64_t shm_total;

static void spmd(void)
{
    bsp_begin(4);
    bsp_shm_t cell = bsp_shm_alloc(1, 8, BSP_SHM_HASHED);
    bsp_sync();
    uint64_t one = 1;
    bsp_shm_reduce(cell, 0, bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64), &one);
    bsp_sync();
    uint64_t total = 0;
    bsp_shm_read(cell, 0, &total);
    bsp_sync();
    if (bsp_pid() == 0)
        shm_total = total;
    bsp_end();
}

int main(int argc, char **argv)
{
    bspram_config cfg = bspram_config_default(16);
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_machine_run(m, step, NULL, 0);
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    int ok = n == 2 && rec[0].messages == 16 && rec[0].charge == 1;
    bspram_machine_destroy(m);
    bsp_init(spmd, argc, argv);
    spmd();
    ok &= shm_total == 4;
    printf("consumer: %s\n", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
