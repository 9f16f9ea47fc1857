/* Files the library writes for the user (output.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/output.h"

void bspram__base_make_parents(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(dir, 0755);
            *s = '/';
        }
}

/* The stream's writes: every byte, or the first error kept in o->err. */
static ssize_t stream_write(void *cookie, const char *buf, size_t len)
{
    bspram_output *o = cookie;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(o->fd, buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!o->err)
                o->err = n < 0 ? errno : EIO;
            errno = o->err;
            return (ssize_t)done; /* 0: an error, as fopencookie wants it */
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

static int stream_close(void *cookie)
{
    bspram_output *o = cookie;
    if (close(o->fd) != 0 && !o->err)
        o->err = errno;
    o->fd = -1;
    return o->err ? -1 : 0;
}

/* A stream on fd (written through stream_write), or NULL with fd closed;
 * errno kept. */
static FILE *stream(bspram_output *o, int fd)
{
    o->fd = fd;
    o->err = 0;
    FILE *f = fopencookie(o, "w", (cookie_io_functions_t){.write = stream_write, .close = stream_close});
    if (!f) {
        int err = errno;
        close(fd);
        o->fd = -1;
        errno = err;
    }
    return f;
}

/* Where it is, as fopen(path, "w") would, without waiting on a FIFO that no
 * process reads (O_NONBLOCK: ENXIO at once) and without truncating what is
 * not a regular file. */
static int open_in_place(bspram_output *o)
{
    int fd = open(o->path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    int err = fstat(fd, &st) != 0                                ? errno
              : S_ISDIR(st.st_mode)                              ? EISDIR
              : S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0     ? errno
              : flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ? errno
                                                                 : 0;
    if (err) {
        close(fd);
        errno = err;
        return -1;
    }
    o->tmp[0] = 0;
    o->f = stream(o, fd);
    return o->f ? 0 : -1;
}

/* Six characters that differ from call to call and process to process (a
 * name taken already is tried again with the next). */
static void suffix(char out[7])
{
    static atomic_uint_fast64_t calls;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
                 (atomic_fetch_add(&calls, 1) * UINT64_C(0x9e3779b97f4a7c15));
    x ^= x >> 31, x *= UINT64_C(0xbf58476d1ce4e5b9), x ^= x >> 27; /* splitmix64's finish */
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (int i = 0; i < 6; i++, x /= 36)
        out[i] = digits[x % 36];
    out[6] = 0;
}

/* A new file ".NAME.XXXXXX" beside the path (its mode 0666 less the umask,
 * as fopen's; an old file's mode and owner given to it). */
static int open_temporary(bspram_output *o, const struct stat *old)
{
    const char *slash = strrchr(o->path, '/'), *base = slash ? slash + 1 : o->path;
    int dirlen = slash ? (int)(slash - o->path) + 1 : 0;
    for (int attempt = 0; attempt < 100; attempt++) {
        char x[7];
        suffix(x);
        /* The name stays within NAME_MAX (255) whatever the path's length. */
        if (snprintf(o->tmp, sizeof o->tmp, "%.*s.%.200s.%s", dirlen, o->path, base, x) >=
            (int)sizeof o->tmp) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            return -1;
        if (old) {
            (void)!fchown(fd, old->st_uid, old->st_gid); /* where the process may */
            (void)!fchmod(fd, old->st_mode & 07777);
        }
        o->f = stream(o, fd);
        if (!o->f) {
            int err = errno;
            unlink(o->tmp);
            errno = err;
            return -1;
        }
        return 0;
    }
    errno = EEXIST;
    return -1;
}

int bspram__base_output_open(bspram_output *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (!*path) {
        errno = ENOENT;
        return -1;
    }
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return -1;
        return open_temporary(o, NULL);
    }
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    if (S_ISREG(st.st_mode) && st.st_nlink == 1)
        return open_temporary(o, &st);
    return open_in_place(o);
}

const char *bspram__base_output_name(const bspram_output *o) { return o->tmp[0] ? o->tmp : o->path; }

int bspram__base_output_close(bspram_output *o)
{
    if (o->f) {
        errno = 0;
        int bad = fflush(o->f) != 0 || ferror(o->f);
        if (fclose(o->f) != 0 || bad) /* the stream's first error, or close's */
            o->err = o->err ? o->err : errno ? errno : EIO;
        o->f = NULL;
    }
    int err = o->err;
    if (!err && o->tmp[0] && rename(o->tmp, o->path) != 0)
        err = errno;
    if (err && o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = 0;
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}

void bspram__base_output_abandon(bspram_output *o)
{
    int err = errno;
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = 0;
    errno = err;
}
