// <os/lock.h> (libplatform, include/os/lock.h): a 32-bit word, 0 when unlocked
// (`OS_UNFAIR_LOCK_INIT`), holding its owner's thread port while locked.
#ifndef AFFIX_STANDIN_OS_LOCK_H
#define AFFIX_STANDIN_OS_LOCK_H
#include <stdint.h>
typedef struct os_unfair_lock_s {
  uint32_t _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;
#define OS_UNFAIR_LOCK_INIT ((os_unfair_lock){0})
void os_unfair_lock_lock(os_unfair_lock_t lock);
int os_unfair_lock_trylock(os_unfair_lock_t lock);
void os_unfair_lock_unlock(os_unfair_lock_t lock);
#endif
