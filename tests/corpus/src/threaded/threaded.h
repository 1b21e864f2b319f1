/* threaded: the second unit's entry (loops.c). */
#ifndef THREADED_H
#define THREADED_H

/* Runs the loops of loops.c and prints their results. */
void run_loops(void);

#endif
