/* `ltpipe serve`: the event loop (see daemon.h). Callbacks here are short:
 * they accept, read into queues, and reap finished sessions; everything
 * else happens on the sessions' decode threads (daemon_session.c). */
#include "daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ltpipe/error.h"
#include "ltpipe/proto.h"

void lt_daemon_log(struct lt_daemon *d, const char *fmt, ...)
{
	char line[1024], ts[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One call per line: stdio locks the stream, so lines never mix. */
	fprintf(d->cfg->log, "%s ltpipe serve: %s\n", ts, line);
	fflush(d->cfg->log);
}

int lt_daemon_claim_name(struct lt_daemon *d, const char *name)
{
	int ok = 1;
	size_t free_slot = (size_t)-1;
	pthread_mutex_lock(&d->names_lock);
	for (size_t i = 0; i < d->cfg->max_sessions; i++) {
		if (!d->names[i]) {
			if (free_slot == (size_t)-1)
				free_slot = i;
		} else if (!strcmp(d->names[i], name)) {
			ok = 0;
		}
	}
	if (ok && free_slot != (size_t)-1)
		d->names[free_slot] = strdup(name);
	else
		ok = 0;
	pthread_mutex_unlock(&d->names_lock);
	return ok;
}

void lt_daemon_release_name(struct lt_daemon *d, const char *name)
{
	pthread_mutex_lock(&d->names_lock);
	for (size_t i = 0; i < d->cfg->max_sessions; i++)
		if (d->names[i] && !strcmp(d->names[i], name)) {
			free(d->names[i]);
			d->names[i] = NULL;
			break;
		}
	pthread_mutex_unlock(&d->names_lock);
}

/* Stops reading a connection (loop only). */
static void stop_reading(struct lt_daemon *d, struct lt_conn *c)
{
	if (c->reading) {
		ev_io_stop(d->loop, &c->rio);
		c->reading = 0;
	}
}

static void read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct lt_conn *c = w->data;
	uint8_t *p;
	(void)loop;
	(void)revents;
	size_t room = lt_bq_space(&c->q, &p);
	if (room == 0) {
		/* Back-pressure: the decode thread restarts us via wake. */
		stop_reading(c->d, c);
		return;
	}
	ssize_t n = read(c->fd, p, room);
	if (n > 0) {
		lt_bq_commit(&c->q, (size_t)n);
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	stop_reading(c->d, c);
	lt_bq_end(&c->q, LT_BQ_EOF);
}

/* Answers a connection the daemon cannot take, then closes it. */
static void refuse(int fd, int code, const char *msg)
{
	uint8_t f[LT_PROTO_HDR + 2 + LT_PROTO_MAX_MSG];
	size_t n = lt_proto_error_encode(f + LT_PROTO_HDR, code, msg);
	lt_proto_header(f, LT_FRAME_ERROR, 0, (uint32_t)n);
	/* Best effort: a fresh socket's buffer holds this small frame. */
	ssize_t w = send(fd, f, LT_PROTO_HDR + n, MSG_NOSIGNAL);
	(void)w;
	close(fd);
}

static void accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct lt_daemon *d = w->data;
	(void)revents;
	struct sockaddr_storage sa;
	socklen_t salen = sizeof(sa);
	int fd = accept4(w->fd, (struct sockaddr *)&sa, &salen,
	                 SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	unsigned id = ++d->next_id;
	char peer[128] = "unix";
	if (sa.ss_family == AF_INET || sa.ss_family == AF_INET6) {
		char host[64], port[16];
		if (getnameinfo((struct sockaddr *)&sa, salen, host, sizeof(host),
		                port, sizeof(port),
		                NI_NUMERICHOST | NI_NUMERICSERV) == 0)
			snprintf(peer, sizeof(peer), "tcp:%s:%s", host, port);
		else
			snprintf(peer, sizeof(peer), "tcp");
	}
	if (d->nconns >= d->cfg->max_sessions) {
		lt_daemon_log(d, "#%u (%s): refused: already %u sessions "
		              "(--max-sessions)", id, peer, d->nconns);
		refuse(fd, LT_PC_BUSY, "too many sessions; try again later");
		return;
	}
	struct lt_conn *c = calloc(1, sizeof(*c));
	if (!c || lt_bq_init(&c->q, d->cfg->queue_bytes) < 0) {
		free(c);
		refuse(fd, LT_PC_IO, "daemon out of memory");
		return;
	}
	c->d = d;
	c->fd = fd;
	c->id = id;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	if (pthread_create(&c->thread, NULL, lt_conn_thread, c) != 0) {
		lt_bq_fini(&c->q);
		free(c);
		refuse(fd, LT_PC_IO, "daemon cannot start a thread");
		return;
	}
	ev_io_init(&c->rio, read_cb, fd, EV_READ);
	c->rio.data = c;
	ev_io_start(loop, &c->rio);
	c->reading = 1;
	c->next = d->conns;
	d->conns = c;
	d->nconns++;
}

/* Decode threads call ev_async_send: resume reading drained queues, reap
 * finished sessions, and end the loop once stopping and idle. */
static void wake_cb(struct ev_loop *loop, ev_async *w, int revents)
{
	struct lt_daemon *d = w->data;
	(void)revents;
	for (struct lt_conn **pp = &d->conns; *pp;) {
		struct lt_conn *c = *pp;
		if (atomic_exchange(&c->want_read, 0) && !c->reading &&
		    !d->stopping && !atomic_load(&c->finished)) {
			pthread_mutex_lock(&c->q.lock);
			int open = c->q.end == LT_BQ_OPEN;
			pthread_mutex_unlock(&c->q.lock);
			if (open) {
				ev_io_start(loop, &c->rio);
				c->reading = 1;
			}
		}
		if (atomic_load(&c->finished)) {
			stop_reading(d, c);
			pthread_join(c->thread, NULL);
			close(c->fd);
			lt_bq_fini(&c->q);
			*pp = c->next;
			d->nconns--;
			free(c);
			continue;
		}
		pp = &c->next;
	}
	if (d->stopping && !d->conns)
		ev_break(loop, EVBREAK_ALL);
}

static void close_listeners(struct lt_daemon *d)
{
	for (size_t i = 0; i < d->nlisten; i++) {
		ev_io_stop(d->loop, &d->lio[i]);
		close(d->lio[i].fd);
		if (d->unix_paths[i])
			unlink(d->unix_paths[i]);
		free(d->unix_paths[i]);
		d->unix_paths[i] = NULL;
	}
	d->nlisten = 0;
}

static void signal_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	struct lt_daemon *d = w->data;
	(void)revents;
	if (d->stopping)
		return;
	d->stopping = 1;
	lt_daemon_log(d, "%s: stopping; flushing %u session(s)",
	              w->signum == SIGINT ? "SIGINT" : "SIGTERM", d->nconns);
	close_listeners(d);
	for (struct lt_conn *c = d->conns; c; c = c->next) {
		stop_reading(d, c);
		lt_bq_end(&c->q, LT_BQ_SHUTDOWN);
	}
	if (!d->conns)
		ev_break(loop, EVBREAK_ALL);
}

/* Opens a Unix listening socket, replacing a stale socket file (one
 * nobody answers on) but never a live one or a non-socket. */
static int listen_unix(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "unix:%s: path longer than %zu bytes", path,
		         sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, path);
	struct stat st;
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "unix:%s: exists and is not a socket",
			         path);
			return -1;
		}
		int t = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int live = t >= 0 &&
		           connect(t, (struct sockaddr *)&sa, sizeof(sa)) == 0;
		if (t >= 0)
			close(t);
		if (live) {
			snprintf(err, errlen, "unix:%s: another daemon is listening",
			         path);
			return -1;
		}
		unlink(path);
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(fd, 64) != 0) {
		snprintf(err, errlen, "unix:%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Opens a TCP listening socket on HOST:PORT (HOST empty: 127.0.0.1). */
static int listen_tcp(const char *spec, char *err, size_t errlen)
{
	char host[256];
	const char *port;
	if (lt_proto_hostport(spec, host, sizeof(host), &port) != 0) {
		snprintf(err, errlen, "tcp:%s: expected tcp:HOST:PORT", spec);
		return -1;
	}
	struct addrinfo hints, *ai;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	int g = getaddrinfo(host, port, &hints, &ai);
	if (g != 0) {
		snprintf(err, errlen, "tcp:%s: %s", spec, gai_strerror(g));
		return -1;
	}
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
	                SOCK_CLOEXEC, 0);
	int one = 1;
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
		snprintf(err, errlen, "tcp:%s: %s", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/* Opens every --listen address. Returns 0 or -1 (message logged). */
static int open_listeners(struct lt_daemon *d)
{
	const struct lt_daemon_config *cfg = d->cfg;
	static const char *const dflt[] = {"unix:ltpipe.sock"};
	const char *const *ls = cfg->nlisten ? cfg->listen : dflt;
	size_t n = cfg->nlisten ? cfg->nlisten : 1;
	for (size_t i = 0; i < n; i++) {
		char err[512];
		int fd;
		if (!strncmp(ls[i], "unix:", 5)) {
			fd = listen_unix(ls[i] + 5, err, sizeof(err));
			if (fd >= 0)
				d->unix_paths[d->nlisten] = strdup(ls[i] + 5);
		} else if (!strncmp(ls[i], "tcp:", 4)) {
			fd = listen_tcp(ls[i] + 4, err, sizeof(err));
		} else {
			snprintf(err, sizeof(err), "--listen %s: expected unix:PATH "
			         "or tcp:HOST:PORT", ls[i]);
			fd = -1;
		}
		if (fd < 0) {
			lt_daemon_log(d, "%s", err);
			return -1;
		}
		ev_io_init(&d->lio[d->nlisten], accept_cb, fd, EV_READ);
		d->lio[d->nlisten].data = d;
		ev_io_start(d->loop, &d->lio[d->nlisten]);
		d->nlisten++;
		/* Name the bound port: tcp:HOST:0 asks for any free one. */
		struct sockaddr_storage sa;
		socklen_t sl = sizeof(sa);
		char host[64], port[16];
		if (!strncmp(ls[i], "tcp:", 4) &&
		    getsockname(fd, (struct sockaddr *)&sa, &sl) == 0 &&
		    getnameinfo((struct sockaddr *)&sa, sl, host, sizeof(host),
		                port, sizeof(port),
		                NI_NUMERICHOST | NI_NUMERICSERV) == 0)
			lt_daemon_log(d, "listening on tcp:%s:%s", host, port);
		else
			lt_daemon_log(d, "listening on %s", ls[i]);
	}
	return 0;
}

int lt_daemon_run(const struct lt_daemon_config *cfg)
{
	struct lt_daemon d;
	int rc = 2;
	memset(&d, 0, sizeof(d));
	d.cfg = cfg;
	signal(SIGPIPE, SIG_IGN);
	if (mkdir(cfg->outdir, 0755) != 0 && errno != EEXIST) {
		lt_daemon_log(&d, "%s: cannot create output directory: %s",
		              cfg->outdir, strerror(errno));
		return 2;
	}
	d.images = lt_image_cache_new();
	d.names = calloc(cfg->max_sessions, sizeof(char *));
	d.loop = ev_loop_new(EVFLAG_AUTO);
	pthread_mutex_init(&d.names_lock, NULL);
	if (!d.images || !d.names || !d.loop) {
		lt_daemon_log(&d, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < cfg->nelf; i++) {
		const struct lt_image *img;
		char err[512];
		if (lt_image_cache_get(d.images, cfg->elf[i], NULL, 0, &img, err,
		                       sizeof(err)) < 0) {
			lt_daemon_log(&d, "%s", err);
			goto out;
		}
	}
	if (open_listeners(&d) < 0) {
		close_listeners(&d);
		goto out;
	}
	ev_async_init(&d.wake, wake_cb);
	d.wake.data = &d;
	ev_async_start(d.loop, &d.wake);
	ev_signal_init(&d.sigint, signal_cb, SIGINT);
	ev_signal_init(&d.sigterm, signal_cb, SIGTERM);
	d.sigint.data = d.sigterm.data = &d;
	ev_signal_start(d.loop, &d.sigint);
	ev_signal_start(d.loop, &d.sigterm);
	lt_daemon_log(&d, "ready: outputs under %s/, at most %u sessions",
	              cfg->outdir, cfg->max_sessions);
	ev_run(d.loop, 0);
	lt_daemon_log(&d, "stopped");
	rc = 0;
out:
	if (d.loop)
		ev_loop_destroy(d.loop);
	lt_image_cache_free(d.images);
	if (d.names)
		for (size_t i = 0; i < cfg->max_sessions; i++)
			free(d.names[i]);
	free(d.names);
	pthread_mutex_destroy(&d.names_lock);
	return rc;
}
