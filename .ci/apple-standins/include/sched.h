// <sched.h> (libpthread, include/sched.h).
#ifndef AFFIX_STANDIN_SCHED_H
#define AFFIX_STANDIN_SCHED_H
int sched_yield(void);
#endif
