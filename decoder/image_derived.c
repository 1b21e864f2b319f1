/* The shared cache of image-derived data (see image_derived.h). */
#include "ltpipe/image_derived.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One cached object. */
struct entry {
	const struct lt_image_derived *kind; /* what it is */
	const void *obj;                     /* the object */
	uint64_t hash;                       /* hash of the ELF contents */
	size_t size;                         /* their length (second key) */
	unsigned refs;                       /* gets not yet put */
	struct entry *next;                  /* list link */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *head;

/* 64-bit hash of the contents (a multiply-xorshift per 8 bytes). */
static uint64_t content_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	return h * 0xc4ceb9fe1a85ec53ull;
}

const void *lt_derived_get(const struct lt_image_derived *kind,
                               const struct lt_image *img, char *err,
                               size_t errlen)
{
	uint64_t h = content_hash(img->elf_data, img->elf_size);
	pthread_mutex_lock(&lock);
	struct entry *e = head;
	while (e && (e->kind != kind || e->hash != h ||
	             e->size != img->elf_size))
		e = e->next;
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e) {
			pthread_mutex_unlock(&lock);
			snprintf(err, errlen, "%s: out of memory", img->path);
			return NULL;
		}
		/* Built under the lock: a second caller must wait for the first
		 * build anyway, and libdwarf keeps some global state. */
		e->obj = kind->build(img, err, errlen);
		if (!e->obj) {
			free(e);
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		e->kind = kind;
		e->hash = h;
		e->size = img->elf_size;
		e->next = head;
		head = e;
	}
	e->refs++;
	pthread_mutex_unlock(&lock);
	return e->obj;
}

void lt_derived_put(const struct lt_image_derived *kind, const void *obj)
{
	if (!obj)
		return;
	pthread_mutex_lock(&lock);
	for (struct entry **pp = &head; *pp; pp = &(*pp)->next) {
		struct entry *e = *pp;
		if (e->kind != kind || e->obj != obj)
			continue;
		if (--e->refs == 0) {
			*pp = e->next;
			kind->destroy((void *)e->obj);
			free(e);
		}
		break;
	}
	pthread_mutex_unlock(&lock);
}
