/* The bspram command's pictures, drawn by gnuplot (Debian's gnuplot-nox),
 * for `bspram table --output` and `bspram prof --output`: SVG for a name
 * ending in .svg, PNG (gnuplot's pngcairo terminal) for .png, any case. */
#ifndef BSPRAM_TOOLS_GNUPLOT_H
#define BSPRAM_TOOLS_GNUPLOT_H

#include <stdio.h>

/* Before the work, what would make the picture fail after it: gnuplot not
 * on PATH, an output path in no writable directory, a directory, a
 * terminal, FIFO or device (never a picture on the screen), a name that
 * ends in neither .svg nor .png (or .png without pngcairo), or the file
 * `input` (may be NULL) by any name — the same device and inode. Returns
 * 0, or after one line, "bspram <command>: <option> <path>: …", the exit
 * status: 2 (a usage error) for a name that ends in neither .svg nor .png,
 * 1 for the rest; with
 * end_job that line ends every process of the job instead (over MPI, where
 * the other ranks would wait for this one in the work). */
int bspram_tool_gnuplot_check(const char *command, const char *option, const char *path,
                              const char *input, int end_job);

/* gnuplot, set to draw width × height pixels on a white background into
 * path, as SVG or PNG by its name; NULL after one line if it cannot start
 * or the picture's file cannot be made. One picture at a time.
 * SIGPIPE is ignored until bspram_tool_gnuplot_close. */
FILE *bspram_tool_gnuplot_open(const char *command, const char *option, const char *path, int width,
                               int height);

/* Wait for gnuplot: 0, or 1 after one line saying what failed — gnuplot,
 * sending it the commands, or the picture, which is read back (gnuplot
 * exits 0 on a full disk): an SVG must end in </svg>, a PNG hold its
 * signature and end chunk. gnuplot draws into a new file beside path,
 * renamed over it once whole (base/output.h): when anything fails, path is
 * as it was. */
int bspram_tool_gnuplot_close(const char *command, const char *option, const char *path, FILE *g);

#endif
