/* A lock that serialises read-merge-write updates of one output file (a
 * gcda merged like a second run) between processes and between threads
 * of one process (daemon sessions), as libgcov locks each .gcda while it
 * merges: without it two writers both read the old file and the second
 * rename loses the first one's counts.
 *
 * The lock is flock(2) on PATH.lock, created on demand and removed by its
 * holder before it lets go, so nothing stays behind after a normal run.
 * A writer that dies holding it leaves an empty PATH.lock whose lock the
 * kernel has already dropped: the next writer takes it and removes it.
 * Only writers of the same PATH wait for each other, for the time of one
 * file's read, merge and write. */
#ifndef LTPIPE_OUTLOCK_H
#define LTPIPE_OUTLOCK_H

#include <stddef.h>

/* A held lock. */
struct lt_out_lock {
	int fd;     /* the locked PATH.lock */
	char *path; /* PATH.lock */
};

/* Waits for and takes the lock of path. Returns 0, or LT_ERR_IO /
 * LT_ERR_NOMEM with a message naming the lock file. */
int lt_out_lock(const char *path, struct lt_out_lock *l, char *err,
                size_t errlen);

/* Removes the lock file and lets the next writer in. */
void lt_out_unlock(struct lt_out_lock *l);

#endif
