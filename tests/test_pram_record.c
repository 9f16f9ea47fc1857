/* A PRAM run step by step (bspram_pram_record, bspram_pram_write_html): the
 * page of a user's own program holds exactly the accesses the program made —
 * VP v reads A[3v mod n] and writes B[v] = v + 100 in step 1 (CREW: several
 * VPs read one cell when 3 and n share a factor), then an empty step, then
 * VP v writes B[n − 1 − v] — in the order of VPs, listed here from the
 * program's definition, with the value each read got (A holds 1000 + i),
 * each write wrote, the kind of each access and the line of this file
 * that made it; where the run first needed CREW (VPs 0 and 4 read A[0] in
 * step 1, at read_a's line); the steps' costs are the per-step trace's; the page
 * is the same for T = 1, 2 and 3; recording starts at the next step and
 * stops when asked; a page with nothing recorded is one error line, and a
 * file that cannot be written is −1 with errno. A write that fails leaves
 * what was at the path: an older file whole (a file-size limit cuts the
 * page, or the per-step trace, short), a device node (a copy of /dev/full, root only) and a FIFO
 * that no process reads (refused at once, not waited on) still there; a
 * page written over a file keeps its mode, and a symbolic link stays one,
 * the file it names getting the page. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"
#include "pram/pram.h"

#define N 12

typedef struct prog {
    bspram_pram_array A, B;
} prog;

/* The lines of the three accesses (the page names them). */
enum { READ_LINE = __LINE__ + 4, WRITE_LINE = READ_LINE + 6, REVERSED_LINE = WRITE_LINE + 6 };
static void read_a(bspram_vp *vp, void *arg)
{
    const prog *g = arg;
    bspram_vp_read(vp, g->A, bspram_vp_id(vp) * 3 % N);
}

static void write_b(bspram_vp *vp, void *arg)
{
    const prog *g = arg;
    bspram_vp_write(vp, g->B, bspram_vp_id(vp), bspram_vp_id(vp) + 100);
}

static void write_b_reversed(bspram_vp *vp, void *arg)
{
    const prog *g = arg;
    bspram_vp_write(vp, g->B, N - 1 - bspram_vp_id(vp), 7);
}

/* The file's text (malloc'd), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *s = malloc(1 << 20);
    size_t n = fread(s, 1, (1 << 20) - 1, f);
    s[n] = 0;
    fclose(f);
    return s;
}

/* Run the program on T threads, recording from step 2 on if `late`; the
 * page's text. */
static char *run(int threads, int late, const char *path)
{
    bspram_pram_config c = bspram_pram_config_default(N, BSPRAM_CREW);
    c.p = 4;
    c.threads = threads;
    bspram_pram *P = bspram_pram_create(&c);
    prog g = {bspram_pram_alloc(P, "A", N), bspram_pram_alloc(P, "B", N)};
    uint64_t a[N];
    for (int i = 0; i < N; i++)
        a[i] = 1000 + (uint64_t)i;
    bspram_pram_load(P, g.A, a, N);
    if (!late)
        bspram_pram_record(P, true);
    bspram_pram_step(P, read_a, write_b, &g);
    if (late)
        bspram_pram_record(P, true);
    bspram_pram_step(P, NULL, NULL, &g);
    bspram_pram_step(P, NULL, write_b_reversed, &g);
    CHECK_EQ_U64(bspram_pram_write_html(P, path), 0);
    /* Costs: the per-step trace's, step by step. */
    size_t n;
    const bspram_pram_step_record *t = bspram_pram_trace(P, &n);
    CHECK_EQ_U64(n, 3);
    char *page = slurp(path);
    char want[512];
    snprintf(want, sizeof want, "\"step\":[1,2,3],\n\"reads\":[%d,0,0],\n\"writes\":[%d,0,%d],\n"
             "\"violations\":[0,0,0],\n\"supersteps\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "],\n"
             "\"charge\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
             N, N, N, t[0].supersteps, t[1].supersteps, t[2].supersteps, t[0].charge, t[1].charge,
             t[2].charge);
    CHECK(page && strstr(page, want));
    bspram_pram_destroy(P);
    return page;
}

/* The accesses the program makes, by VP, as the page lists them: VPs,
 * cells, values (a read's the one it got), and their lines and kinds (the
 * page's sites 1, 2, 3 in the order they are met; read 0, write 1). */
static void want_accesses(int late, char *vp, char *index, char *value, size_t len, char *site, char *kind)
{
    size_t a = 0, b = 0, c = 0, d = 0, e = 0;
    d += (size_t)snprintf(site + d, len - d, "\"site\":[");
    e += (size_t)snprintf(kind + e, len - e, "\"kind\":[");
    for (int k = 0; k < (late ? N : 3 * N); k++) {
        const int which = late ? 1 : k / N + 1; /* late: step 3's writes are the first site met */
        d += (size_t)snprintf(site + d, len - d, "%s%d", k ? "," : "", which);
        e += (size_t)snprintf(kind + e, len - e, "%s%d", k ? "," : "", !late && k < N ? 0 : 1);
    }
    snprintf(site + d, len - d, "]");
    snprintf(kind + e, len - e, "]");
    a += (size_t)snprintf(vp + a, len - a, "\"vp\":[");
    b += (size_t)snprintf(index + b, len - b, "\"index\":[");
    c += (size_t)snprintf(value + c, len - c, "\"value\":[");
    int k = 0;
    if (!late) {
        for (int v = 0; v < N; v++, k++) { /* step 1's read phase, then its write phase */
            a += (size_t)snprintf(vp + a, len - a, "%s%d", k ? "," : "", v);
            b += (size_t)snprintf(index + b, len - b, "%s%d", k ? "," : "", v * 3 % N);
            c += (size_t)snprintf(value + c, len - c, "%s%d", k ? "," : "", 1000 + v * 3 % N);
        }
        for (int v = 0; v < N; v++, k++) {
            a += (size_t)snprintf(vp + a, len - a, ",%d", v);
            b += (size_t)snprintf(index + b, len - b, ",%d", v);
            c += (size_t)snprintf(value + c, len - c, ",%d", v + 100);
        }
    }
    for (int v = 0; v < N; v++, k++) { /* step 3 */
        a += (size_t)snprintf(vp + a, len - a, "%s%d", k ? "," : "", v);
        b += (size_t)snprintf(index + b, len - b, "%s%d", k ? "," : "", N - 1 - v);
        c += (size_t)snprintf(value + c, len - c, "%s7", k ? "," : "");
    }
    snprintf(vp + a, len - a, "]");
    snprintf(index + b, len - b, "]");
    snprintf(value + c, len - c, "]");
}


static void write_unrecorded(void *arg)
{
    (void)arg;
    bspram_pram_config c = bspram_pram_config_default(4, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_record(P, true);
    bspram_pram_record(P, false); /* dropped */
    bspram_pram_write_html(P, "/tmp/never.html");
}

/* The number of entries of dir besides . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* A write that fails, or succeeds, never destroys what was at the path. */
static void failed_writes(void)
{
    char dir[64], file[96], node[96], fifo[96], link[96];
    snprintf(dir, sizeof dir, "/tmp/bspram-test-record-%d.d", (int)getpid());
    snprintf(file, sizeof file, "%s/old.html", dir);
    snprintf(node, sizeof node, "%s/full", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(link, sizeof link, "%s/link.html", dir);
    CHECK(mkdir(dir, 0700) == 0);
    bspram_pram_config c = bspram_pram_config_default(4, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_record(P, true);
    prog g = {bspram_pram_alloc(P, "A", N), bspram_pram_alloc(P, "B", N)};
    bspram_pram_step(P, NULL, write_b, &g);

    /* A file-size limit below the page's size: the write fails with EFBIG
     * midway (as on a full disk); the earlier file stays whole, and no
     * other file is left in the directory. */
    FILE *f = fopen(file, "w");
    fputs("the earlier page\n", f);
    fclose(f);
    struct rlimit was, small = {4096, 0};
    getrlimit(RLIMIT_FSIZE, &was);
    small.rlim_max = was.rlim_max;
    signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    errno = 0;
    CHECK(bspram_pram_write_html(P, file) == -1 && errno == EFBIG);
    /* The per-step trace alike (its one row does not fit in 30 bytes). */
    small.rlim_cur = 30;
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    errno = 0;
    CHECK(bspram_pram_write_trace(P, file) == -1 && errno == EFBIG);
    CHECK(setrlimit(RLIMIT_FSIZE, &was) == 0);
    char *text = slurp(file);
    CHECK(text && !strcmp(text, "the earlier page\n"));
    free(text);
    CHECK(entries(dir) == 1);

    /* Written over it, whole, with the old file's mode. */
    CHECK(chmod(file, 0640) == 0);
    CHECK(bspram_pram_write_html(P, file) == 0);
    text = slurp(file);
    CHECK(text && strstr(text, "</html>"));
    free(text);
    struct stat st;
    CHECK(stat(file, &st) == 0 && (st.st_mode & 07777) == 0640);
    CHECK(entries(dir) == 1);

    /* A symbolic link stays one; the file it names gets the page. */
    CHECK(symlink("old.html", link) == 0);
    CHECK(truncate(file, 0) == 0);
    CHECK(bspram_pram_write_html(P, link) == 0);
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    text = slurp(file);
    CHECK(text && strstr(text, "</html>"));
    free(text);

    /* A FIFO that no process reads: refused at once (ENXIO), still there. */
    CHECK(mkfifo(fifo, 0600) == 0);
    errno = 0;
    CHECK(bspram_pram_write_html(P, fifo) == -1 && errno == ENXIO);
    CHECK(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));

    /* A device that refuses writes (a copy of /dev/full: ENOSPC) is
     * written in place and never removed. */
    if (mknod(node, S_IFCHR | 0600, makedev(1, 7)) == 0) {
        errno = 0;
        CHECK(bspram_pram_write_html(P, node) == -1 && errno == ENOSPC);
        CHECK(stat(node, &st) == 0 && S_ISCHR(st.st_mode));
        unlink(node);
    } else {
        printf("skipped: the device node (mknod needs root)\n");
    }
    bspram_pram_destroy(P);
    unlink(fifo);
    unlink(link);
    unlink(file);
    CHECK(rmdir(dir) == 0);
}

int main(void)
{
    char path[64], vp[1024], index[1024], value[1024], site[1024], kind[1024], want[512];
    snprintf(path, sizeof path, "/tmp/bspram-test-record-%d.html", (int)getpid());
    char *pages[3];
    for (int T = 1; T <= 3; T++)
        pages[T - 1] = run(T, 0, path);
    want_accesses(0, vp, index, value, sizeof vp, site, kind);
    CHECK(pages[0] && strstr(pages[0], vp) && strstr(pages[0], index) && strstr(pages[0], value));
    CHECK(pages[0] && strstr(pages[0], site) && strstr(pages[0], kind));
    snprintf(want, sizeof want, "\"sites\":[\"\",\"test_pram_record.c:%d\",\"test_pram_record.c:%d\","
             "\"test_pram_record.c:%d\"]", READ_LINE, WRITE_LINE, REVERSED_LINE);
    CHECK(pages[0] && strstr(pages[0], want));
    /* Where the run first needed CREW: step 1, VPs 0 and 4 read A[0] (3·4 mod 12 = 0). */
    snprintf(want, sizeof want, "\"weakest\":\"CREW\",\"weakest_step\":1,\n\"needs\":[{\"model\":\"CREW\","
             "\"step\":1,\"at\":\"test_pram_record.c:%d\",\"what\":\"VPs 0 and 4 both read cell A[0]\","
             "\"vps\":[0,4],\"cell\":\"A[0]\"}]", READ_LINE);
    if (pages[0] && !strstr(pages[0], want))
        fprintf(stderr, "want %s\n", want);
    CHECK(pages[0] && strstr(pages[0], want));
    CHECK(pages[0] && strstr(pages[0], "\"first\":1,"));
    CHECK(pages[0] && strstr(pages[0], "{\"seg\":1,\"cells\":12,\"name\":\"A\"},{\"seg\":2,\"cells\":12,\"name\":\"B\"}"));
    /* Phases: step 1 read (12 accesses from 0), write (12 from 12); step 3 write. */
    CHECK(pages[0] && strstr(pages[0], "\"phases\":[[1,1,"));
    for (int T = 1; T < 3; T++)
        CHECK(pages[0] && pages[T] && !strcmp(pages[0], pages[T]));
    char *late = run(2, 1, path);
    want_accesses(1, vp, index, value, sizeof vp, site, kind);
    CHECK(late && strstr(late, vp) && strstr(late, "\"first\":2,") && strstr(late, site) && strstr(late, kind));
    snprintf(want, sizeof want, "\"sites\":[\"\",\"test_pram_record.c:%d\"]", REVERSED_LINE);
    CHECK(late && strstr(late, want));
    for (int T = 0; T < 3; T++)
        free(pages[T]);
    free(late);
    remove(path);

    /* A file that cannot be written: −1 and errno. */
    bspram_pram_config c = bspram_pram_config_default(4, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_record(P, true);
    errno = 0;
    CHECK(bspram_pram_write_html(P, "/nonexistent-dir/x.html") == -1 && errno == ENOENT);
    bspram_pram_destroy(P);
    failed_writes();
    check_death("write_html without a record", write_unrecorded, NULL,
                "bspram: bspram_pram_write_html(path=\"/tmp/never.html\"): nothing was recorded; call "
                "bspram_pram_record(P, true) before the steps\n", 1, 30);
    return check_report("test_pram_record");
}
