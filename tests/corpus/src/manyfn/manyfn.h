/* Shared declarations of the manyfn units. */
#ifndef MANYFN_H
#define MANYFN_H

typedef long (*unop)(long);

long ops_run(int which, long v);	/* ops.c: op `which` (table) applied to v */
int ops_count(void);			/* ops.c: number of table entries */
long ops_fold(long v, int n);		/* ops.c: the table folded n times */
long rec_mix(int n, long v);		/* rec.c: recursive helpers mixed */
long rec_unused(long v);		/* rec.c: never called */
long rec_scale(long v);			/* rec.c: uses its own static `twist` */

#endif
