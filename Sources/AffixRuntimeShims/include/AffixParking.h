#ifndef AFFIX_PARKING_H
#define AFFIX_PARKING_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

/// Tells the processor that the caller is spinning on a lock word: it lets the other hardware
/// thread of the core run, and the loop's exit costs no memory-order mis-speculation.
static inline void affix_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

/// Gives the processor to another thread, as a spinning waiter does after its pauses: POSIX
/// `sched_yield`, here so that Swift callers need no C library of their own to import.
static inline void affix_yield(void) { (void)sched_yield(); }

/// Sleeps the calling thread for about `microseconds`, for a waiter that has yielded long
/// enough: POSIX `nanosleep`, declared in every C library the package builds on.
static inline void affix_sleep_microseconds(uint32_t microseconds) {
  struct timespec duration = {(long)(microseconds / 1000000),
                              (long)(microseconds % 1000000) * 1000};
  (void)nanosleep(&duration, 0);
}

#if defined(__linux__) || defined(__APPLE__)
// Linux: futex (Swift cannot call the variadic `syscall`, and the C library wraps no futex
// call). Apple platforms: os_sync_wait_on_address, public since macOS 14.4 and iOS 17.4, below
// every deployment target of the package.

/// Sleeps while the 32-bit word at `word` holds `expected`. Returns when woken, when the word
/// already differs, on a signal, or spuriously: the caller checks the word again.
void affix_park(void *word, uint32_t expected);

/// `affix_park`, for at most `nanoseconds` (positive): also returns once they have passed.
void affix_park_for(void *word, uint32_t expected, int64_t nanoseconds);

/// Wakes at most one thread sleeping in `affix_park` on `word`.
void affix_unpark_one(void *word);

/// Wakes every thread sleeping in `affix_park` on `word`.
void affix_unpark_all(void *word);
#endif

#if defined(__APPLE__)
/// `os_unfair_lock_lock` on a 32-bit word that starts at 0 (`OS_UNFAIR_LOCK_INIT`): the lock
/// records its owner there, so a waiter donates its priority to the owner.
void affix_unfair_lock(void *word);

/// `os_unfair_lock_unlock` on a word locked by `affix_unfair_lock` on this thread.
void affix_unfair_unlock(void *word);
#endif

#endif
