/* The environment, read in one place: bspram__base_environment_read (empty means
 * unset), where the parameter file is looked for, and a bspram_config_default
 * that reads nothing — the probe's g and l come only from
 * bspram_params_load. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bspram.h"
#include "check.h"
#include "base/environment.h"

static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

int main(void)
{
    int pid = (int)getpid();

    /* Every variable of the list, set, empty and unset. */
    setenv("BSPRAM_TRACE", "t.csv", 1);
    setenv("BSPRAM_PARAMS", "/x/params", 1);
    setenv("XDG_CONFIG_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    setenv("BSPRAM_TRANSPORT", "staged", 1);
    setenv("BSPRAM_PRAM_REPORT", "r.jsonl", 1);
    setenv("BSPRAM_PRAM_HTML", "", 1);
    bspram_environment e = bspram__base_environment_read();
    CHECK(same(e.pram_report, "r.jsonl"));
    CHECK(e.pram_html == NULL);
    unsetenv("BSPRAM_PRAM_REPORT");
    unsetenv("BSPRAM_PRAM_HTML");
    CHECK(same(e.trace, "t.csv"));
    CHECK(same(e.params, "/x/params"));
    CHECK(same(e.xdg_config_home, "/xdg"));
    CHECK(same(e.home, "/home/u"));
    CHECK(same(e.transport, "staged"));
    setenv("BSPRAM_TRACE", "", 1);
    unsetenv("BSPRAM_TRANSPORT");
    e = bspram__base_environment_read(); /* not cached: sees the change */
    CHECK(e.trace == NULL);
    CHECK(e.transport == NULL);
    unsetenv("BSPRAM_TRACE");
    /* But BSPRAM_MPI_EXCHANGE and BSPRAM_MPI_NODE, which name a way and
     * refuse any other value, empty too (docs/environment.md): kept as "",
     * for the MPI transport to refuse; unset, NULL. */
    setenv("BSPRAM_MPI_EXCHANGE", "", 1);
    setenv("BSPRAM_MPI_NODE", "", 1);
    e = bspram__base_environment_read();
    CHECK(same(e.mpi_exchange, "") && same(e.mpi_node, ""));
    unsetenv("BSPRAM_MPI_EXCHANGE");
    unsetenv("BSPRAM_MPI_NODE");
    e = bspram__base_environment_read();
    CHECK(e.mpi_exchange == NULL && e.mpi_node == NULL);

    /* The parameter file: BSPRAM_PARAMS, else XDG_CONFIG_HOME, else HOME. */
    char path[256];
    CHECK(bspram_params_path(path, sizeof path) == 0 && !strcmp(path, "/x/params"));
    unsetenv("BSPRAM_PARAMS");
    CHECK(bspram_params_path(path, sizeof path) == 0 && !strcmp(path, "/xdg/bspram/params"));
    setenv("XDG_CONFIG_HOME", "", 1);
    CHECK(bspram_params_path(path, sizeof path) == 0 &&
          !strcmp(path, "/home/u/.config/bspram/params"));
    unsetenv("XDG_CONFIG_HOME");
    unsetenv("HOME");
    CHECK(bspram_params_path(path, sizeof path) == -1);
    CHECK(bspram_params_load(NULL, NULL) == -1);

    /* A probe's file in place: the default config ignores it … */
    char params[64];
    snprintf(params, sizeof params, "/tmp/bspram-test-params-%d", pid);
    setenv("BSPRAM_PARAMS", params, 1);
    bspram_params saved;
    memset(&saved, 0, sizeof saved);
    saved.p = 2;
    saved.g_ns_per_byte = 5;
    saved.l_ns = 700;
    CHECK(bspram_params_save(&saved) == 0);
    bspram_config cfg = bspram_config_default(4);
    CHECK_EQ_U64(cfg.p, 4);
    CHECK(cfg.threads == omp_get_max_threads());
    CHECK(cfg.g == 1 && cfg.l == 1);
    CHECK_EQ_U64(cfg.seed, 0);
    CHECK_EQ_U64(cfg.local_bytes, 0);

    /* … and a program that wants the figures loads them. */
    CHECK(bspram_params_load(&cfg.g, &cfg.l) == 0);
    CHECK(cfg.g == 5 && cfg.l == 700);
    remove(params);
    cfg = bspram_config_default(4);
    CHECK(bspram_params_load(&cfg.g, &cfg.l) == -1); /* no file: left at 1, 1 */
    CHECK(cfg.g == 1 && cfg.l == 1);
    unsetenv("BSPRAM_PARAMS");
    return check_report("test_environment");
}
