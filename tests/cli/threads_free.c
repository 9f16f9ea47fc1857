/* Can a process of this machine hold N threads at once, with the default
 * stacks the OpenMP runtime takes too? Tests that need many threads ask
 * this first and skip (exit 77, one line saying why) when the OS refuses
 * them — a container's pid limit, an address-space limit, a saturated
 * shared machine — rather than fail for what the code under test did not
 * do. Each thread waits until all are made, so they are held together.
 * usage: threads_free N       exit 0: it can; 77: refused (the line says
 * at which thread and why); 2: a bad N. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go;

static void *hold(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!go)
        pthread_cond_wait(&go_cond, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    char *end;
    long n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 2 || *end || n < 1 || n > 1000000) {
        fprintf(stderr, "usage: threads_free N (N in [1, 1000000])\n");
        return 2;
    }
    pthread_t *t = malloc((size_t)n * sizeof *t);
    if (!t) {
        printf("skipped: no memory for %ld thread handles\n", n);
        return 77;
    }
    long made = 0;
    int err = 0;
    while (made < n && (err = pthread_create(&t[made], NULL, hold, NULL)) == 0)
        made++;
    pthread_mutex_lock(&lock);
    go = 1;
    pthread_cond_broadcast(&go_cond);
    pthread_mutex_unlock(&lock);
    for (long i = 0; i < made; i++)
        pthread_join(t[i], NULL);
    free(t);
    if (made < n) {
        printf("skipped: the OS refused thread %ld of the %ld this test needs (%s)\n", made + 1, n,
               strerror(err));
        return 77;
    }
    return 0;
}
