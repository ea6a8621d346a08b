// Declarations live in include/AffixRuntimeShims.h.

#include "AffixRuntimeShims.h"

// The Swift runtime's check (Executor.h, used by the stdlib's inlinable `Task.immediate`): a
// `SerialExecutorRef`, two words, and flags, in the Swift calling convention. The flag
// `MustNotAssert` (0x10) asks for an answer, never a crash, even at the cost of not asking a
// custom executor's `checkIsolated` (a dispatch queue's asserts): a wrong "no" only hands a
// release over to the owner, which is safe. Exported since Swift 6.2, so weakly imported: an older runtime (Apple
// systems before the 26 releases) has only the check without flags, which answers the same for
// an actor with the default executor, and may stop the program for one with a custom executor
// that cannot tell whether it runs the caller.
__attribute__((swiftcall, weak)) extern bool swift_task_isCurrentExecutorWithFlags(
    const void *identity, uintptr_t implementation, uint64_t flags);
__attribute__((swiftcall)) extern bool swift_task_isCurrentExecutor(
    const void *identity, uintptr_t implementation);

bool affix_is_current_executor(const void *identity, uintptr_t implementation) {
  if (swift_task_isCurrentExecutorWithFlags != NULL) {
    return swift_task_isCurrentExecutorWithFlags(identity, implementation, 0x10);
  }
  return swift_task_isCurrentExecutor(identity, implementation);
}
