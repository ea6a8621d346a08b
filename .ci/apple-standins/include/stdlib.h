// <stdlib.h> (Libc, include/stdlib.h; size_t from <sys/_types/_size_t.h>, clang's here).
#ifndef AFFIX_STANDIN_STDLIB_H
#define AFFIX_STANDIN_STDLIB_H
#include <stddef.h>
void *malloc(size_t __size);
void free(void *);
void abort(void) __attribute__((__cold__, __noreturn__));
char *getenv(const char *);
#endif
