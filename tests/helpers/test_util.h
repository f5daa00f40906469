/* test_util.h - helpers the cmocka unit tests share (tests/unit/): files
 * and the processes a test left behind. Test code only: failures are
 * cmocka assertions.
 */
#ifndef PC_TEST_UTIL_H
#define PC_TEST_UTIL_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

/* tu_write_file - write `text` to `path` (its directory made first) and
 * chmod it to `mode`; asserts each step. */
void tu_write_file(const char *path, const char *text, mode_t mode);

/* tu_read_small - up to cap - 1 bytes of `path` into buf, NUL-terminated,
 * *len their number; false when it cannot be opened. */
bool tu_read_small(const char *path, char *buf, size_t cap, size_t *len);

/* tu_proc_stat - the state letter and parent of process `pid` from
 * /proc/PID/stat; false when there is no such process. */
bool tu_proc_stat(long pid, char *state, long *ppid);

/* tu_count_children - processes (zombies included) whose parent is this
 * process. */
int tu_count_children(void);

/* tu_count_marked - live (not zombie) processes whose environment holds
 * the entry `marker` ("K=V"), or -1 without /proc; with `kill_them`, each
 * gets SIGKILL (a failed test leaves nothing behind either). Asserts
 * nothing: a test's forked worker may call it. */
int tu_count_marked(const char *marker, bool kill_them);

#endif
