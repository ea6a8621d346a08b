#ifndef AFFIX_RUNTIME_SHIMS_H
#define AFFIX_RUNTIME_SHIMS_H

#include <stdbool.h>
#include <stddef.h>

// Two queries the Swift runtime exports (HeapObject.h, stable ABI on every platform). The
// associated-storage table pins a host's memory with an unowned reference instead of
// watching it with a weak one, and asks these to tell a dead host from a live one.
bool swift_isDeallocating(void *object);
size_t swift_unownedRetainCount(void *object);

/// Whether the object's deinit has finished and only `pins` unowned references keep its
/// memory. Reads the object header only, which the caller's unowned pin keeps allocated.
static inline bool affix_host_is_dead(void *object, size_t pins) {
  return swift_isDeallocating(object) && swift_unownedRetainCount(object) <= pins;
}

#endif
