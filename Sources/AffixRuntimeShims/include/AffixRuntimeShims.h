#ifndef AFFIX_RUNTIME_SHIMS_H
#define AFFIX_RUNTIME_SHIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "AffixParking.h"
#include "AffixReclamation.h"

// Three functions the Swift runtime exports (HeapObject.h, stable ABI on every platform). The
// associated-storage table and `WeakReference` pin an object's memory with an unowned
// reference instead of watching it with a weak one (which would give the object a refcount
// side table), and use these to tell a dead object from a live one.
bool swift_isDeallocating(void *object);
size_t swift_unownedRetainCount(void *object);
void *swift_tryRetain(void *object);
void *swift_unownedRetain(void *object);
void swift_unownedRelease(void *object);

/// Whether the caller runs on the serial executor whose two words are `identity` and
/// `implementation` (an `UnownedSerialExecutor`): the current task's executor, or the thread's.
/// Asks the Swift runtime in the mode that answers and never asserts (`MustNotAssert`).
bool affix_is_current_executor(const void *identity, uintptr_t implementation);

/// Whether the object's deinit has begun. Reads the object header only, which the caller's
/// pin keeps allocated.
static inline bool affix_is_deallocating(void *object) {
  return swift_isDeallocating(object);
}

/// The object's unowned reference count: one for its strong references as a whole until its
/// deinit has finished, plus one per pin.
static inline size_t affix_unowned_count(void *object) {
  return swift_unownedRetainCount(object);
}

/// Keeps the object's memory allocated, without keeping it alive: its deinit still runs on
/// time. A manual unowned reference, so that no stored property can be read by `Mirror`, which
/// traps on an unowned reference to a dead object.
static inline void affix_pin(void *object) {
  (void)swift_unownedRetain(object);
}

/// Drops a pin taken by `affix_pin`; the object's memory is freed with the last one.
static inline void affix_unpin(void *object) {
  swift_unownedRelease(object);
}

/// Takes a strong reference to the object unless its deinit has begun. The caller's unowned
/// pin keeps the object's memory allocated, so this never touches freed memory.
static inline bool affix_try_retain(void *object) {
  return swift_tryRetain(object) != NULL;
}

#endif
