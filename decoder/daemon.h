/* `ltpipe serve`: the stream daemon (private to the ltpipe executable).
 *
 * One libev loop accepts sink connections and only moves bytes: each
 * connection's socket is read into its bounded queue (daemon_queue.h),
 * drained by that connection's decode thread (daemon_session.c), which
 * parses frames, opens the session, decodes and answers. The loop stops
 * reading a socket whose queue is full, so a slow session slows its
 * sender, not the daemon's memory. */
#ifndef LT_DAEMON_H
#define LT_DAEMON_H

#include <ev.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "daemon_images.h"
#include "daemon_queue.h"

#define LT_DAEMON_MAX_LISTEN 8
#define LT_DAEMON_MAX_ELF 16

/* What `ltpipe serve` was asked to do. */
struct lt_daemon_config {
	const char *listen[LT_DAEMON_MAX_LISTEN]; /* unix:PATH | tcp:HOST:PORT */
	size_t nlisten;               /* entries (0: unix:ltpipe.sock) */
	const char *outdir;           /* root of every session's outputs */
	unsigned max_sessions;        /* concurrent sessions allowed */
	size_t queue_bytes;           /* per-session queue size */
	const char *elf[LT_DAEMON_MAX_ELF]; /* ELFs preloaded (build-id lookup) */
	size_t nelf;                  /* entries */
	FILE *log;                    /* where the event lines go */
};

struct lt_daemon;

/* One sink connection: shared by the loop and its decode thread. */
struct lt_conn {
	struct lt_daemon *d;   /* owner */
	int fd;                /* the socket (closed by the loop) */
	unsigned id;           /* connection number, for the log */
	char peer[128];        /* "unix" or "tcp:ADDR:PORT", for the log */
	ev_io rio;             /* read watcher */
	int reading;           /* rio is started (loop only) */
	struct lt_bq q;        /* bytes read, not yet decoded */
	pthread_t thread;      /* the decode thread */
	atomic_int want_read;  /* thread -> loop: queue has room again */
	atomic_int finished;   /* thread -> loop: done, join and free */
	struct lt_conn *next;  /* list of live connections (loop only) */
};

/* The daemon's shared state. */
struct lt_daemon {
	const struct lt_daemon_config *cfg; /* settings */
	struct ev_loop *loop;         /* the event loop */
	ev_async wake;                /* decode threads poke the loop */
	ev_signal sigint, sigterm;    /* graceful stop */
	ev_io lio[LT_DAEMON_MAX_LISTEN]; /* listening sockets */
	size_t nlisten;               /* entries used */
	char *unix_paths[LT_DAEMON_MAX_LISTEN]; /* sockets to unlink at exit */
	int stopping;                 /* a stop signal was received */
	struct lt_conn *conns;        /* live connections */
	unsigned nconns;              /* their count */
	unsigned next_id;             /* next connection number */
	struct lt_image_cache *images; /* programs, shared by sessions */
	pthread_mutex_t names_lock;   /* guards names[] */
	char **names;                 /* active session names (max_sessions) */
};

/* Runs the daemon until SIGINT/SIGTERM. Returns the exit status (0 after a
 * clean stop, 2 when a listening socket or --out cannot be set up). */
int lt_daemon_run(const struct lt_daemon_config *cfg);

/* Logs one line "ltpipe serve: MESSAGE" (thread-safe). */
void lt_daemon_log(struct lt_daemon *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Claims a session name (1) or reports that it is active already (0). */
int lt_daemon_claim_name(struct lt_daemon *d, const char *name);

/* Releases a name claimed by lt_daemon_claim_name. */
void lt_daemon_release_name(struct lt_daemon *d, const char *name);

/* The decode thread of one connection (pthread start routine). */
void *lt_conn_thread(void *conn);

#endif
