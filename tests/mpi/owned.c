/* What a rank holds over MPI (docs/mpi.md, "What a rank holds"): a host that
 * reaches for another rank's cell or component state is refused in one line
 * naming the owner; the explicit gathers give every rank everything.
 * usage: owned <case>, case one of
 *   gather  every rank reads every cell through bspram_gather_cells and every
 *           component's state through bspram_machine_gather_local (exit 0)
 *   load    bspram_load of a cell another rank holds
 *   local   bspram_machine_local of another rank's component after a run
 *   rehash  bspram_space_rehash with a held cell that is not 0 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <bsp/machine.h>
#include <combine/combine.h>
#include <hash/address_space.h>

enum { P = 8, CELLS = 64 };

static bool add_pid(bspram_component *self, void *arg)
{
    (void)arg;
    *(uint64_t *)bspram_local(self) = 100 + bspram_pid(self);
    return false;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    bspram_config mc = bspram_config_default(P);
    mc.local_bytes = sizeof(uint64_t);
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(P, BSPRAM_HASH_XXH3, 5);
    uint32_t seg = bspram_segment_alloc(s, CELLS, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(P);
    bspram_combiner *c = bspram_combiner_create(m, s, &o);
    /* Every cell i := i + 1, each by the rank that holds it. */
    for (uint64_t i = 0; i < CELLS; i++)
        if (bspram_holds(s, bspram_address(s, seg, i)))
            bspram_store(s, bspram_address(s, seg, i), i + 1);
    bspram_machine_run(m, add_pid, NULL, 1);
    uint64_t first, end, other = UINT64_MAX;
    bspram_machine_owned(m, &first, &end);
    for (uint64_t i = 0; i < CELLS && other == UINT64_MAX; i++)
        if (!bspram_holds(s, bspram_address(s, seg, i)))
            other = i;
    int bad = 0;
    if (!strcmp(which, "gather")) {
        uint64_t v[CELLS];
        bspram_gather_cells(c, bspram_address(s, seg, 0), CELLS, v);
        for (uint64_t i = 0; i < CELLS; i++)
            bad += v[i] != i + 1;
        bspram_machine_gather_local(m);
        for (uint64_t pid = 0; pid < P; pid++)
            bad += *(uint64_t *)bspram_machine_local(m, pid) != 100 + pid;
        printf("owned: rank %u holds components [%" PRIu64 ", %" PRIu64 "); gathered %s\n", bspram_rank(),
               first, end, bad ? "WRONG" : "right");
    } else if (!strcmp(which, "load") && other != UINT64_MAX) {
        bspram_load(s, bspram_address(s, seg, other));
    } else if (!strcmp(which, "local")) {
        bspram_machine_local(m, first == 0 ? P - 1 : 0);
    } else if (!strcmp(which, "rehash")) {
        bspram_space_rehash(s, 6);
    }
    bspram_combiner_destroy(c);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
    return bad != 0 || strcmp(which, "gather") != 0;
}
