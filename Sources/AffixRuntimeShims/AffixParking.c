#include "AffixParking.h"

#if defined(__linux__)

#include <limits.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// The values of <linux/futex.h>, part of the kernel's stable ABI; spelled out so that a C
// library installed without the kernel's headers (a Musl build) compiles this too. Private:
// every waiter is a thread of this process, which spares the kernel a shared-mapping lookup.
#define AFFIX_FUTEX_WAIT_PRIVATE 128
#define AFFIX_FUTEX_WAKE_PRIVATE 129

void affix_park(void *word, uint32_t expected) {
  (void)syscall(SYS_futex, word, AFFIX_FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void affix_park_for(void *word, uint32_t expected, int64_t nanoseconds) {
  // FUTEX_WAIT takes a relative timeout, on the monotonic clock.
  struct timespec timeout = {
    .tv_sec = (time_t)(nanoseconds / 1000000000), .tv_nsec = (long)(nanoseconds % 1000000000)};
  (void)syscall(SYS_futex, word, AFFIX_FUTEX_WAIT_PRIVATE, expected, &timeout, NULL, 0);
}

void affix_unpark_one(void *word) {
  (void)syscall(SYS_futex, word, AFFIX_FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void affix_unpark_all(void *word) {
  (void)syscall(SYS_futex, word, AFFIX_FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

#elif defined(__APPLE__)

// Not compiled on any machine of this project (see Docs/Platforms.md): written from the
// documented declarations in <os/os_sync_wait_on_address.h> and <os/lock.h>.
#include <os/lock.h>
#include <os/os_sync_wait_on_address.h>

void affix_park(void *word, uint32_t expected) {
  (void)os_sync_wait_on_address(word, expected, sizeof(uint32_t), OS_SYNC_WAIT_ON_ADDRESS_NONE);
}

void affix_park_for(void *word, uint32_t expected, int64_t nanoseconds) {
  // A relative timeout in nanoseconds of the clock named.
  (void)os_sync_wait_on_address_with_timeout(
      word, expected, sizeof(uint32_t), OS_SYNC_WAIT_ON_ADDRESS_NONE, OS_CLOCK_MACH_ABSOLUTE_TIME,
      (uint64_t)nanoseconds);
}

void affix_unpark_one(void *word) {
  (void)os_sync_wake_by_address_any(word, sizeof(uint32_t), OS_SYNC_WAKE_BY_ADDRESS_NONE);
}

void affix_unpark_all(void *word) {
  (void)os_sync_wake_by_address_all(word, sizeof(uint32_t), OS_SYNC_WAKE_BY_ADDRESS_NONE);
}

void affix_unfair_lock(void *word) {
  os_unfair_lock_lock((os_unfair_lock_t)word);
}

void affix_unfair_unlock(void *word) {
  os_unfair_lock_unlock((os_unfair_lock_t)word);
}

#endif
