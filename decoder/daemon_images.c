/* The daemon's shared program images (see daemon_images.h). */
#include "daemon_images.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ltpipe/error.h"

/* One loaded image and the file it came from. */
struct cached {
	struct lt_image *img;  /* the image (immutable) */
	char *path;            /* canonical path */
	dev_t dev;             /* file identity at load time ... */
	ino_t ino;             /* ... */
	off_t size;            /* ... */
	struct timespec mtime; /* ... so a rebuilt ELF is loaded afresh */
	unsigned refs;         /* gets not yet put */
	int stale;             /* its file changed: never handed out again */
	uint64_t used;         /* use clock at the last get (LRU order) */
	struct cached *next;   /* list */
};

struct lt_image_cache {
	pthread_mutex_t lock;  /* guards the list; loads happen under it */
	struct cached *list;   /* every image loaded, newest first */
	size_t n;              /* their count */
	uint64_t clock;        /* use clock, one tick per get */
};

struct lt_image_cache *lt_image_cache_new(void)
{
	struct lt_image_cache *c = calloc(1, sizeof(*c));
	if (c)
		pthread_mutex_init(&c->lock, NULL);
	return c;
}

void lt_image_cache_free(struct lt_image_cache *c)
{
	if (!c)
		return;
	for (struct cached *e = c->list, *nx; e; e = nx) {
		nx = e->next;
		lt_image_free(e->img);
		free(e->path);
		free(e);
	}
	pthread_mutex_destroy(&c->lock);
	free(c);
}

size_t lt_image_cache_count(struct lt_image_cache *c)
{
	pthread_mutex_lock(&c->lock);
	size_t n = c->n;
	pthread_mutex_unlock(&c->lock);
	return n;
}

static int same_id(const struct lt_image *img, const uint8_t *id, size_t n)
{
	return img->build_id && img->build_id_len == n &&
	       memcmp(img->build_id, id, n) == 0;
}

static void hex(char *out, size_t cap, const uint8_t *id, size_t n)
{
	out[0] = '\0';
	for (size_t i = 0; i < n && 2 * i + 3 <= cap; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
}

/* Takes a reference to e (lock held). */
static void take(struct lt_image_cache *c, struct cached *e)
{
	e->refs++;
	e->used = ++c->clock;
}

/* Frees every idle stale image and the least recently used idle ones
 * beyond LT_IMAGE_CACHE_IDLE (lock held). */
static void evict(struct lt_image_cache *c)
{
	for (;;) {
		size_t idle = 0;
		struct cached **victim = NULL;
		for (struct cached **pp = &c->list; *pp; pp = &(*pp)->next) {
			struct cached *e = *pp;
			if (e->refs)
				continue;
			if (e->stale) {
				victim = pp;
				idle = SIZE_MAX;
				break;
			}
			idle++;
			if (!victim || e->used < (*victim)->used)
				victim = pp;
		}
		if (!victim || idle <= LT_IMAGE_CACHE_IDLE)
			return;
		struct cached *e = *victim;
		*victim = e->next;
		c->n--;
		lt_image_free(e->img);
		free(e->path);
		free(e);
	}
}

/* Drops a reference to img and frees what the policy says (lock held). */
static void release(struct lt_image_cache *c, const struct lt_image *img)
{
	for (struct cached *e = c->list; e; e = e->next)
		if (e->img == img) {
			if (e->refs)
				e->refs--;
			break;
		}
	evict(c);
}

void lt_image_cache_put(struct lt_image_cache *c, const struct lt_image *img)
{
	if (!img)
		return;
	pthread_mutex_lock(&c->lock);
	release(c, img);
	pthread_mutex_unlock(&c->lock);
}

/* Finds or loads the image at path (lock held). */
static int by_path(struct lt_image_cache *c, const char *path,
                   const struct lt_image **img, char *err, size_t errlen)
{
	char real[PATH_MAX];
	struct stat st;
	if (!realpath(path, real) || stat(real, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return LT_ERR_IO;
	}
	for (struct cached *e = c->list; e; e = e->next) {
		if (e->stale || strcmp(e->path, real))
			continue;
		if (e->dev == st.st_dev && e->ino == st.st_ino &&
		    e->size == st.st_size &&
		    e->mtime.tv_sec == st.st_mtim.tv_sec &&
		    e->mtime.tv_nsec == st.st_mtim.tv_nsec) {
			take(c, e);
			*img = e->img;
			return 0;
		}
		e->stale = 1; /* rebuilt: loaded afresh below */
	}
	evict(c);
	struct cached *e = calloc(1, sizeof(*e));
	if (!e || !(e->path = strdup(real))) {
		free(e);
		snprintf(err, errlen, "out of memory");
		return LT_ERR_NOMEM;
	}
	int rc = lt_image_load(&e->img, real, err, errlen);
	if (rc < 0) {
		free(e->path);
		free(e);
		return rc;
	}
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	e->size = st.st_size;
	e->mtime = st.st_mtim;
	e->next = c->list;
	c->list = e;
	c->n++;
	take(c, e);
	*img = e->img;
	return 0;
}

int lt_image_cache_get(struct lt_image_cache *c, const char *path,
                       const uint8_t *build_id, size_t build_id_len,
                       const struct lt_image **img, char *err, size_t errlen)
{
	char want[2 * 64 + 1], have[2 * 64 + 1];
	int rc = 0;
	pthread_mutex_lock(&c->lock);
	if (path && *path) {
		rc = by_path(c, path, img, err, errlen);
		if (rc == 0 && build_id_len && !same_id(*img, build_id,
		                                         build_id_len)) {
			release(c, *img);
			hex(want, sizeof(want), build_id, build_id_len);
			hex(have, sizeof(have), (*img)->build_id,
			    (*img)->build_id ? (*img)->build_id_len : 0);
			snprintf(err, errlen, "%s has build-id %s, the sink expects "
			         "%s", path, have[0] ? have : "(none)", want);
			rc = LT_ERR_BAD_ELF;
		}
	} else {
		rc = LT_ERR_BAD_ELF;
		for (struct cached *e = c->list; e; e = e->next)
			if (same_id(e->img, build_id, build_id_len)) {
				take(c, e);
				*img = e->img;
				rc = 0;
				break;
			}
		if (rc) {
			hex(want, sizeof(want), build_id, build_id_len);
			snprintf(err, errlen, "no loaded ELF has build-id %s (start "
			         "the daemon with --elf PROG, or send elf=PATH)",
			         want);
		}
	}
	if (rc)
		*img = NULL;
	pthread_mutex_unlock(&c->lock);
	return rc;
}
