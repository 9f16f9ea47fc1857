/* bspram — files the library and the bspram command write for the user (the
 * PRAM's page and trace, the superstep traces, the parameter file of
 * `bspram probe`, the collectives' cache of g and l, the command's pages,
 * pictures and exported rules). Internal (not installed); self-contained
 * (the C library only), so that the bspram command compiles it as its own.
 *
 * Every such file is written here, one way, because a writer must never
 * destroy what the user had at the path (a device node, a FIFO, a file
 * written by an earlier run) when the write fails halfway:
 *
 *   - a path that does not exist, or names a regular file with one name, is
 *     written to a new temporary file in the same directory (".NAME.XXXXXX",
 *     given the old file's mode, and its owner where the process may) and
 *     renamed over the path once every byte is written: the path holds the
 *     old file or the whole new one, never a file cut short; a failed write
 *     removes the temporary (the one file it removes: it made it) and
 *     leaves the path as it was;
 *   - anything else — a character or block device, a FIFO, a socket, a
 *     symbolic link (/dev/stdout, say, which may name the file a shell
 *     redirected into), a regular file with several names (hard links) — is
 *     written in place, where it is, as fopen(path, "w") would (a regular
 *     file behind a link is truncated first), and never removed nor renamed
 *     over. Opening never waits: a FIFO that no process reads fails at once
 *     (ENXIO); once open, the descriptor blocks as any output does.
 *
 * A directory at the path is refused (EISDIR). The temporary needs a
 * writable directory: where it cannot be made the open fails with the
 * system's reason (EACCES, EROFS, …) and nothing is created. */
#ifndef BSPRAM_BASE_OUTPUT_H
#define BSPRAM_BASE_OUTPUT_H

#include <limits.h>
#include <stdio.h>

/* mkdir -p of the directories leading to path (not path itself), mode 0755;
 * failures are left for the caller's open of path to report. */
void bspram__base_make_parents(const char *path);

/* A file being written. */
typedef struct bspram_output {
    FILE *f;             /* the stream to write to */
    char path[PATH_MAX]; /* the file the caller named */
    char tmp[PATH_MAX];  /* the temporary beside it; "" when written in place */
    int fd;              /* the stream's descriptor */
    int err;             /* the first write's or close's errno, 0 if none */
} bspram_output;

/* Open path for writing (the rules at the top): 0 with o->f ready, or −1
 * with errno set and nothing created. The stream keeps the first error of
 * its writes (stdio forgets errno once a later call succeeds), so o must
 * stay where it is until bspram__base_output_close or _abandon. */
int bspram__base_output_open(bspram_output *o, const char *path);

/* The name under which the bytes are being written: the temporary, or the
 * path itself in place (for a writer that hands the name to another
 * program, as the bspram command does to gnuplot). */
const char *bspram__base_output_name(const bspram_output *o);

/* Finish: flush and close the stream, then rename the temporary over the
 * path. 0 when the path now holds every byte written; −1 with errno set
 * otherwise (the first write, flush or close error, or rename's), the
 * temporary removed and the path as it was (in place: as far as it was
 * written, never removed). */
int bspram__base_output_close(bspram_output *o);

/* Give up (the caller found the output incomplete): close the stream and
 * remove the temporary; the path is left as it was (in place: as far as it
 * was written, never removed). errno is kept. */
void bspram__base_output_abandon(bspram_output *o);

#endif
