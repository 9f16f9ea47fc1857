/* The bspram command's pictures: SVG files drawn by gnuplot (Debian's
 * gnuplot-nox), for `bspram table --plot` and `bspram prof --output`. */
#ifndef BSPRAM_TOOLS_GNUPLOT_H
#define BSPRAM_TOOLS_GNUPLOT_H

#include <stdio.h>

/* Before the work, what would make the picture fail after it: gnuplot not
 * on PATH, an output path in no writable directory, a directory, or a
 * terminal (never an SVG on the screen). Returns 0, or 1 after one line,
 * "bspram <command>: <option> <path>: …"; with end_job that line ends every
 * process of the job instead (over MPI, where the other ranks would wait
 * for this one in the work). */
int bspram_tool_gnuplot_check(const char *command, const char *option, const char *path, int end_job);

/* gnuplot, set to write an SVG of width × height on a white background to
 * path; NULL after one line if it cannot start. */
FILE *bspram_tool_gnuplot_open(const char *command, const char *option, const char *path, int width,
                               int height);

/* Wait for gnuplot: 0, or 1 after one line saying how it failed. */
int bspram_tool_gnuplot_close(const char *command, const char *option, const char *path, FILE *g);

#endif
