/* BSPlib over MPI (libbspram-mpi only): the job's ranks, and the
 * announcements by which rank 0 starts sections on the others
 * (bsplib_internal.h, bsplib_spread_hooks; bsplib_spmd.c, serve).
 *
 * Rank 0 runs the program; the other ranks wait in MPI_Bcast from their
 * first bsp_init or bsp_begin on. Each section begins with one broadcast of
 * its P and of what its processes run (main, or bsp_init's function at
 * that moment); the program's end is a broadcast of P = 0, at rank 0's exit. A rank that
 * dies ends the job through the MPI runtime (mpirun), a fatal error through
 * MPI_Abort (router/mpi_transport.c).
 */
#include <link.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/error.h"
#include "bsp/bsplib_internal.h"
#include "router/mpi.h"
#include "router/router.h"

/* A section's announcement: its P, and what its processes run from the
 * start. A function's address differs from rank to rank (each process maps
 * the program and its libraries where address-space randomisation puts
 * them), so the SPMD function travels as the place of its loaded object in
 * the link map — the same on every rank, which runs the same program — and
 * its offset there. MAIN_ENTRY: main, for a section begun by bsp_begin in
 * main (bsp.h, shape (b)); bsp_init's function otherwise. Without it, a rank
 * that began serving at a bsp_begin in main would run main again for a
 * later section begun through bsp_init's function. */
#define MAIN_ENTRY UINT64_MAX
typedef struct announcement {
    uint64_t p, object, offset;
} announcement;

typedef struct entry_search {
    uintptr_t address; /* encode: the function; decode: the result */
    uint64_t object, offset, seen;
    int found;
} entry_search;

static int object_holding(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    entry_search *e = arg;
    uint64_t index = e->seen++;
    for (unsigned i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && e->address - lo < ph->p_memsz) {
            e->object = index;
            e->offset = e->address - info->dlpi_addr;
            return e->found = 1;
        }
    }
    return 0;
}

static int object_at(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    entry_search *e = arg;
    if (e->seen++ != e->object)
        return 0;
    e->address = info->dlpi_addr + (uintptr_t)e->offset;
    return e->found = 1;
}

static announcement encode(unsigned P, void (*spmd)(void))
{
    announcement a = {P, MAIN_ENTRY, 0};
    if (!spmd)
        return a;
    entry_search e = {.address = (uintptr_t)spmd};
    dl_iterate_phdr(object_holding, &e);
    if (!e.found)
        bspram__base_fatal("bsp_begin(P=%u): the SPMD function %p lies in no loaded object; over MPI "
                     "it must be a function of the program or of a library it loads",
                     P, (void *)(uintptr_t)spmd);
    a.object = e.object;
    a.offset = e.offset;
    return a;
}

static void (*decode(const announcement *a))(void)
{
    if (a->object == MAIN_ENTRY)
        return NULL;
    entry_search e = {.object = a->object, .offset = a->offset};
    dl_iterate_phdr(object_at, &e);
    if (!e.found)
        bspram__base_fatal("bsp_begin(P=%llu): rank 0's SPMD function lies in loaded object %llu, which "
                     "this rank does not have; every rank must run the same program",
                     (unsigned long long)a->p, (unsigned long long)a->object);
    return (void (*)(void))e.address;
}

static void broadcast(announcement *a)
{
    int err = MPI_Bcast(a, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (err != MPI_SUCCESS)
        bspram__base_fatal("bsp_begin: MPI_Bcast of the section's P failed (error %d)", err);
}

static void announce_end(void)
{
    announcement end = {0, MAIN_ENTRY, 0};
    broadcast(&end);
}

static void announce(unsigned P, void (*spmd)(void))
{
    static int serving;
    if (P == BSPLIB_ANNOUNCE_SERVE) {
        if (!serving++) /* after MPI's own exit handler, so it runs before it */
            atexit(announce_end);
        return;
    }
    announcement a = encode(P, spmd);
    broadcast(&a);
}

static unsigned await(void (**spmd)(void))
{
    announcement a = {0, MAIN_ENTRY, 0};
    broadcast(&a);
    *spmd = decode(&a);
    return (unsigned)a.p;
}

__attribute__((constructor)) static void install(void)
{
    bspram__bsp_bsplib_spread = (bsplib_spread_hooks){bspram__router_mpi_size, bspram__router_mpi_rank, announce, await};
}
