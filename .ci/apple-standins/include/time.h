// <time.h> (Libc, include/time.h) and <sys/_types/_timespec.h>: `__darwin_time_t` is `long`.
#ifndef AFFIX_STANDIN_TIME_H
#define AFFIX_STANDIN_TIME_H
struct timespec {
  long tv_sec;
  long tv_nsec;
};
int nanosleep(const struct timespec *__rqtp, struct timespec *__rmtp);
#endif
