// <os/clock.h> (libplatform; macOS 14.4, iOS 17.4, tvOS 17.4, visionOS 1.1), which
// <os/os_sync_wait_on_address.h> includes. `os_clockid_t` is an `OS_ENUM` of <os/base.h>, a
// `uint32_t` enum; the mach absolute time clock is its one value.
#ifndef AFFIX_STANDIN_OS_CLOCK_H
#define AFFIX_STANDIN_OS_CLOCK_H
#include <stdint.h>
typedef uint32_t os_clockid_t;
enum {
  OS_CLOCK_MACH_ABSOLUTE_TIME = 32,
};
#endif
