/* The bspram command: one entry point, a subcommand per job. Each subcommand
 * lives in its own file (tools/cmd_*.c), a bspram_command (options.h), and
 * is listed here. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/number.h"
#include "tools/commands.h"

const bspram_command *const bspram_commands[] = {
    &bspram_cmd_demo, &bspram_cmd_table, &bspram_cmd_coll,  &bspram_cmd_sdp,
    &bspram_cmd_models, &bspram_cmd_pram, &bspram_cmd_probe, &bspram_cmd_prof,
};
const size_t bspram_command_count = sizeof bspram_commands / sizeof bspram_commands[0];

static void usage(FILE *f)
{
    fprintf(f, "usage: bspram <command> [options]   (bspram help <command>: its options)\n"
               "       bspram --version\n\ncommands:\n");
    for (size_t i = 0; i < bspram_command_count; i++)
        fprintf(f, "  %-8s %s\n", bspram_commands[i]->name, bspram_commands[i]->summary);
    fprintf(f, "  %-8s %s\n", "help", "this list, or with a command's name its options");
    fprintf(f, "\nexit status: 0 done, 1 failed, 2 a usage error, 3 a wrong result (man bspram)\n");
}

static const bspram_command *find(const char *name)
{
    for (size_t i = 0; i < bspram_command_count; i++)
        if (!strcmp(name, bspram_commands[i]->name))
            return bspram_commands[i];
    return NULL;
}

/* bspram help [command]: the list, or the command's own --help. */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        usage(stdout);
        return BSPRAM_TOOL_OK;
    }
    const bspram_command *c = find(argv[2]);
    if (!c)
        return bspram_tool_usage("help", "no command '%s' (bspram help lists them)", argv[2]);
    if (argc > 3)
        return bspram_tool_usage("help", "one command at a time ('%s' after '%s')", argv[3], argv[2]);
    bspram_options_help(c, stdout);
    return BSPRAM_TOOL_OK;
}

#ifdef BSPRAM_TOOL_MPI
/* What the MPI build runs: the commands whose work spreads over ranks. */
static int runs_over_mpi(const char *name) { return !strcmp(name, "table"); }
#else
/* Under mpirun (Open MPI or MPICH), the plain command hands over to its MPI
 * build, bspram-mpi, installed beside it: `mpirun -np 4 bspram table ...`. */
static int launched_by_mpi(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

static void hand_over_to_mpi_build(char **argv)
{
    char self[PATH_MAX], path[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = 0;
        snprintf(path, sizeof path, "%s/bspram-mpi", self);
        argv[0] = path;
        execv(path, argv);
    }
    fprintf(stderr, "bspram: started by mpirun, but its MPI build (bspram-mpi, built where CMake "
                    "finds MPI) is not beside it\n");
    exit(1);
}
#endif

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))) {
        printf("bspram %s\n", BSPRAM_VERSION);
        return 0;
    }
#ifdef BSPRAM_TOOL_MPI
    if (argc >= 2 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h") && strcmp(argv[1], "help") &&
        strcmp(argv[1], "--complete") && !runs_over_mpi(argv[1])) {
        bspram_tool_error(argv[1], "not available over MPI; run it without mpirun (over MPI: "
                                   "bspram table)");
        return 2;
    }
#else
    if (launched_by_mpi())
        hand_over_to_mpi_build(argv);
#endif
    /* The bash completion asks here (tools/bspram.bash-completion): a
     * hidden command, so that what it offers is what the parser takes. */
    if (argc >= 2 && !strcmp(argv[1], "--complete"))
        return bspram_complete(argc - 2, argv + 2);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? BSPRAM_TOOL_USAGE : BSPRAM_TOOL_OK;
    }
    if (!strcmp(argv[1], "help"))
        return help(argc, argv);
    const bspram_command *c = find(argv[1]);
    if (c) {
        int rc = c->run(argc - 1, argv + 1);
        /* What the command printed must have reached its file: on a full
         * disk (or /dev/full) one line and a failure, never a quiet 0. */
        int bad = fflush(stdout) != 0, err = errno;
        if (bad || ferror(stdout)) {
            fprintf(stderr, "bspram %s: cannot write the output: %s\n", c->name,
                    strerror(bad ? err : EIO));
            return rc ? rc : BSPRAM_TOOL_FAILED;
        }
        return rc;
    }
    char name[256]; /* quoted on one line, its control characters escaped */
    bspram__base_escape_controls(name, sizeof name, argv[1]);
    fprintf(stderr, "bspram: unknown command '%s' (bspram help lists them)\n", name);
    return BSPRAM_TOOL_USAGE;
}
