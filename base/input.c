/* Opening a file a user named, for reading (input.h). */
#include "base/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failed(bspram_input *in, bspram_input_status status, int err)
{
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
    in->status = status;
    in->err = err;
    return -1;
}

int bspram__base_input_open(bspram_input *in, const char *path, uint64_t max_bytes)
{
    memset(in, 0, sizeof *in);
    in->max_bytes = max_bytes;
    /* O_NONBLOCK: opening a FIFO with no writer must not wait for one. */
    in->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (in->fd < 0)
        return failed(in, BSPRAM_INPUT_OPEN, errno);
    struct stat st;
    if (fstat(in->fd, &st) != 0)
        return failed(in, BSPRAM_INPUT_OPEN, errno);
    in->mode = st.st_mode;
    if (!S_ISREG(st.st_mode))
        return failed(in, BSPRAM_INPUT_NOT_REGULAR, 0);
    if (st.st_size < 0 || (uint64_t)st.st_size > max_bytes)
        return failed(in, BSPRAM_INPUT_TOO_LARGE, 0);
    return 0;
}

ssize_t bspram__base_input_read(bspram_input *in, void *buf, size_t len)
{
    if (in->status != BSPRAM_INPUT_OK || in->fd < 0) {
        errno = EBADF;
        return -1;
    }
    /* One byte past the limit is enough to know the file is too large. */
    uint64_t room = in->max_bytes - in->done + 1;
    if (len > room)
        len = (size_t)room;
    ssize_t r;
    do
        r = read(in->fd, buf, len);
    while (r < 0 && errno == EINTR);
    if (r < 0) {
        in->status = BSPRAM_INPUT_READ;
        in->err = errno;
        return -1;
    }
    in->done += (uint64_t)r;
    if (in->done > in->max_bytes) {
        in->status = BSPRAM_INPUT_TOO_LARGE;
        return -1;
    }
    return r;
}

void bspram__base_input_close(bspram_input *in)
{
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
}

const char *bspram__base_input_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"GiB", "MiB", "KiB"};
    for (int k = 0; k < 3; k++) {
        uint64_t u = (uint64_t)1 << (30 - 10 * k);
        if (bytes >= u && bytes % u == 0) {
            snprintf(buf, len, "%llu %s", (unsigned long long)(bytes / u), unit[k]);
            return buf;
        }
    }
    snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
    return buf;
}

const char *bspram__base_file_kind(mode_t mode)
{
    return S_ISREG(mode)    ? "a regular file"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a file";
}

const char *bspram__base_input_problem(const bspram_input *in, char *buf, size_t len)
{
    char size[32];
    switch (in->status) {
    case BSPRAM_INPUT_OPEN: snprintf(buf, len, "cannot open: %s", strerror(in->err)); break;
    case BSPRAM_INPUT_NOT_REGULAR:
        if (S_ISDIR(in->mode))
            snprintf(buf, len, "is a directory");
        else
            snprintf(buf, len, "not a regular file (%s)", bspram__base_file_kind(in->mode));
        break;
    case BSPRAM_INPUT_TOO_LARGE:
        snprintf(buf, len, "larger than %s", bspram__base_input_size(in->max_bytes, size, sizeof size));
        break;
    case BSPRAM_INPUT_READ: snprintf(buf, len, "cannot read: %s", strerror(in->err)); break;
    default: snprintf(buf, len, "no problem"); break;
    }
    return buf;
}
