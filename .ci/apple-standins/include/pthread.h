// <pthread.h> (libpthread, include/pthread/pthread.h) and the types of
// <sys/_pthread/_pthread_types.h> (xnu). Darwin's `pthread_once_t` is a struct with a signature,
// and `PTHREAD_ONCE_INIT` its initializer, where Glibc's is an `int`.
#ifndef AFFIX_STANDIN_PTHREAD_H
#define AFFIX_STANDIN_PTHREAD_H
#if defined(__LP64__)
#define __PTHREAD_ONCE_SIZE__ 8
#else
#define __PTHREAD_ONCE_SIZE__ 4
#endif
struct _opaque_pthread_once_t {
  long __sig;
  char __opaque[__PTHREAD_ONCE_SIZE__];
};
typedef struct _opaque_pthread_once_t pthread_once_t;
typedef unsigned long pthread_key_t;
#define _PTHREAD_ONCE_SIG_init 0x30B1BCBA
#define PTHREAD_ONCE_INIT {_PTHREAD_ONCE_SIG_init, {0}}
int pthread_atfork(void (*)(void), void (*)(void), void (*)(void));
int pthread_key_create(pthread_key_t *, void (*)(void *));
int pthread_once(pthread_once_t *, void (*)(void));
int pthread_setspecific(pthread_key_t, const void *);
void *pthread_getspecific(pthread_key_t);
#endif
