/* jsonp: a recursive-descent JSON parser into a static node pool, plus walkers. */
#ifndef JSONP_JSON_H
#define JSONP_JSON_H

#include <stddef.h>
#include <stdint.h>

enum jkind { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

struct jnode {
	enum jkind kind;
	int first;		/* first child (array/object), -1 if none */
	int next;		/* next sibling, -1 if none */
	int key;		/* offset of key in string pool (object members), -1 otherwise */
	int str;		/* offset of string value in string pool */
	double num;
};

struct jresult {
	int node;		/* root node, -1 on error */
	int err;		/* 0 ok, else error code */
	size_t pos;		/* where parsing stopped */
};

#define JPOOL 4096
#define JSTRPOOL 32768

extern struct jnode jpool[JPOOL];
extern char jstr[JSTRPOOL];

void jreset(void);
struct jresult jparse(const char *text);

/* walkers */
double jsum(int n);
int jdepth(int n);
uint32_t jkeyhash(int n, uint32_t h);
int jcount(int n, enum jkind k);

static inline int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

static inline uint32_t fnv_step(uint32_t h, unsigned char c)
{
	return (h ^ c) * 16777619u;
}

static inline int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
