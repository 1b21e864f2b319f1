/* Per-output merge locks (see outlock.h). */
#include "ltpipe/outlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltpipe/error.h"

/* flock, not fcntl locks: fcntl locks belong to the process, so two
 * daemon sessions (threads) would both get one; flock locks belong to the
 * open file, which each writer opens for itself.
 *
 * The holder unlinks PATH.lock before closing it. A writer that waited on
 * that file then holds a lock on a name nobody else will open again, so
 * after getting the lock it checks that PATH.lock still is the file it
 * locked, and starts over on the new one when not: at any time at most
 * one writer holds the lock of the file the name points to. */
int lt_out_lock(const char *path, struct lt_out_lock *l, char *err,
                size_t errlen)
{
	size_t n = strlen(path) + sizeof(".lock");
	l->fd = -1;
	l->path = malloc(n);
	if (!l->path) {
		snprintf(err, errlen, "%s: out of memory", path);
		return LT_ERR_NOMEM;
	}
	snprintf(l->path, n, "%s.lock", path);
	for (;;) {
		int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			snprintf(err, errlen, "%s: cannot create: %s", l->path,
			         strerror(errno));
			break;
		}
		int r;
		while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
			;
		if (r != 0) {
			snprintf(err, errlen, "%s: cannot lock: %s", l->path,
			         strerror(errno));
			close(fd);
			break;
		}
		struct stat held, named;
		if (fstat(fd, &held) == 0 && stat(l->path, &named) == 0 &&
		    held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
			l->fd = fd;
			return 0;
		}
		close(fd); /* removed by the writer before us: lock anew */
	}
	free(l->path);
	l->path = NULL;
	return LT_ERR_IO;
}

void lt_out_unlock(struct lt_out_lock *l)
{
	if (!l->path)
		return;
	unlink(l->path);
	close(l->fd);
	free(l->path);
	l->path = NULL;
	l->fd = -1;
}
