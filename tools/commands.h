/* The bspram command's subcommands: run(argc, argv) with argv[0] the
 * subcommand's name; returns the exit status. */
#ifndef BSPRAM_TOOLS_COMMANDS_H
#define BSPRAM_TOOLS_COMMANDS_H

struct bspram_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
};

int bspram_cmd_demo(int argc, char **argv);
int bspram_cmd_probe(int argc, char **argv);
int bspram_cmd_table(int argc, char **argv);

#endif
