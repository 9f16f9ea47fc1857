/* The one place the library reads its environment (environment.h). */
#include "base/environment.h"

#include <stdlib.h>
#include <string.h>

/* getenv, with an empty value read as unset: `BSPRAM_TRACE= ./prog` turns
 * tracing off rather than naming a file "". */
static const char *var(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

bspram_environment bspram__base_environment_read(void)
{
    bspram_environment e;
    e.trace = var("BSPRAM_TRACE");
    e.params = var("BSPRAM_PARAMS");
    e.xdg_config_home = var("XDG_CONFIG_HOME");
    e.home = var("HOME");
    e.xdg_cache_home = var("XDG_CACHE_HOME");
    const char *probe = var("BSPRAM_PROBE");
    e.probe_off = probe && !strcmp(probe, "0");
    e.transport = var("BSPRAM_TRANSPORT");
    e.nprocs = var("BSPRAM_NPROCS");
    e.pattern = var("BSPRAM_PATTERN");
    e.mpi_get = var("BSPRAM_MPI_GET");
    /* Empty, these two are refused rather than unset: each names a way,
     * and `BSPRAM_MPI_NODE=$K` with K unset would pick one silently. */
    e.mpi_exchange = getenv("BSPRAM_MPI_EXCHANGE");
    e.mpi_node = getenv("BSPRAM_MPI_NODE");
    e.pram_report = var("BSPRAM_PRAM_REPORT");
    e.pram_html = var("BSPRAM_PRAM_HTML");
    e.wait = var("BSPRAM_WAIT");
    e.omp_proc_bind = var("OMP_PROC_BIND");
    e.omp_places = var("OMP_PLACES");
    e.omp_stacksize = var("OMP_STACKSIZE");
    if (e.pattern && !strcmp(e.pattern, "0"))
        e.pattern = NULL;
    return e;
}
