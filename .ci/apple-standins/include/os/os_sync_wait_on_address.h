// <os/os_sync_wait_on_address.h> (libplatform; macOS 14.4, iOS 17.4, tvOS 17.4, visionOS 1.1).
// The flags are `OS_OPTIONS` of <os/base.h>, a `uint32_t` enum.
#ifndef AFFIX_STANDIN_OS_SYNC_WAIT_ON_ADDRESS_H
#define AFFIX_STANDIN_OS_SYNC_WAIT_ON_ADDRESS_H
#include <os/clock.h>
#include <stddef.h>
#include <stdint.h>
typedef uint32_t os_sync_wait_on_address_flags_t;
enum {
  OS_SYNC_WAIT_ON_ADDRESS_NONE = 0x00000000,
  OS_SYNC_WAIT_ON_ADDRESS_SHARED = 0x00000001,
};
typedef uint32_t os_sync_wake_by_address_flags_t;
enum {
  OS_SYNC_WAKE_BY_ADDRESS_NONE = 0x00000000,
  OS_SYNC_WAKE_BY_ADDRESS_SHARED = 0x00000001,
};
int os_sync_wait_on_address(void *addr, uint64_t value, size_t size,
                            os_sync_wait_on_address_flags_t flags);
int os_sync_wait_on_address_with_timeout(void *addr, uint64_t value, size_t size,
                                         os_sync_wait_on_address_flags_t flags,
                                         os_clockid_t clockid, uint64_t timeout_ns);
int os_sync_wake_by_address_any(void *addr, size_t size, os_sync_wake_by_address_flags_t flags);
int os_sync_wake_by_address_all(void *addr, size_t size, os_sync_wake_by_address_flags_t flags);
#endif
