/* The two units of the samename corpus program each define static helpers named alike. */
#ifndef CORPUS_SAMENAME_H
#define CORPUS_SAMENAME_H

long left_run(int n);
long right_run(int n);

#endif
