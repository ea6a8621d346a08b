// Declarations live in include/AffixRuntimeShims.h.

#include "AffixRuntimeShims.h"

// The Swift runtime's check (Executor.h, exported since Swift 6.2, used by the stdlib's inlinable
// `Task.immediate`): a `SerialExecutorRef`, two words, and flags, in the Swift calling
// convention. Flags 0 ask for an answer, never a crash.
__attribute__((swiftcall)) extern bool swift_task_isCurrentExecutorWithFlags(
    const void *identity, uintptr_t implementation, uint64_t flags);

bool affix_is_current_executor(const void *identity, uintptr_t implementation) {
  return swift_task_isCurrentExecutorWithFlags(identity, implementation, 0);
}
