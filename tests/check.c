#include "check.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

_Atomic int check_failures = 0;
_Atomic int check_count = 0;

void check_death(const char *name, void (*fn)(void *), void *arg, const char *expect,
                 int exactly_one_line, unsigned timeout_s)
{
    check_death_status(name, fn, arg, expect, exactly_one_line, timeout_s, -1);
}

/* status −1: any non-zero exit status. */
void check_death_status(const char *name, void (*fn)(void *), void *arg, const char *expect,
                        int exactly_one_line, unsigned timeout_s, int want)
{
    int fds[2];
    check_count++;
    fflush(stdout);
    fflush(stderr);
    if (pipe(fds) != 0) {
        check_failures++;
        perror("pipe");
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        alarm(timeout_s);
        fn(arg);
        _exit(0); /* returning normally is a failure of the death test */
    }
    close(fds[1]);
    char buf[8192];
    size_t n = 0;
    ssize_t k;
    while ((k = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)k;
    buf[n] = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
             (want < 0 || WEXITSTATUS(status) == want) && strstr(buf, expect) != NULL;
    if (ok && exactly_one_line) {
        char *nl = strchr(buf, '\n');
        ok = nl != NULL && nl[1] == 0;
    }
    if (!ok) {
        check_failures++;
        fprintf(stderr, "death test '%s' failed: status %s %d, expected \"%s\" in stderr:\n%s\n",
                name, WIFEXITED(status) ? "exit" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), expect, buf);
    }
}

char *check_trace_flows(char *line)
{
    char *loads = strrchr(line, ',');
    if (!loads)
        return NULL;
    *loads = '\0';
    char *flows = strrchr(line, ',');
    return flows ? flows + 1 : NULL;
}

int check_report(const char *test_name)
{
    printf("%s: %d passed, %d failed\n", test_name, check_count - check_failures, check_failures);
    return check_failures ? 1 : 0;
}
