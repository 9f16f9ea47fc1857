/* bspram — opening a file that a user named, for reading, whatever lies at
 * the path. Internal (not installed).
 *
 * A path may name a FIFO (opening it waits for a writer, for ever if none
 * comes), a device that never ends (/dev/zero), a directory, or a file far
 * larger than anything the reader expects. Every reader of such a file —
 * the parameter file (bsp/params.c), the traces of `bspram prof` and
 * `bspram models --trace` (tools/trace_read.c) — opens it here: without
 * blocking (O_NONBLOCK), only if it is a regular file, and reads at most
 * the bytes its caller allows, counting every byte it reads (a file that
 * grows after the open is caught too).
 */
#ifndef BSPRAM_BASE_INPUT_H
#define BSPRAM_BASE_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef enum bspram_input_status {
    BSPRAM_INPUT_OK = 0,
    BSPRAM_INPUT_OPEN,        /* open or fstat failed: err holds errno */
    BSPRAM_INPUT_NOT_REGULAR, /* a directory, FIFO, device or socket: never read */
    BSPRAM_INPUT_TOO_LARGE,   /* more than max_bytes */
    BSPRAM_INPUT_READ,        /* read failed: err holds errno */
} bspram_input_status;

typedef struct bspram_input {
    int fd;                     /* −1 when not open */
    uint64_t max_bytes;         /* the most the caller reads */
    uint64_t done;              /* bytes read so far */
    mode_t mode;                /* what fstat found (the kind of a refused file) */
    int err;                    /* errno of a failed open, fstat or read */
    bspram_input_status status; /* the first problem met, or BSPRAM_INPUT_OK */
} bspram_input;

/* Open path for reading: 0, or −1 with in->status (and in->err) set and
 * nothing left open. Never blocks: the file is opened with O_NONBLOCK and
 * refused unless fstat finds a regular file of at most max_bytes. */
int bspram__base_input_open(bspram_input *in, const char *path, uint64_t max_bytes);

/* Read up to len bytes, as read(2) with EINTR retried: the bytes read, 0 at
 * the end of the file, or −1 with in->status set — a read error, or a byte
 * beyond max_bytes (the file grew since it was opened). */
ssize_t bspram__base_input_read(bspram_input *in, void *buf, size_t len);

void bspram__base_input_close(bspram_input *in);

/* The problem of a failed open or read in words, for an error line after
 * the path: "cannot open: No such file or directory", "is a directory",
 * "not a regular file (a FIFO)", "larger than 64 KiB", "cannot read: …".
 * Written to buf (len bytes); returns buf. */
const char *bspram__base_input_problem(const bspram_input *in, char *buf, size_t len);

/* What fstat's mode says a file is: "a regular file", "a directory",
 * "a FIFO", "a character device", "a block device", "a socket". */
const char *bspram__base_file_kind(mode_t mode);

/* A size in words for such lines: "64 KiB", "1 GiB", "100 bytes". */
const char *bspram__base_input_size(uint64_t bytes, char *buf, size_t len);

#endif
