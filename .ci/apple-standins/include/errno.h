// <errno.h> -> <sys/errno.h> (xnu, bsd/sys/errno.h).
#ifndef AFFIX_STANDIN_ERRNO_H
#define AFFIX_STANDIN_ERRNO_H
extern int *__error(void);
#define errno (*__error())
#define ENOMEM 12 /* Cannot allocate memory */
#endif
